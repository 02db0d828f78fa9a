// Seeded random numbers shared by both games. Every random choice a program makes (reference
// players, opening shuffles, Torneio set-ups, AI sampling) draws from a Random seeded by the
// caller, so a fixed seed gives the same choices on every run and with every standard library:
// std::uniform_int_distribution and std::shuffle differ between implementations, so Random
// does its own range reduction and shuffling.
#pragma once

#include <cstdint>
#include <span>
#include <utility>

namespace common {

// Random: xoshiro256** (Blackman and Vigna), seeded through splitmix64.
//   state_   256 bits, never all zero (splitmix64 of any seed cannot give four zero words)
// 32 bytes; copyable, so a search can fork a stream.
class Random {
  public:
    explicit Random(std::uint64_t seed = 0) { reseed(seed); }
    void reseed(std::uint64_t seed);

    std::uint64_t next();                  // 64 uniform bits
    std::uint64_t below(std::uint64_t n);  // uniform in [0, n); n must be > 0
    double unit();                         // uniform in [0, 1)
    bool chance(double p) { return unit() < p; }

    // A uniformly random element's index in a range of `count` (count > 0).
    std::size_t index(std::size_t count) { return static_cast<std::size_t>(below(count)); }

    // Fisher-Yates shuffle, the same on every platform.
    template <class T>
    void shuffle(std::span<T> items) {
        for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[index(i)]);
    }

  private:
    std::uint64_t state_[4]{};
};

// Mixes a seed with a stream number (game index, seat, thread) into an independent seed.
std::uint64_t mixSeed(std::uint64_t seed, std::uint64_t stream);

// splitmix64 (Steele, Lea and Flood; Vigna's constants): advances `x` by the golden gamma and
// returns its mix, a 64-bit word with good avalanche. The same on every machine.
std::uint64_t splitmix64(std::uint64_t& x);

}  // namespace common
