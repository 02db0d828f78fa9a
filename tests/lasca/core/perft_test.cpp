// perft from the start position against the reference table of lasca-rules.md.
#include "lasca/core/perft.h"

#include <gtest/gtest.h>

#include <array>

#include "lasca/core/game.h"
#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"

namespace lasca {
namespace {

constexpr std::array<std::uint64_t, 18> kReference = {
    1,    6,     6,     18,    54,     116,    324,     846,     2148,
    5692, 13898, 37124, 97440, 269512, 742638, 2112726, 5945740, 17263752};

void expectPerft(int depth) {
    Position pos = Position::startPosition();
    const Position before = pos;
    EXPECT_EQ(perft(pos, depth), kReference[static_cast<std::size_t>(depth)]) << "depth " << depth;
    EXPECT_EQ(pos, before);
}

TEST(Perft, StartPositionDepths1To13) {
    for (int depth = 0; depth <= 13; ++depth) expectPerft(depth);
}

TEST(Perft, SlowStartPositionDepths14To17) {
    for (int depth = 14; depth <= 17; ++depth) expectPerft(depth);
}

// Every leaf-batch path this CPU runs (chosen at run time) counts the reference, and the
// first one named is the one in use by default; a path the CPU lacks, or no path, is refused.
TEST(Perft, EverySimdPathTheCpuRunsCountsTheSame) {
    const auto paths = supportedPerftSimd();
    ASSERT_FALSE(paths.empty());
    EXPECT_EQ(paths.front(), perftSimdName());
    EXPECT_EQ(paths.back(), "plain");
    for (const auto& name : paths) {
        ASSERT_TRUE(usePerftSimd(name));
        EXPECT_EQ(perftSimdName(), name);
        for (int depth = 10; depth <= 13; ++depth) expectPerft(depth);
    }
    EXPECT_FALSE(usePerftSimd("sse9"));
    EXPECT_EQ(perftSimdName(), paths.back());
    ASSERT_TRUE(usePerftSimd(paths.front()));
}

TEST(Perft, DivideSumsToPerft) {
    Position pos = Position::startPosition();
    const auto lines = divide(pos, 9);
    ASSERT_EQ(lines.size(), 6u);  // the six first moves of White
    std::uint64_t total = 0;
    for (const auto& line : lines) total += line.nodes;
    EXPECT_EQ(total, kReference[9]);
}

// R7 first matters at depth 11 (37124, not 37130): the position of the rules file where the
// white officer on e7 may not play e7xc5xe7.
TEST(Perft, R7LinePositionHasNoDoubleJump) {
    Game game;
    for (const char* m :
         {"c3-d4", "e5xc3", "d2xb4", "g5-f4", "e3xg5", "d6-e5", "b4xd6", "e7xc5", "g5xe7", "c5-d4"})
        ASSERT_TRUE(game.playText(m).ok()) << m;
    Position pos = game.current();
    MoveList list;
    generateMoves(pos, list);
    for (const Move& m : list) EXPECT_NE(formatMove(m), "e7xc5xe7");
    EXPECT_EQ(perft(pos, 1), list.size());
}

}  // namespace
}  // namespace lasca
