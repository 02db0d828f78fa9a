// Evaluation: symmetric between the colours, and its breakdown adds up.
#include "lasca/eval.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.h"

namespace lasca {
namespace {

// The same position with colours swapped and the board turned round.
Position mirrored(const Position& pos) {
    Position out;
    for (Square s = 0; s < kSquares; ++s) {
        if (pos.height(s) == 0) continue;
        ColumnBits bits = pos.column(s) ^ 0x5555555555555555ULL;  // flip every colour bit
        bits &= (ColumnBits{1} << (2 * pos.height(s))) - 1;
        out.setColumn(makeSquare(kFiles - 1 - fileOf(s), kRanks - 1 - rankOf(s)), bits,
                      pos.height(s));
    }
    out.setSideToMove(~pos.sideToMove());
    return out;
}

TEST(Eval, StartPositionIsBalanced) {
    EXPECT_EQ(evaluate(Position::startPosition()), 0);
}

TEST(Eval, MirroredPositionsScoreTheSameForTheMover) {
    for (unsigned seed = 1; seed <= 100; ++seed) {
        test::playRandomGame(Position::startPosition(), seed, 120,
                             [](const Position& pos, const Move&) {
                                 const Position m = mirrored(pos);
                                 ASSERT_EQ(m.validate(), "");
                                 ASSERT_EQ(evaluate(m), evaluate(pos)) << pos.toLfen();
                             });
    }
}

TEST(Eval, BreakdownAddsUpToTheScore) {
    for (unsigned seed = 1; seed <= 50; ++seed) {
        test::playRandomGame(Position::startPosition(), seed, 120,
                             [](const Position& pos, const Move&) {
                                 const EvalBreakdown b = explainEvaluation(pos);
                                 ASSERT_EQ(b.total, evaluate(pos));
                                 ASSERT_GE(b.terms.size(), 5u);
                             });
    }
}

TEST(Eval, CommandingMoreIsBetter) {
    // White commands two columns, Black one: White is ahead whoever is to move.
    const Position w = test::lfen("-,-,-,-/-,-,-/-,-,b,-/-,-,-/-,W,-,-/-,w,-/-,-,-,- w");
    const Position b = test::lfen("-,-,-,-/-,-,-/-,-,b,-/-,-,-/-,W,-,-/-,w,-/-,-,-,- b");
    EXPECT_GT(evaluate(w), 0);
    EXPECT_LT(evaluate(b), 0);
    // A prisoner under the commander is worth more than nothing.
    const Position held = test::lfen("-,-,-,-/-,-,-/-,-,b,-/-,-,-/-,Wb,-,-/-,-,-/-,-,-,- w");
    const Position free = test::lfen("-,-,-,-/-,-,-/-,-,b,-/-,-,-/-,W,-,-/-,-,-/-,-,-,- w");
    EXPECT_GT(evaluate(held), evaluate(free));
}

}  // namespace
}  // namespace lasca
