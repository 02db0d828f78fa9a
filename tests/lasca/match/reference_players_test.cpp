// The reference players of lasca-reference.
#include <gtest/gtest.h>

#include "lasca/match/reference_players.h"
#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"

namespace lasca::match {
namespace {

// White officer on a1 next to a black soldier on b2 with c3 empty: the capture a1xc3 leaves
// Black without a piece to command (R9), so every player that looks ahead takes it.
constexpr const char* kWinInOne = "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/b,-,-/W,-,-,- w";

TEST(ReferencePlayers, NamesParse) {
    EXPECT_EQ(parsePlayerKind("Random"), PlayerKind::Random);
    EXPECT_EQ(parsePlayerKind("greedy"), PlayerKind::Greedy);
    EXPECT_EQ(parsePlayerKind("ALPHABETA"), PlayerKind::AlphaBeta);
    EXPECT_FALSE(parsePlayerKind("minimax"));
}

TEST(ReferencePlayers, NoLegalMoveGivesTheNullMove) {
    const Position pos =
        Position::fromLfen("-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- b").value();
    common::Random rng(1);
    EXPECT_TRUE(chooseMove(pos, PlayerConfig{PlayerKind::Random, 1}, rng).isNull());
}

TEST(ReferencePlayers, RandomPlaysLegalMovesAndIsSeeded) {
    const Position pos = Position::startPosition();
    common::Random a(5), b(5);
    MoveList legal;
    generateMoves(pos, legal);
    for (int i = 0; i < 20; ++i) {
        const Move m = chooseMove(pos, PlayerConfig{PlayerKind::Random, 1}, a);
        EXPECT_TRUE(legal.contains(m));
        EXPECT_EQ(m, chooseMove(pos, PlayerConfig{PlayerKind::Random, 1}, b));
    }
}

TEST(ReferencePlayers, GreedyAndAlphaBetaTakeTheWin) {
    const auto pos = Position::fromLfen(kWinInOne);
    ASSERT_TRUE(pos.ok()) << pos.error();
    common::Random rng(1);
    EXPECT_EQ(formatMove(chooseMove(pos.value(), PlayerConfig{PlayerKind::Greedy, 1}, rng)),
              "a1xc3");
    EXPECT_EQ(formatMove(chooseMove(pos.value(), PlayerConfig{PlayerKind::AlphaBeta, 3}, rng)),
              "a1xc3");
}

// A loss at ply 1 scores -(kMate - 1), as the brief of lasca-reference says.
TEST(ReferencePlayers, SearchScoresMateByDistance) {
    const Position pos = Position::fromLfen(kWinInOne).value();
    std::uint64_t nodes = 0;
    EXPECT_EQ(referenceSearch(pos, 2, 0, -kInfinite, kInfinite, nodes), kMate - 1);
}

TEST(ReferencePlayers, AlphaBetaIsDeterministic) {
    common::Random a(1), b(2);
    const Position pos = Position::startPosition();
    EXPECT_EQ(chooseMove(pos, PlayerConfig{PlayerKind::AlphaBeta, 4}, a),
              chooseMove(pos, PlayerConfig{PlayerKind::AlphaBeta, 4}, b));
}

}  // namespace
}  // namespace lasca::match
