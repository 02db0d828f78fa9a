#include "common/seed.h"

#include <sodium.h>

#include <array>
#include <cstdlib>
#include <vector>

namespace common {
namespace {

// libsodium's own initialisation: thread-safe, idempotent; it only fails when the system has
// no random source, which leaves nothing sensible to do but stop.
void ensureSodium() {
    static const bool ready = sodium_init() >= 0;
    if (!ready) std::abort();
}

void putLittleEndian(std::uint64_t value, unsigned char* out) {
    for (int i = 0; i < 8; ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
}

}  // namespace

std::uint64_t deriveSeed(std::uint64_t key, std::string_view purpose, std::uint64_t index) {
    ensureSodium();
    std::array<unsigned char, crypto_generichash_KEYBYTES_MIN> keyBytes{};
    putLittleEndian(key, keyBytes.data());
    std::vector<unsigned char> message(purpose.begin(), purpose.end());
    message.push_back(0);  // ends the purpose, so that no (purpose, index) pair reads as another
    message.resize(message.size() + 8);
    putLittleEndian(index, message.data() + message.size() - 8);
    std::array<unsigned char, 8> digest{};
    crypto_generichash(digest.data(), digest.size(), message.data(), message.size(),
                       keyBytes.data(), keyBytes.size());
    std::uint64_t out = 0;
    for (int i = 7; i >= 0; --i) out = (out << 8) | digest[static_cast<std::size_t>(i)];
    return out;
}

std::uint64_t systemSeed() {
    ensureSodium();
    std::uint64_t seed = 0;
    randombytes_buf(&seed, sizeof seed);
    return seed;
}

std::string randomHex(std::size_t bytes) {
    ensureSodium();
    std::vector<unsigned char> raw(bytes);
    randombytes_buf(raw.data(), raw.size());
    std::string hex(2 * bytes + 1, '\0');
    sodium_bin2hex(hex.data(), hex.size(), raw.data(), raw.size());
    hex.pop_back();
    return hex;
}

std::string hashSecret(std::string_view secret) {
    ensureSodium();
    std::array<unsigned char, crypto_generichash_BYTES> digest{};
    crypto_generichash(digest.data(), digest.size(),
                       reinterpret_cast<const unsigned char*>(secret.data()), secret.size(),
                       nullptr, 0);
    std::string hex(2 * digest.size() + 1, '\0');
    sodium_bin2hex(hex.data(), hex.size(), digest.data(), digest.size());
    hex.pop_back();
    return hex;
}

bool sameSecret(std::string_view a, std::string_view b) {
    ensureSodium();
    return a.size() == b.size() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace common
