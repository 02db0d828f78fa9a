#include "web/accounts/accounts.h"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <cstdlib>

#include "common/seed.h"
#include "common/text.h"

namespace web::accounts {

static_assert(kHashOpsLimit == crypto_pwhash_OPSLIMIT_INTERACTIVE);
static_assert(kHashMemLimit == crypto_pwhash_MEMLIMIT_INTERACTIVE);
static_assert(kTokenLength == (4 * kTokenBytes + 2) / 3);

namespace {

// libsodium's own initialisation: thread-safe, idempotent; it only fails when the system has
// no random source, which leaves nothing sensible to do but stop.
void ensureSodium() {
    static const bool ready = sodium_init() >= 0;
    if (!ready) std::abort();
}

bool nameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

bool tokenChar(char c) {
    return nameChar(c);  // base64url's alphabet is the name's: letters, digits, '-', '_'
}

std::string cookie(std::string_view value, std::int64_t maxAge, bool secure) {
    std::string text = std::string(kCookieName) + "=" + std::string(value) +
                       "; HttpOnly; SameSite=Lax; Path=/; Max-Age=" + std::to_string(maxAge);
    if (secure) text += "; Secure";
    return text;
}

}  // namespace

common::Result<std::string> nameKey(std::string_view name) {
    if (name.size() < kMinNameLength || name.size() > kMaxNameLength ||
        !std::all_of(name.begin(), name.end(), nameChar))
        return common::makeError(
            "a name is 2 to 20 characters: letters (a-z, A-Z), digits, _ or -");
    std::string key(name);
    for (char& c : key)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    // A deleted account's games name it "deleted-<id>": nobody may take such a name.
    if (key.starts_with(kDeletedNamePrefix))
        return common::makeError("names beginning with \"deleted-\" are kept for deleted accounts");
    return key;
}

std::optional<std::string> passwordError(std::string_view password) {
    if (password.size() < kMinPasswordBytes) return "a password has at least 8 characters";
    if (password.size() > kMaxPasswordBytes) return "a password has at most 256 bytes";
    return std::nullopt;
}

common::Result<std::string> hashPassword(std::string_view password) {
    ensureSodium();
    std::array<char, crypto_pwhash_STRBYTES> out{};
    if (crypto_pwhash_str(out.data(), password.data(), password.size(), kHashOpsLimit,
                          kHashMemLimit) != 0)
        return common::makeError("cannot hash the password: out of memory");
    return std::string(out.data());
}

bool verifyPassword(std::string_view hash, std::string_view password) {
    ensureSodium();
    if (hash.empty() || hash.size() >= crypto_pwhash_STRBYTES) return false;
    const std::string text(hash);  // crypto_pwhash_str_verify reads a NUL-ended string
    return crypto_pwhash_str_verify(text.c_str(), password.data(), password.size()) == 0;
}

const std::string& dummyHash() {
    static const std::string hash = [] {
        auto made = hashPassword(common::randomHex(16));
        return made ? made.value() : std::string();
    }();
    return hash;
}

NewToken newSessionToken() {
    ensureSodium();
    std::array<unsigned char, kTokenBytes> raw{};
    randombytes_buf(raw.data(), raw.size());
    std::array<char, kTokenLength + 1> text{};
    sodium_bin2base64(text.data(), text.size(), raw.data(), raw.size(),
                      sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    sodium_memzero(raw.data(), raw.size());
    NewToken token;
    token.token.assign(text.data(), kTokenLength);
    token.hash = tokenHash(token.token);
    return token;
}

std::string tokenHash(std::string_view token) {
    return common::hashSecret(token);
}

bool wellFormedToken(std::string_view text) {
    return text.size() == kTokenLength && std::all_of(text.begin(), text.end(), tokenChar);
}

std::string sessionCookie(std::string_view token, bool secure) {
    return cookie(token, kSessionSeconds, secure);
}

std::string endedSessionCookie(bool secure) {
    return cookie("", 0, secure);
}

std::optional<std::string> tokenFromCookies(std::string_view header) {
    for (const auto value : common::cookieValues(header, kCookieName))
        if (wellFormedToken(value)) return std::string(value);
    return std::nullopt;
}

}  // namespace web::accounts
