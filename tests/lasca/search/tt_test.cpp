// Transposition table: probe/store, mate score adjustment, replacement, hashfull, resizing.
#include "lasca/search/tt.h"

#include <gtest/gtest.h>

namespace lasca::search {
namespace {

TEST(TT, StoresAndFindsAnEntry) {
    TranspositionTable tt;
    const Key key = 0x123456789abcdef0ULL;
    EXPECT_FALSE(tt.probe(key).found);
    tt.store(key, 42, -7, 5, Bound::Lower, 3);
    const TTHit hit = tt.probe(key);
    ASSERT_TRUE(hit.found);
    EXPECT_EQ(hit.score, 42);
    EXPECT_EQ(hit.eval, -7);
    EXPECT_EQ(hit.depth, 5);
    EXPECT_EQ(hit.bound, Bound::Lower);
    EXPECT_EQ(hit.move, 3);
    EXPECT_FALSE(tt.probe(key ^ (1ULL << 40)).found);  // other check bits, same bucket
}

TEST(TT, DepthZeroEntriesAreStoredToo) {
    TranspositionTable tt;
    tt.store(77, 1, 1, 0, Bound::Exact, kNoMoveId);
    EXPECT_TRUE(tt.probe(77).found);
    EXPECT_EQ(tt.probe(77).depth, 0);
}

TEST(TT, MateScoresAreStoredRelativeToTheNode) {
    const Score winIn5FromRoot = kMate - 5;
    const Score stored = scoreToTT(winIn5FromRoot, 3);  // at ply 3 the win is 2 plies away
    EXPECT_EQ(stored, kMate - 2);
    EXPECT_EQ(scoreFromTT(stored, 1), kMate - 3);  // seen again at ply 1: 3 plies from root
    EXPECT_EQ(scoreFromTT(scoreToTT(-kMate + 6, 4), 4), -kMate + 6);
    EXPECT_EQ(scoreToTT(150, 9), 150);
}

TEST(TT, KeepsTheDeeperResultForTheSamePosition) {
    TranspositionTable tt;
    tt.store(99, 10, 0, 12, Bound::Lower, 1);
    tt.store(99, 20, 0, 2, Bound::Upper, 2);  // much shallower, not exact: the old one stays
    EXPECT_EQ(tt.probe(99).depth, 12);
    tt.store(99, 30, 0, 2, Bound::Exact, 4);  // exact results always replace
    EXPECT_EQ(tt.probe(99).depth, 2);
    EXPECT_EQ(tt.probe(99).score, 30);
}

TEST(TT, FullBucketReplacesTheShallowestEntry) {
    TranspositionTable tt;
    ASSERT_TRUE(tt.resize(1).ok());
    // Keys sharing the low bits land in one bucket (the table has far fewer than 2^32 buckets).
    auto keyOf = [](std::uint64_t i) { return (i << 32) | 5; };
    for (std::uint64_t i = 1; i <= 5; ++i)
        tt.store(keyOf(i), 0, 0, static_cast<int>(10 + i), Bound::Exact, kNoMoveId);
    tt.store(keyOf(6), 0, 0, 20, Bound::Exact, kNoMoveId);
    EXPECT_FALSE(tt.probe(keyOf(1)).found);  // depth 11, the shallowest, was replaced
    for (std::uint64_t i = 2; i <= 6; ++i) EXPECT_TRUE(tt.probe(keyOf(i)).found) << i;
}

TEST(TT, OldEntriesAreReplacedFirst) {
    TranspositionTable tt;
    ASSERT_TRUE(tt.resize(1).ok());
    auto keyOf = [](std::uint64_t i) { return (i << 32) | 9; };
    tt.store(keyOf(1), 0, 0, 30, Bound::Exact, kNoMoveId);  // deep but from an old search
    for (int s = 0; s < 8; ++s) tt.newSearch();
    for (std::uint64_t i = 2; i <= 5; ++i) tt.store(keyOf(i), 0, 0, 10, Bound::Exact, kNoMoveId);
    tt.store(keyOf(6), 0, 0, 10, Bound::Exact, kNoMoveId);
    EXPECT_FALSE(tt.probe(keyOf(1)).found);
}

TEST(TT, HashfullCountsThisSearchInPermille) {
    TranspositionTable tt;
    ASSERT_TRUE(tt.resize(1).ok());
    EXPECT_EQ(tt.hashfull(), 0);
    for (std::uint64_t i = 0; i < 200000; ++i)
        tt.store(i * 0x9E3779B97F4A7C15ULL, 0, 0, 1, Bound::Exact, kNoMoveId);
    EXPECT_GT(tt.hashfull(), 900);
    tt.newSearch();
    EXPECT_EQ(tt.hashfull(), 0);  // entries of earlier searches do not count
    tt.clear();
    EXPECT_FALSE(tt.probe(0x9E3779B97F4A7C15ULL).found);
}

TEST(TT, ResizeRejectsBadSizesAndKeepsTheTable) {
    TranspositionTable tt;
    ASSERT_TRUE(tt.resize(2).ok());
    EXPECT_FALSE(tt.resize(0).ok());
    EXPECT_FALSE(tt.resize(TranspositionTable::kMaxMegabytes + 1).ok());
    EXPECT_EQ(tt.megabytes(), 2u);
    tt.store(1234, 5, 5, 5, Bound::Exact, 0);
    EXPECT_TRUE(tt.probe(1234).found);
}

}  // namespace
}  // namespace lasca::search
