// Evaluation: symmetric between the colours, and its breakdown adds up.
#include "lasca/eval/eval.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"
#include "lasca/test_util.h"

namespace lasca::eval {
namespace {

using test::mirrored;

// Both sides' counts are equal at the start, so only the tempo is left.
TEST(Eval, StartPositionIsBalanced) {
    const EvalFeatures f = extractFeatures(Position::startPosition());
    for (std::size_t i = 0; i < kFeatureCount; ++i) {
        if (i != Tempo) {
            EXPECT_EQ(f.count[0][i], f.count[1][i]) << featureName(EvalFeature(i));
        }
    }
    EXPECT_EQ(evaluate(Position::startPosition()), weightAt(tunedWeights()[Tempo], kPhaseMax));
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

// The tuned weights still see that commanding two columns against one is better (losing
// every commander loses, R9).
TEST(Eval, CommandingMoreIsBetter) {
    // White commands two columns, Black one: White is ahead whoever is to move.
    const Position w = test::lfen("-,-,-,-/-,-,-/-,-,b,-/-,-,-/-,W,-,-/-,w,-/-,-,-,- w");
    const Position b = test::lfen("-,-,-,-/-,-,-/-,-,b,-/-,-,-/-,W,-,-/-,w,-/-,-,-,- b");
    EXPECT_GT(evaluate(w), 0);
    EXPECT_LT(evaluate(b), 0);
}

// ---------------------------------------------------------------------------------------------
// The features one by one, on hand-built positions. The expected numbers are worked out by hand
// from the definitions in eval.h (and the rules R4-R8 they refer to), not read off the code.

Square sq(const char* name) {
    return parseSquare(name).value();
}

// One feature's expected count for each colour.
struct Expected {
    EvalFeature feature;
    int white;
    int black;
};

void expectCounts(const Position& pos, std::initializer_list<Expected> expected) {
    const EvalFeatures f = extractFeatures(pos);
    for (const Expected& e : expected) {
        EXPECT_EQ(f.count[0][static_cast<std::size_t>(e.feature)], e.white)
            << featureName(e.feature) << " of White in " << pos.toLfen();
        EXPECT_EQ(f.count[1][static_cast<std::size_t>(e.feature)], e.black)
            << featureName(e.feature) << " of Black in " << pos.toLfen();
    }
}

// The hand-built positions of the tests below, also checked for colour symmetry.
constexpr const char* kCommandersLfen = "-,-,Wb,b/-,-,B/-,-,-,-/-,wb,-/-,W,-,-/bw,-,-/w,-,-,- w";
constexpr const char* kColumnsLfen = "-,-,Bww,-/-,-,-/-,bbw,-,b/-,Wwb,-/-,-,-,-/wbb,-,ww/-,-,-,- w";
constexpr const char* kAdvanceLfen = "b,-,-,-/b,bw,w/b,-,w,W/-,w,b/w,w,B,b/w,b,-/w,-,-,- w";
constexpr const char* kPromotionLfen = "W,W,-,-/w,W,w/-,-,w,-/-,-,-/-,-,-,-/b,b,bw/-,B,B,- w";
constexpr const char* kMobilityLfen = "-,-,-,B/b,-,-/-,b,-,w/-,W,-/-,-,w,-/-,-,-/w,-,-,- w";
constexpr const char* kThreatsLfen = "-,-,-,-/-,-,-/-,-,-,-/-,b,b/-,w,w,W/w,-,w/-,-,-,- w";
constexpr const char* kBackRankLfen = "W,b,b,B/-,b,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/w,Bw,Wb,- w";
constexpr const char* kCentreLfen = "-,-,-,-/-,b,-/b,B,b,w/wb,W,w/-,w,bw,-/w,-,-/-,-,-,- w";
constexpr const char* kOfficersLfen =
    "-,-,Bw,-/-,-,-/-,bBBwW,-,bWWw/-,WWbBb,-/-,-,-,-/wBbb,-,ww/-,-,-,- w";
constexpr const char* kFullTableLfen =
    "-,-,-,BW/-,-,w/-,bBB,-,-/-,WWbBB,-/-,-,-,-/bw,-,-/w,-,-,- w";

TEST(EvalCounts, CommandersAreCountedByTheRankOfTheTopPiece) {
    // SoldierCommanders / OfficerCommanders: only the commander counts (R3), whatever is under
    // it. White: soldiers a1, d4 (over a black prisoner); officers c3, e7 (over a prisoner).
    // Black: soldiers g7, b2 (over a white prisoner); officer f6. Prisoners are not commanders.
    const Position pos = test::lfen(kCommandersLfen);
    expectCounts(pos, {{SoldierCommanders, 2, 2}, {OfficerCommanders, 2, 1}});
}

TEST(EvalCounts, ColumnsFromTheBriefExamples) {
    // Reserves, Prisoners, EnemyBelow, Stacks on one column each. A column is a run of its
    // commander's colour over a run of the other (R5). "Wwbb" (top first): one reserve (w),
    // then two prisoners (b b); the second piece is ours, so no EnemyBelow.
    expectCounts(test::lfen("-,-,-,-/-,-,-/-,-,-,-/-,Wwbb,-/-,-,-,-/-,-,-/-,-,-,- w"),
                 {{Reserves, 1, 0},
                  {ReserveOfficers, 0, 0},
                  {Prisoners, 2, 0},
                  {PrisonerOfficers, 0, 0},
                  {EnemyBelow, 0, 0},
                  {Stacks, 1, 0}});
    // "wbb": the piece under the commander is an enemy: EnemyBelow, no reserve, prisoners 2.
    expectCounts(test::lfen("-,-,-,-/-,-,-/-,-,-,-/-,wbb,-/-,-,-,-/-,-,-/-,-,-,- w"),
                 {{Reserves, 0, 0}, {Prisoners, 2, 0}, {EnemyBelow, 1, 0}, {Stacks, 1, 0}});
    // A single piece is no stack and has nothing under it; an officer commander is no reserve
    // officer.
    expectCounts(test::lfen("-,-,-,-/-,-,-/-,-,-,-/-,W,-/-,-,-,-/-,-,-/-,-,-,- w"),
                 {{Reserves, 0, 0},
                  {ReserveOfficers, 0, 0},
                  {Prisoners, 0, 0},
                  {PrisonerOfficers, 0, 0},
                  {EnemyBelow, 0, 0},
                  {Stacks, 0, 0}});
}

TEST(EvalCounts, ColumnStructureIsCountedForTheCommandersOwner) {
    // White: d4 "Wwb" (reserve 1, prisoner 1), b2 "wbb" (enemy below, prisoners 2), f2 "ww"
    // (reserve 1): stacks 3, reserves 2, prisoners 3, enemy below 1. Black: c5 "bbw" (reserve
    // 1, prisoner 1), e7 "Bww" (enemy below, prisoners 2), g5 "b" (single): stacks 2, reserves
    // 1, prisoners 3, enemy below 1. The white pieces under the black commanders count for
    // Black (as its prisoners), not for White. No officer is under a commander.
    const Position pos = test::lfen(kColumnsLfen);
    ASSERT_EQ(columnText(pos.column(sq("c5")), pos.height(sq("c5"))), "bbw");
    expectCounts(pos, {{Stacks, 3, 2},
                       {Reserves, 2, 1},
                       {ReserveOfficers, 0, 0},
                       {Prisoners, 3, 3},
                       {PrisonerOfficers, 0, 0},
                       {EnemyBelow, 1, 1}});
}

TEST(EvalCounts, TallColumnsUseEverySlot) {
    // Columns of 8, 12 and 22 pieces (R3 allows any height up to all 22 pieces), so that the
    // pieces deep in the column are read too.
    // "Wwwbbbbb": reserves w w, then prisoners b b b b b (5).
    expectCounts(test::lfen("-,-,-,-/-,-,-/-,-,-,-/-,Wwwbbbbb,-/-,-,-,-/-,-,-/-,-,-,- b"),
                 {{Reserves, 2, 0},
                  {Prisoners, 5, 0},
                  {EnemyBelow, 0, 0},
                  {Stacks, 1, 0},
                  {OfficerCommanders, 1, 0}});
    // Black officer over 10 b and 11 w, every slot used: reserves 10, prisoners 11.
    const std::string black = "B" + std::string(10, 'b') + std::string(11, 'w');
    ASSERT_EQ(black.size(), 22u);
    expectCounts(test::lfen("-,-,-,-/-,-,-/-,-,-,-/-," + black + ",-/-,-,-,-/-,-,-/-,-,-,- w"),
                 {{Reserves, 0, 10}, {Prisoners, 0, 11}, {EnemyBelow, 0, 0}, {Stacks, 0, 1}});
    // White soldier over 11 b, the tallest column with an enemy below (its commander's run is
    // the commander alone): enemy below, prisoners 11, no reserves.
    const std::string white = "w" + std::string(11, 'b');
    expectCounts(test::lfen("-,-,-,-/-,-,-/-,-,-,-/-," + white + ",-/-,-,-,-/-,-,-/-,-,-,- w"),
                 {{Reserves, 0, 0}, {Prisoners, 11, 0}, {EnemyBelow, 1, 0}, {Stacks, 1, 0}});
    // Officers deep in a full column. Black officer over "BbBbBbbbbB" (reserves 10, officers at
    // depths 1, 3, 5 and 10: 4) and "WwwwwwwwwwW" (prisoners 11, officers at depth 11 and in
    // the last slot, depth 21: 2).
    const std::string deepBlack = "B" + std::string("BbBbBbbbbB") + "W" + std::string(9, 'w') + "W";
    ASSERT_EQ(deepBlack.size(), 22u);
    expectCounts(test::lfen("-,-,-,-/-,-,-/-,-,-,-/-," + deepBlack + ",-/-,-,-,-/-,-,-/-,-,-,- w"),
                 {{Reserves, 0, 10},
                  {ReserveOfficers, 0, 4},
                  {Prisoners, 0, 11},
                  {PrisonerOfficers, 0, 2},
                  {EnemyBelow, 0, 0},
                  {OfficerCommanders, 0, 1}});
    // White soldier over "WwwwwwwwwW" (reserves 10, officers at depths 1 and 10: 2) and
    // "bbbbbbbbbbB" (prisoners 11, officer in the last slot, depth 21: 1).
    const std::string deepWhite =
        "w" + std::string("W") + std::string(8, 'w') + "W" + std::string(10, 'b') + "B";
    ASSERT_EQ(deepWhite.size(), 22u);
    expectCounts(test::lfen("-,-,-,-/-,-,-/-,-,-,-/-," + deepWhite + ",-/-,-,-,-/-,-,-/-,-,-,- w"),
                 {{Reserves, 10, 0},
                  {ReserveOfficers, 2, 0},
                  {Prisoners, 11, 0},
                  {PrisonerOfficers, 1, 0},
                  {EnemyBelow, 0, 0},
                  {SoldierCommanders, 1, 0}});
}

TEST(EvalCounts, OfficersAmongTheReservesAndThePrisoners) {
    // ReserveOfficers: the officers among the reserves (the own run directly under the
    // commander); PrisonerOfficers: the officers among the prisoners (every enemy piece under
    // the commander). The commander itself is neither.
    // "WWbB" (top first): reserves 1 (W), of which officers 1; prisoners 2 (b, B), of which
    // officers 1.
    expectCounts(test::lfen("-,-,-,-/-,-,-/-,-,-,-/-,WWbB,-/-,-,-,-/-,-,-/-,-,-,- w"),
                 {{Reserves, 1, 0},
                  {ReserveOfficers, 1, 0},
                  {Prisoners, 2, 0},
                  {PrisonerOfficers, 1, 0},
                  {EnemyBelow, 0, 0},
                  {Stacks, 1, 0}});
    // The same column for Black, "BBwW": reserves 1 (officers 1), prisoners 2 (officers 1).
    expectCounts(test::lfen("-,-,-,-/-,-,-/-,-,-,-/-,BBwW,-/-,-,-,-/-,-,-/-,-,-,- b"),
                 {{Reserves, 0, 1},
                  {ReserveOfficers, 0, 1},
                  {Prisoners, 0, 2},
                  {PrisonerOfficers, 0, 1},
                  {EnemyBelow, 0, 0},
                  {Stacks, 0, 1}});
    // Several columns of each colour:
    // White: d4 "WWbBb" (reserve W: officers 1; prisoners b B b: officers 1); b2 "wBbb" (enemy
    // below; prisoners B b b: officers 1); f2 "ww" (reserve w: officers 0).
    // Totals: reserves 2, officers 1; prisoners 6, officers 2; enemy below 1; stacks 3.
    // Black: c5 "bBBwW" (reserves B B: officers 2; prisoners w W: officers 1); e7 "Bw" (the
    // officer is the commander; enemy below; prisoner w: officers 0); g5 "bWWw" (enemy below;
    // prisoners W W w: officers 2). Totals: reserves 2, officers 2; prisoners 6, officers 3;
    // enemy below 2; stacks 3.
    const Position pos = test::lfen(kOfficersLfen);
    ASSERT_EQ(columnText(pos.column(sq("g5")), pos.height(sq("g5"))), "bWWw");
    expectCounts(pos, {{SoldierCommanders, 2, 2},
                       {OfficerCommanders, 1, 1},
                       {Reserves, 2, 2},
                       {ReserveOfficers, 1, 2},
                       {Prisoners, 6, 6},
                       {PrisonerOfficers, 2, 3},
                       {EnemyBelow, 1, 2},
                       {Stacks, 3, 3}});
    // Every piece is a commander, a reserve, or a prisoner of the other colour: 11 = 3 + 2 + 6
    // for each colour.
    EXPECT_EQ(pos.pieceCount(Color::White), 11);
    EXPECT_EQ(pos.pieceCount(Color::Black), 11);
}

TEST(EvalCounts, AdvanceCountsSoldierCommandersByRelativeRank) {
    // AdvanceRank2..6: soldier commanders on relative ranks 1..5; rank 0 and officers do not
    // count, and Black's ranks count from rank 7. White soldiers: a1 (rank 0), b2 (1), a3 c3
    // (2), d4 (3), e5 (4), f6 (5); officer g5. Black soldiers: a7 (0), b6 and d6 (1, d6 over a
    // white prisoner), a5 (2), f4 (3), g3 (4), d2 (5); officer e3.
    const Position pos = test::lfen(kAdvanceLfen);
    expectCounts(pos, {{AdvanceRank2, 1, 2},
                       {AdvanceRank3, 2, 1},
                       {AdvanceRank4, 1, 1},
                       {AdvanceRank5, 1, 1},
                       {AdvanceRank6, 1, 1},
                       {SoldierCommanders, 7, 7},
                       {OfficerCommanders, 1, 1}});
}

TEST(EvalCounts, PromotionThreatsNeedAnEmptySquareOnTheFarRank) {
    // PromotionThreats: soldier commanders one step from the far rank with an empty square
    // diagonally ahead (R4, R8). No capture is possible for either side here.
    // White: b6 is blocked by the officers on a7 and c7 (0); f6 has e7 and g7 free but is one
    // soldier (1); the officer on d6 is no soldier; e5 is two ranks short. Total 1.
    // Black: b2 has a1 free (1); d2 is blocked by c1 and e1 (0); f2 (over a white prisoner) has
    // g1 free (1). Total 2. AdvanceRank6 counts them all, blocked or not: White 2, Black 3.
    const Position pos = test::lfen(kPromotionLfen);
    ASSERT_FALSE(hasCapture(pos));
    expectCounts(pos, {{PromotionThreats, 1, 2}, {AdvanceRank6, 2, 3}});
    // A blocker moving away opens b6's path: now both b6 and f6 threaten.
    Position open = pos;
    open.clearSquare(sq("a7"));
    expectCounts(open, {{PromotionThreats, 2, 2}});
}

TEST(EvalCounts, MobilityCountsTheStepsOfR4) {
    // Mobility: steps onto empty squares, soldiers forward only, officers both ways (R4).
    // White: a1 -> b2 (1); officer d4 -> e5, c3 (c5 and e3 are occupied) (2); g5 -> f6, the
    // other side is off the board (1); e3 -> f4 only, d4 is taken and d2/f2 are backward (1).
    // Total 5. Black: b6 -> a5 (1); c5 -> b4 (1); officer g7 -> f6 (1). Total 3.
    const Position pos = test::lfen(kMobilityLfen);
    expectCounts(pos, {{Mobility, 5, 3}});
    // "As if it were to move": the count does not depend on the side to move.
    Position other = pos;
    other.setSideToMove(Color::Black);
    expectCounts(other, {{Mobility, 5, 3}});
}

TEST(EvalCounts, AttackersAndThreatenedColumns) {
    // Attackers: own commanders with a jump (R5); Threatened: own columns the opponent could
    // jump, both as if that side were to move. White: c3 jumps d4 (to e5), e3 jumps d4 (to c5)
    // and f4 (to g5), officer g3 jumps f4 (to e5): 3 attackers, and Black's d4 and f4 are
    // threatened (2, each by more than one attacker). Black: d4 cannot jump c3 (b2 is taken)
    // nor e3 (f2 is taken); f4 jumps e3 (to d2): 1 attacker, 1 white column threatened.
    const Position pos = test::lfen(kThreatsLfen);
    expectCounts(pos, {{Attackers, 3, 1}, {Threatened, 1, 2}});
    Position other = pos;
    other.setSideToMove(Color::Black);
    expectCounts(other, {{Attackers, 3, 1}, {Threatened, 1, 2}});
}

TEST(EvalCounts, OnlyOfficersJumpBackward) {
    // A white soldier on d4 cannot jump the black soldier on c3 backward (R4, R5); an officer
    // can. The black soldier on c3 cannot jump d4 either: that is backward for Black.
    expectCounts(test::lfen("-,-,-,-/-,-,-/-,-,-,-/-,w,-/-,b,-,-/-,-,-/-,-,-,- w"),
                 {{Attackers, 0, 0}, {Threatened, 0, 0}});
    expectCounts(test::lfen("-,-,-,-/-,-,-/-,-,-,-/-,W,-/-,b,-,-/-,-,-/-,-,-,- w"),
                 {{Attackers, 1, 0}, {Threatened, 0, 1}});
    // The landing square must be empty: a piece on b2 stops the officer.
    expectCounts(test::lfen("-,-,-,-/-,-,-/-,-,-,-/-,W,-/-,b,-,-/b,-,-/-,-,-,- w"),
                 {{Attackers, 0, 0}, {Threatened, 0, 0}});
}

TEST(EvalCounts, BackRankCountsOwnCommandersOnTheOwnFirstRank) {
    // BackRank: White's rank 1, Black's rank 7, any commander of that colour. White: a1, e1
    // (officer over a prisoner) = 2; the black officer on c1 and the white officer on a7 stand
    // on the opponent's first rank and count for nobody. Black: c7, e7, g7 = 3; d6 is not on
    // rank 7.
    const Position pos = test::lfen(kBackRankLfen);
    expectCounts(pos, {{BackRank, 2, 3}});
}

TEST(EvalCounts, CentreCountsCommandersOnTheSevenCentralSquares) {
    // Centre: c3 e3 b4 d4 f4 c5 e5. White commands c3, d4, f4 and b4 (over a prisoner) = 4, and
    // b2, g5 are outside. Black commands e5, c5, e3 (over a white prisoner) = 3, and a5, d6 are
    // outside.
    const Position pos = test::lfen(kCentreLfen);
    expectCounts(pos, {{Centre, 4, 3}});
}

TEST(EvalCounts, TempoGoesToTheSideToMove) {
    // Tempo: 1 for the side to move only, whatever the board.
    Position pos = test::lfen(kCentreLfen);
    expectCounts(pos, {{Tempo, 1, 0}});
    pos.setSideToMove(Color::Black);
    expectCounts(pos, {{Tempo, 0, 1}});
    EXPECT_EQ(extractFeatures(pos).sideToMove, Color::Black);
}

TEST(EvalCounts, FullTableOfOnePosition) {
    // Every feature of one small position, both colours. White: officer d4 "WWbBB", soldiers a1
    // and f6. Black: soldier c5 "bBB", officer g7 over a white officer "BW", soldier b2 over a
    // white soldier "bw". Six columns: phase 4.
    // Columns: White d4: reserves 1 (W, an officer), prisoners 3 (b B B, officers 2). Black c5:
    // reserves 2 (B B, officers 2); g7 and b2: enemy below, prisoners 2 (W w, officers 1).
    // Mobility: White a1 none (b2 taken), d4 e5 e3 c3, f6 e7 = 4; Black c5 b4, g7 none (f6
    // taken), b2 c1 = 2. Jumps: White a1 over b2 to c3, d4 over c5 to b6 (f6 cannot jump g7: off
    // the board); Black c5 over d4 to e3, g7 over f6 to e5 (b2 over a1: off the board).
    // Promotion: f6 to e7 for White, b2 to c1 for Black (counted as steps, captures aside).
    const Position pos = test::lfen(kFullTableLfen);
    const EvalFeatures f = extractFeatures(pos);
    EXPECT_EQ(f.phase, 4);
    EXPECT_EQ(f.sideToMove, Color::White);
    using Row = std::array<int, kFeatureCount>;
    // clang-format off
    //                 SC OC Re RO Pr PO EB St A2 A3 A4 A5 A6 PT Mo Th At BR Ce Te
    const Row white = {2, 1, 1, 1, 3, 2, 0, 1, 0, 0, 0, 0, 1, 1, 4, 2, 2, 1, 1, 1};
    const Row black = {2, 1, 2, 2, 2, 1, 2, 3, 0, 1, 0, 0, 1, 1, 2, 2, 2, 1, 1, 0};
    // clang-format on
    for (std::size_t i = 0; i < kFeatureCount; ++i) {
        EXPECT_EQ(f.count[0][i], white[i]) << featureName(static_cast<EvalFeature>(i));
        EXPECT_EQ(f.count[1][i], black[i]) << featureName(static_cast<EvalFeature>(i));
    }
}

// ---------------------------------------------------------------------------------------------
// Phase, weights and the sum.

TEST(EvalPhase, StartsAtTheMaximumAndFallsByOnePerColumn) {
    // phase = clamp(columns - 2, 0, 20): 20 with the 22 columns of the start, one less for each
    // column taken off, 0 from two columns down.
    Position pos = Position::startPosition();
    EXPECT_EQ(extractFeatures(pos).phase, kPhaseMax);
    EXPECT_EQ(kPhaseMax, 20);
    int columns = 22;
    for (Square s = 0; s < kSquares; ++s) {
        if (pos.height(s) == 0) continue;
        pos.clearSquare(s);
        --columns;
        EXPECT_EQ(extractFeatures(pos).phase, std::max(columns - 2, 0)) << pos.toLfen();
    }
    EXPECT_EQ(columns, 0);
}

TEST(EvalPhase, CountsColumnsNotPieces) {
    // Three columns holding all 22 pieces between them: phase 1, not 20.
    const Position pos =
        test::lfen("-,-,-,-/-,-,-/-,-,-,-/-,Wwwwwwbbbbb,-/-,Bbbbbbwwww,-,-/-,-,-/w,-,-,- w");
    ASSERT_EQ(pos.pieceCount(Color::White), 11);
    ASSERT_EQ(pos.pieceCount(Color::Black), 11);
    EXPECT_EQ(extractFeatures(pos).phase, 1);
}

TEST(EvalPhase, MatchesTheColumnCountInRandomGames) {
    // The same rule on positions from random games, where columns are merged by captures.
    for (unsigned seed = 1; seed <= 30; ++seed) {
        test::playRandomGame(
            Position::startPosition(), seed, 200, [](const Position& pos, const Move&) {
                const int columns = popcount(pos.occupied());
                ASSERT_EQ(extractFeatures(pos).phase, std::clamp(columns - 2, 0, kPhaseMax))
                    << pos.toLfen();
            });
    }
}

TEST(EvalScore, WeightAtBlendsLinearlyAndRoundsTowardsZero) {
    // weightAt: mg at phase 20, eg at phase 0, linear in between, rounded towards zero.
    EXPECT_EQ(weightAt({100, 20}, kPhaseMax), 100);
    EXPECT_EQ(weightAt({100, 20}, 0), 20);
    EXPECT_EQ(weightAt({100, 20}, 10), 60);
    EXPECT_EQ(weightAt({7, 0}, 10), 3);    // 3.5
    EXPECT_EQ(weightAt({-7, 0}, 10), -3);  // -3.5
    EXPECT_EQ(weightAt({1, -1}, 1), 0);    // -0.9
}

// Distinct non-zero middlegame and endgame weights for every feature, some of them negative,
// so that a feature read with the wrong weight, phase or sign changes the score.
EvalWeights distinctWeights() {
    EvalWeights w{};
    for (std::size_t i = 0; i < kFeatureCount; ++i) {
        const int k = static_cast<int>(i) + 1;
        w[i] = {13 * k + 1, (k % 2 != 0 ? -1 : 1) * (7 * k + 3)};
    }
    return w;
}

TEST(EvalScore, EvaluateIsTheWeightedSumOfTheFeatureDifferences) {
    // evaluate(features, weights) = sum over features of weightAt(w, phase) * (white count -
    // black count), negated when Black is to move; evaluate(pos, w) is the same on the
    // extracted features.
    const EvalWeights w = distinctWeights();
    for (std::size_t i = 0; i < kFeatureCount; ++i) {
        ASSERT_NE(w[i].mg, 0);
        ASSERT_NE(w[i].eg, 0);
        for (std::size_t j = 0; j < i; ++j) {
            ASSERT_NE(w[i].mg, w[j].mg);
            ASSERT_NE(w[i].eg, w[j].eg);
        }
    }
    int nonZero = 0;
    for (unsigned seed = 1; seed <= 60; ++seed) {
        test::playRandomGame(
            Position::startPosition(), seed, 150, [&](const Position& pos, const Move&) {
                const EvalFeatures f = extractFeatures(pos);
                const int phase = std::clamp(popcount(pos.occupied()) - 2, 0, kPhaseMax);
                Score white = 0;
                for (std::size_t i = 0; i < kFeatureCount; ++i)
                    white += weightAt(w[i], phase) * (f.count[0][i] - f.count[1][i]);
                const Score expected = pos.sideToMove() == Color::White ? white : -white;
                ASSERT_EQ(evaluate(f, w), expected) << pos.toLfen();
                ASSERT_EQ(evaluate(pos, w), expected) << pos.toLfen();
                if (expected != 0) ++nonZero;
            });
    }
    EXPECT_GT(nonZero, 1000);
}

TEST(EvalScore, EachFeatureIsReadWithItsOwnWeight) {
    // A weight of 1 on one feature alone scores that feature's difference, from the mover's
    // view: so evaluate() takes feature i's count with weight i and no other.
    for (unsigned seed = 1; seed <= 20; ++seed) {
        test::playRandomGame(
            Position::startPosition(), seed, 120, [](const Position& pos, const Move&) {
                const EvalFeatures f = extractFeatures(pos);
                const int sign = pos.sideToMove() == Color::White ? 1 : -1;
                for (std::size_t i = 0; i < kFeatureCount; ++i) {
                    EvalWeights one{};
                    one[i] = {1, 1};
                    ASSERT_EQ(evaluate(pos, one), sign * (f.count[0][i] - f.count[1][i]))
                        << featureName(static_cast<EvalFeature>(i)) << " in " << pos.toLfen();
                }
            });
    }
}

TEST(EvalScore, BreakdownTermsAddUpWithCustomWeights) {
    // explainEvaluation(pos, w): one term per feature, in EvalFeature order, holding the
    // counts and each side's weighted total; the white - black sum over the terms, negated when
    // Black is to move, is the total, which equals evaluate(pos, w).
    const EvalWeights w = distinctWeights();
    for (unsigned seed = 1; seed <= 40; ++seed) {
        test::playRandomGame(
            Position::startPosition(), seed, 150, [&](const Position& pos, const Move&) {
                const EvalFeatures f = extractFeatures(pos);
                const EvalBreakdown b = explainEvaluation(pos, w);
                ASSERT_EQ(b.terms.size(), static_cast<std::size_t>(kFeatureCount));
                ASSERT_EQ(b.phase, f.phase);
                Score sum = 0;
                for (std::size_t i = 0; i < kFeatureCount; ++i) {
                    const EvalTerm& t = b.terms[i];
                    ASSERT_EQ(t.name, featureName(static_cast<EvalFeature>(i)));
                    ASSERT_EQ(t.count[0], f.count[0][i]) << t.name;
                    ASSERT_EQ(t.count[1], f.count[1][i]) << t.name;
                    ASSERT_EQ(t.white, weightAt(w[i], f.phase) * f.count[0][i]) << t.name;
                    ASSERT_EQ(t.black, weightAt(w[i], f.phase) * f.count[1][i]) << t.name;
                    sum += t.white - t.black;
                }
                ASSERT_EQ(b.total, pos.sideToMove() == Color::White ? sum : -sum);
                ASSERT_EQ(b.total, evaluate(pos, w)) << pos.toLfen();
            });
    }
}

TEST(EvalScore, MaterialWeightsScoreOnlyCommanders) {
    // materialWeights(): 100 per soldier commander, 300 per officer commander, nothing else,
    // in every phase; the commanders are counted here from the board itself.
    const EvalWeights& m = materialWeights();
    for (std::size_t i = 0; i < kFeatureCount; ++i) {
        if (i == SoldierCommanders || i == OfficerCommanders) continue;
        EXPECT_EQ(m[i].mg, 0) << featureName(static_cast<EvalFeature>(i));
        EXPECT_EQ(m[i].eg, 0) << featureName(static_cast<EvalFeature>(i));
    }
    for (unsigned seed = 1; seed <= 60; ++seed) {
        test::playRandomGame(Position::startPosition(), seed, 200,
                             [](const Position& pos, const Move&) {
                                 int soldiers = 0, officers = 0;  // White's minus Black's
                                 for (Square s = 0; s < kSquares; ++s) {
                                     if (pos.height(s) == 0) continue;
                                     const Piece top = pos.commander(s);
                                     const int sign = colorOf(top) == Color::White ? 1 : -1;
                                     (isOfficer(top) ? officers : soldiers) += sign;
                                 }
                                 const Score white = 100 * soldiers + 300 * officers;
                                 ASSERT_EQ(evaluate(pos, materialWeights()),
                                           pos.sideToMove() == Color::White ? white : -white)
                                     << pos.toLfen();
                             });
    }
    // By hand: White commands soldiers a1, f6 and officer d4, Black soldiers c5, b2 and officer
    // g7: equal, 0; with White's a1 taken off, Black (to move) is a soldier up.
    Position pos = test::lfen(kFullTableLfen);
    EXPECT_EQ(evaluate(pos, materialWeights()), 0);
    pos.clearSquare(sq("a1"));
    pos.setSideToMove(Color::Black);
    EXPECT_EQ(evaluate(pos, materialWeights()), 100);
}

TEST(EvalScore, DefaultEvaluationUsesTheTunedWeights) {
    // evaluate(pos) and explainEvaluation(pos) are the tuned weights' versions.
    for (unsigned seed = 1; seed <= 10; ++seed) {
        test::playRandomGame(Position::startPosition(), seed, 120,
                             [](const Position& pos, const Move&) {
                                 ASSERT_EQ(evaluate(pos), evaluate(pos, tunedWeights()));
                                 ASSERT_EQ(explainEvaluation(pos).total,
                                           explainEvaluation(pos, tunedWeights()).total);
                             });
    }
}

// ---------------------------------------------------------------------------------------------
// Symmetry and agreement with the rules core.

void expectMirroredFeatures(const Position& pos) {
    const Position m = mirrored(pos);
    ASSERT_EQ(m.validate(), "");
    const EvalFeatures f = extractFeatures(pos);
    const EvalFeatures g = extractFeatures(m);
    EXPECT_EQ(g.phase, f.phase) << pos.toLfen();
    EXPECT_EQ(g.sideToMove, ~f.sideToMove) << pos.toLfen();
    for (std::size_t i = 0; i < kFeatureCount; ++i) {
        EXPECT_EQ(g.count[0][i], f.count[1][i])
            << featureName(static_cast<EvalFeature>(i)) << " in " << pos.toLfen();
        EXPECT_EQ(g.count[1][i], f.count[0][i])
            << featureName(static_cast<EvalFeature>(i)) << " in " << pos.toLfen();
    }
}

TEST(EvalSymmetry, EveryFeatureSwapsColoursUnderMirroring) {
    // Turning the board round and swapping the colours swaps every feature's counts between
    // White and Black and keeps the phase: on the hand-built positions above, whose features
    // are all non-zero somewhere, and on positions from random games.
    for (const char* text :
         {kCommandersLfen, kColumnsLfen, kOfficersLfen, kAdvanceLfen, kPromotionLfen, kMobilityLfen,
          kThreatsLfen, kBackRankLfen, kCentreLfen, kFullTableLfen})
        expectMirroredFeatures(test::lfen(text));
    std::array<int, kFeatureCount> seen{};  // positions where the feature differs by colour
    for (unsigned seed = 1; seed <= 100; ++seed) {
        test::playRandomGame(Position::startPosition(), seed, 150,
                             [&](const Position& pos, const Move&) {
                                 expectMirroredFeatures(pos);
                                 const EvalFeatures f = extractFeatures(pos);
                                 for (std::size_t i = 0; i < kFeatureCount; ++i)
                                     if (f.count[0][i] != f.count[1][i]) ++seen[i];
                             });
    }
    // The random games exercise every feature, ReserveOfficers and PrisonerOfficers included,
    // so the comparison above is not vacuous.
    for (std::size_t i = 0; i < kFeatureCount; ++i) {
        EXPECT_GT(seen[i], 0) << featureName(static_cast<EvalFeature>(i));
    }
}

TEST(EvalSymmetry, FeaturesAgreeWithTheRulesCore) {
    // Cross-checks with the move generator and the piece counts, on random games:
    //  - every column is one run of its commander's colour over at most one run of the other
    //    (R5 only takes the top piece and only puts enemies of the capturing commander at the
    //    bottom), so the pieces under a commander are its reserves and its prisoners: per
    //    colour, the heights minus one of its columns add up to Reserves + Prisoners, and every
    //    piece is a commander, a reserve of its colour, or a prisoner of the other colour;
    //  - the officers among the reserves and prisoners are at most as many as those;
    //  - the AdvanceRank counts and the soldiers on the first rank make up the soldier
    //    commanders; Stacks are the columns of two or more pieces;
    //  - the mover has an attacker (and the opponent a threatened column) exactly when it has
    //    a capture (R6); without one, its Mobility is its number of legal moves.
    for (unsigned seed = 1; seed <= 60; ++seed) {
        test::playRandomGame(
            Position::startPosition(), seed, 200, [](const Position& pos, const Move&) {
                const EvalFeatures f = extractFeatures(pos);
                for (Square s = 0; s < kSquares; ++s) {
                    // Colour runs, read from the colour bit (bit 2i) of each piece.
                    int runs = pos.height(s) > 0 ? 1 : 0;
                    for (int i = 1; i < pos.height(s); ++i)
                        if (((pos.column(s) >> (2 * i)) & 1) !=
                            ((pos.column(s) >> (2 * i - 2)) & 1))
                            ++runs;
                    ASSERT_LE(runs, 2) << squareName(s) << " in " << pos.toLfen();
                }
                for (Color c : {Color::White, Color::Black}) {
                    const auto& own = f.count[static_cast<std::size_t>(index(c))];
                    const auto& other = f.count[static_cast<std::size_t>(index(~c))];
                    ASSERT_EQ(pos.pieceCount(c), own[SoldierCommanders] + own[OfficerCommanders] +
                                                     own[Reserves] + other[Prisoners])
                        << pos.toLfen();
                    const Bitboard firstRank = c == Color::White ? kRank1 : kRank7;
                    const int onFirstRank =
                        popcount(pos.commandedBy(c) & pos.soldiers() & firstRank);
                    ASSERT_EQ(own[SoldierCommanders], onFirstRank + own[AdvanceRank2] +
                                                          own[AdvanceRank3] + own[AdvanceRank4] +
                                                          own[AdvanceRank5] + own[AdvanceRank6])
                        << pos.toLfen();
                    int stacks = 0, under = 0;
                    for (Bitboard b = pos.commandedBy(c); b; b = withoutLowest(b)) {
                        if (pos.height(lowestSquare(b)) >= 2) ++stacks;
                        under += pos.height(lowestSquare(b)) - 1;
                    }
                    ASSERT_EQ(own[Stacks], stacks) << pos.toLfen();
                    ASSERT_EQ(own[Reserves] + own[Prisoners], under) << pos.toLfen();
                    ASSERT_LE(own[ReserveOfficers], own[Reserves]) << pos.toLfen();
                    ASSERT_LE(own[PrisonerOfficers], own[Prisoners]) << pos.toLfen();
                    ASSERT_LE(own[EnemyBelow], own[Stacks]);
                    ASSERT_LE(own[PromotionThreats], own[AdvanceRank6]);
                }
                const auto& mover = f.count[static_cast<std::size_t>(index(pos.sideToMove()))];
                const auto& waiting = f.count[static_cast<std::size_t>(index(~pos.sideToMove()))];
                ASSERT_EQ(hasCapture(pos), mover[Attackers] > 0) << pos.toLfen();
                ASSERT_EQ(hasCapture(pos), waiting[Threatened] > 0) << pos.toLfen();
                if (!hasCapture(pos)) {
                    ASSERT_EQ(countMoves(pos), static_cast<std::uint64_t>(mover[Mobility]))
                        << pos.toLfen();
                }
            });
    }
}

}  // namespace
}  // namespace lasca::eval
