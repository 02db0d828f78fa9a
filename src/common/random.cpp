#include "common/random.h"

namespace common {

namespace {

__extension__ typedef unsigned __int128 Wide;  // 128-bit product (GCC and Clang)

std::uint64_t rotl(std::uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

}  // namespace

std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void Random::reseed(std::uint64_t seed) {
    for (std::uint64_t& word : state_) word = splitmix64(seed);
}

std::uint64_t Random::next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
}

// Lemire's multiply-and-reject: unbiased, and one multiplication in the common case.
std::uint64_t Random::below(std::uint64_t n) {
    Wide product = static_cast<Wide>(next()) * n;
    auto low = static_cast<std::uint64_t>(product);
    if (low < n) {
        const std::uint64_t threshold = (0 - n) % n;
        while (low < threshold) {
            product = static_cast<Wide>(next()) * n;
            low = static_cast<std::uint64_t>(product);
        }
    }
    return static_cast<std::uint64_t>(product >> 64);
}

double Random::unit() {
    return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

std::uint64_t mixSeed(std::uint64_t seed, std::uint64_t stream) {
    std::uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL);
    return splitmix64(x);
}

}  // namespace common
