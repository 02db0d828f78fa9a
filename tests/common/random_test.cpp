// Random: the seeded generator both games draw from must give the same numbers on every
// platform and stay in range.
#include "common/random.h"
#include "common/seed.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>
#include <vector>

namespace common {
namespace {

TEST(Random, SameSeedSameStream) {
    Random a(42), b(42), c(43);
    bool differs = false;
    for (int i = 0; i < 100; ++i) {
        const std::uint64_t x = a.next();
        EXPECT_EQ(x, b.next());
        differs |= x != c.next();
    }
    EXPECT_TRUE(differs);
}

// The first outputs are pinned: a change of algorithm would silently change every seeded game.
TEST(Random, StreamIsPinned) {
    Random r(0);
    EXPECT_EQ(r.next(), 0x99ec5f36cb75f2b4ULL);
    EXPECT_EQ(r.below(10), 7u);
}

TEST(Random, BelowStaysInRangeAndCoversIt) {
    Random r(7);
    std::array<int, 6> seen{};
    for (int i = 0; i < 6000; ++i) {
        const std::uint64_t v = r.below(6);
        ASSERT_LT(v, 6u);
        ++seen[v];
    }
    for (int n : seen) EXPECT_GT(n, 800);  // each face about 1000 times
    EXPECT_EQ(r.below(1), 0u);
}

TEST(Random, UnitIsInHalfOpenInterval) {
    Random r(3);
    for (int i = 0; i < 10000; ++i) {
        const double u = r.unit();
        ASSERT_GE(u, 0.0);
        ASSERT_LT(u, 1.0);
    }
}

TEST(Random, ShuffleIsAPermutationAndDeterministic) {
    std::vector<int> a(50), b;
    for (int i = 0; i < 50; ++i) a[static_cast<std::size_t>(i)] = i;
    b = a;
    Random r1(9), r2(9);
    r1.shuffle(std::span<int>(a));
    r2.shuffle(std::span<int>(b));
    EXPECT_EQ(a, b);
    std::vector<int> sorted = a;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < 50; ++i) EXPECT_EQ(sorted[static_cast<std::size_t>(i)], i);
    EXPECT_NE(a, sorted);
}

TEST(Random, MixedSeedsDiffer) {
    EXPECT_NE(mixSeed(1, 0), mixSeed(1, 1));
    EXPECT_NE(mixSeed(1, 0), mixSeed(2, 0));
    EXPECT_EQ(mixSeed(5, 3), mixSeed(5, 3));
}

// deriveSeed is keyed BLAKE2b with an 8-byte digest read little-endian; the expected values were
// computed apart with Python's hashlib:
//   blake2b(purpose + b'\0' + index as 8 bytes LE, key=key as 8 bytes LE + 8 zero bytes,
//           digest_size=8)
TEST(Seed, DeriveSeedIsKeyedBlake2b) {
    EXPECT_EQ(deriveSeed(42, "torneio seat", 1), 13028796414424934240ull);
    EXPECT_EQ(deriveSeed(0, "", 0), 1066859236226628812ull);
    EXPECT_EQ(deriveSeed(~0ull, "torneio game", 7), 7534771086043831119ull);
}

TEST(Seed, EveryInputChangesTheSeed) {
    const std::uint64_t base = deriveSeed(5, "a", 3);
    EXPECT_EQ(deriveSeed(5, "a", 3), base);
    EXPECT_NE(deriveSeed(6, "a", 3), base);
    EXPECT_NE(deriveSeed(5, "b", 3), base);
    EXPECT_NE(deriveSeed(5, "a", 4), base);
    EXPECT_NE(deriveSeed(5, "a", 3), mixSeed(5, 3));
}

// Tokens: 128 bits from the system as 32 hex digits, kept as their BLAKE2b-256 (checked against
// Python's hashlib.blake2b(b"abc").hexdigest()), compared without leaking where they differ.
TEST(Seed, TokensAreRandomAndKeptHashed) {
    const std::string token = randomHex(16);
    EXPECT_EQ(token.size(), 32u);
    EXPECT_EQ(token.find_first_not_of("0123456789abcdef"), std::string::npos);
    EXPECT_NE(randomHex(16), token);
    EXPECT_EQ(hashSecret("abc"),
              "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319");
    EXPECT_TRUE(sameSecret(hashSecret(token), hashSecret(token)));
    EXPECT_FALSE(sameSecret(hashSecret(token), hashSecret(token + "0")));
    EXPECT_FALSE(sameSecret("ab", "abc"));
}

TEST(Seed, SystemSeedsAreDrawnAfresh) {
    std::set<std::uint64_t> seen;
    for (int i = 0; i < 16; ++i) seen.insert(systemSeed());
    EXPECT_EQ(seen.size(), 16u);  // 16 draws of 64 bits: a repeat has odds of about 2^-57
}

}  // namespace
}  // namespace common
