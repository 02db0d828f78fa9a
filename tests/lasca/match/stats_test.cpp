// Elo and SPRT numbers against values computed independently.
#include <gtest/gtest.h>

#include <cmath>

#include "lasca/match/stats.h"

namespace lasca::match {
namespace {

TEST(Elo, ScoreToEloKnownValues) {
    EXPECT_NEAR(scoreToElo(0.5), 0.0, 1e-9);
    EXPECT_NEAR(scoreToElo(0.75), 190.85, 0.01);  // -400 log10(1/3)
    EXPECT_NEAR(scoreToElo(0.25), -190.85, 0.01);
    EXPECT_NEAR(scoreToElo(0.6), 70.44, 0.01);
    EXPECT_NEAR(scoreToElo(0.9), 381.70, 0.01);
    EXPECT_EQ(scoreToElo(1.0), kEloClamp);
    EXPECT_EQ(scoreToElo(0.0), -kEloClamp);
}

TEST(Elo, EloToScoreIsTheInverse) {
    for (double elo : {-300.0, -50.0, 0.0, 5.0, 190.85})
        EXPECT_NEAR(scoreToElo(eloToScore(elo)), elo, 1e-9);
}

// 60 wins, 20 draws, 20 losses: score 0.7, per-game variance 0.16 - 0.09... computed by hand:
// E[x^2] = (60 + 20*0.25)/100 = 0.65, variance = 0.65 - 0.49 = 0.16, se = 0.04.
TEST(Elo, TrinomialIntervalByHand) {
    Wdl wdl{60, 20, 20};
    const EloEstimate e = eloFromWdl(wdl);
    EXPECT_NEAR(e.elo, scoreToElo(0.7), 1e-9);
    EXPECT_NEAR(e.low, scoreToElo(0.7 - 1.959964 * 0.04), 1e-3);
    EXPECT_NEAR(e.high, scoreToElo(0.7 + 1.959964 * 0.04), 1e-3);
    EXPECT_NEAR(e.elo, 147.19, 0.01);
}

// Pairs [LL, LD, DD/WL, WD, WW] = [0, 10, 20, 10, 0]: mean 0.5, variance
// (10*0.0625 + 10*0.0625)/40 = 0.03125 per pair, se = sqrt(0.03125/40) = 0.02795.
TEST(Elo, PentanomialIntervalByHand) {
    Pentanomial p;
    p.counts = {0, 10, 20, 10, 0};
    const EloEstimate e = eloFromPentanomial(p);
    EXPECT_NEAR(e.elo, 0, 1e-9);
    const double se = std::sqrt(0.03125 / 40);
    EXPECT_NEAR(e.high, scoreToElo(0.5 + 1.959964 * se), 1e-3);
    EXPECT_NEAR(e.low, -e.high, 1e-9);
}

TEST(Sprt, BoundsOfTheUsualSettings) {
    SprtConfig c{0, 5, 0.05, 0.05};
    EXPECT_NEAR(c.lowerBound(), -2.944, 0.001);  // log(0.05/0.95)
    EXPECT_NEAR(c.upperBound(), 2.944, 0.001);
}

// The LLR formula by hand: pairs [0, 10, 20, 10, 0] have mean 0.5 and variance 0.03125; with
// elo0 = 0, elo1 = 10: s0 = 0.5, s1 = 0.514387, LLR = 40 * 0.014387 * (1 - 1.014387) /
// (2 * 0.03125) = -0.13247 by the normal approximation; the maximum-likelihood LLR agrees
// closely for this many pairs.
TEST(Sprt, LlrByHand) {
    Pentanomial p;
    p.counts = {0, 10, 20, 10, 0};
    SprtConfig c{0, 10, 0.05, 0.05};
    const double s1 = eloToScore(10);
    EXPECT_NEAR(s1, 0.514387, 1e-6);
    const double expected = 40 * (s1 - 0.5) * (1 - 0.5 - s1) / (2 * 0.03125);
    EXPECT_NEAR(expected, -0.13247, 1e-4);
    EXPECT_NEAR(sprtLlr(p, c), expected, 0.005);
    EXPECT_EQ(sprtVerdict(sprtLlr(p, c), c), SprtVerdict::Continue);
}

// A real match of this project (lasca vs alpha-beta depth 4, 107 pairs, see docs/strength.md):
// fishtest's LLR_logistic computed independently (a Python transcription of the algorithm:
// epsilon 1e-3 for empty cells, MLE distributions by bisection on the Lagrange multiplier)
// gives 2.960276. Far from both hypotheses the maximum-likelihood LLR grows slowly, unlike the
// normal approximation (12.3 here): that is fishtest's behaviour, and it is kept.
TEST(Sprt, LlrAgreesWithFishtestOnARealMatch) {
    Pentanomial p;
    p.counts = {1, 1, 17, 13, 75};
    const SprtConfig c{0, 10, 0.05, 0.05};
    EXPECT_NEAR(sprtLlr(p, c), 2.960276, 1e-4);
    EXPECT_EQ(sprtVerdict(sprtLlr(p, c), c), SprtVerdict::AcceptH1);
}

TEST(Sprt, ClearWinnerAcceptsH1AndClearLoserH0) {
    Pentanomial win;
    win.counts = {10, 40, 200, 120, 80};
    Pentanomial loss;
    loss.counts = {80, 120, 200, 40, 10};
    SprtConfig c{0, 5, 0.05, 0.05};
    EXPECT_EQ(sprtVerdict(sprtLlr(win, c), c), SprtVerdict::AcceptH1);
    EXPECT_EQ(sprtVerdict(sprtLlr(loss, c), c), SprtVerdict::AcceptH0);
}

// One pair carries little evidence: the LLR must stay far from the bounds.
TEST(Sprt, OnePairDecidesNothing) {
    Pentanomial p;
    p.counts = {0, 0, 0, 1, 0};
    SprtConfig c{-10, 10, 0.05, 0.05};
    EXPECT_LT(std::abs(sprtLlr(p, c)), 0.5);
}

// Symmetry: swapping the engines (reversing the counts) and the hypotheses negates the LLR.
TEST(Sprt, SymmetricUnderSwap) {
    Pentanomial p, q;
    p.counts = {3, 12, 30, 20, 5};
    q.counts = {5, 20, 30, 12, 3};
    EXPECT_NEAR(sprtLlr(p, SprtConfig{-5, 5, 0.05, 0.05}),
                -sprtLlr(q, SprtConfig{-5, 5, 0.05, 0.05}), 1e-9);
}

TEST(Sprt, NoPairsIsUndecided) {
    SprtConfig c;
    EXPECT_EQ(sprtLlr(Pentanomial{}, c), 0);
}

// The report's SPRT line: the verdict of the LLR when nothing was decided during the run; the
// run's decision when there was one, with where it was reached if games that finished after it
// moved the LLR back inside the bounds (a match at 2 games at once stopped at H0, LLR -2.95,
// reported "undecided" at -2.83 before).
TEST(Sprt, ReportLineKeepsTheDecisionThatStoppedTheRun) {
    const SprtConfig c{0, 10, 0.05, 0.05};
    EXPECT_EQ(sprtLine(c, 1.5, SprtDecision{}),
              "SPRT: elo0 0 elo1 10 alpha 0.05 beta 0.05  LLR 1.50 [-2.94, 2.94] undecided");
    EXPECT_EQ(sprtLine(c, 3.1, SprtDecision{}),
              "SPRT: elo0 0 elo1 10 alpha 0.05 beta 0.05  LLR 3.10 [-2.94, 2.94] H1 accepted");
    const SprtDecision h0{SprtVerdict::AcceptH0, -2.95, 1158};
    EXPECT_EQ(sprtLine(c, -2.95, h0),
              "SPRT: elo0 0 elo1 10 alpha 0.05 beta 0.05  LLR -2.95 [-2.94, 2.94] H0 accepted");
    EXPECT_EQ(sprtLine(c, -2.83, h0),
              "SPRT: elo0 0 elo1 10 alpha 0.05 beta 0.05  LLR -2.83 [-2.94, 2.94] H0 accepted "
              "at 1158 games (LLR -2.95)");
    EXPECT_EQ(sprtLine(SprtConfig{-2.5, 2.5, 0.1, 0.1}, 0, SprtDecision{}),
              "SPRT: elo0 -2.5 elo1 2.5 alpha 0.1 beta 0.1  LLR 0.00 [-2.20, 2.20] undecided");
}

}  // namespace
}  // namespace lasca::match
