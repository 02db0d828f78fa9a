// Glicko-2: Glickman's worked example to its printed decimals, lichess's bounds (the RD floor,
// the provisional threshold, the RD growing with time away up to the start RD), the symmetry of
// a game between equals, and errors (never NaN) for bad inputs.
#include "common/glicko2.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace common {
namespace {

// The paper's system: tau 0.5 and no bounds beyond the valid ranges.
constexpr Glicko2Settings kPaper{.startRating = 1500,
                                 .startDeviation = 350,
                                 .startVolatility = 0.06,
                                 .tau = 0.5,
                                 .minDeviation = 0,
                                 .maxDeviation = kMaxValidDeviation,
                                 .minRating = kMinValidRating,
                                 .maxVolatility = kMaxValidVolatility,
                                 .provisionalDeviation = 110,
                                 .ratingPeriodsPerDay = 1};

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

bool finite(const Rating& r) {
    return std::isfinite(r.rating) && std::isfinite(r.deviation) && std::isfinite(r.volatility);
}

// "Example of the Glicko-2 system": a 1500 / 200 / 0.06 player beats 1400 / 30, loses to
// 1550 / 100 and to 1700 / 300 in one rating period, tau 0.5: the paper prints 1464.06 / 151.52 /
// 0.05999. It computes on the Glicko-2 scale with four decimals (step 7: mu' = -0.2069,
// phi' = 0.8722) and converts those, so its 1464.06 is 173.7178 x -0.2069 + 1500 = 1464.0578;
// without the rounding the rating is 1464.0507, within 0.01 of the print. Its sigma' 0.05999 is
// the exact 0.0599960 cut (not rounded) to five decimals.
TEST(Glicko2, GlickmansWorkedExample) {
    const std::vector<GameResult> games{{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}};
    const Result<Rating> r = updateRating(Rating{1500, 200, 0.06}, games, kPaper);
    ASSERT_TRUE(r.ok()) << r.error();
    // Step 7's figures, to the paper's four decimals.
    const double muPrime = (r.value().rating - 1500) / kGlicko2Scale;
    const double phiPrime = r.value().deviation / kGlicko2Scale;
    EXPECT_NEAR(muPrime, -0.2069, 0.00005);
    EXPECT_NEAR(phiPrime, 0.8722, 0.00005);
    // Step 8's printed figures.
    EXPECT_NEAR(kGlicko2Scale * -0.2069 + 1500, 1464.06, 0.005);
    EXPECT_NEAR(r.value().rating, 1464.06, 0.01);
    EXPECT_NEAR(r.value().deviation, 151.52, 0.005);
    EXPECT_EQ(std::floor(r.value().volatility * 100000), 5999);  // 0.05999 printed
    // The unrounded values, pinned so that a change of the maths shows.
    EXPECT_NEAR(r.value().rating, 1464.05067, 0.00001);
    EXPECT_NEAR(r.value().deviation, 151.51652, 0.00001);
    EXPECT_NEAR(r.value().volatility, 0.05999598, 0.00000001);
    // lichess's bounds do not bind here: only tau differs from the paper.
    Glicko2Settings lichessTau05 = kLichessGlicko2;
    lichessTau05.tau = 0.5;
    const Result<Rating> bounded = updateRating(Rating{1500, 200, 0.06}, games, lichessTau05);
    ASSERT_TRUE(bounded.ok()) << bounded.error();
    EXPECT_DOUBLE_EQ(bounded.value().rating, r.value().rating);
    EXPECT_DOUBLE_EQ(bounded.value().deviation, r.value().deviation);
}

// Step 6 for a player without games: phi* = sqrt(phi^2 + sigma^2); rating and sigma unchanged.
TEST(Glicko2, NoGamesOnlyGrowsTheDeviation) {
    const Result<Rating> r = updateRating(Rating{1500, 200, 0.06}, {}, kPaper);
    ASSERT_TRUE(r.ok()) << r.error();
    const double phi = 200 / kGlicko2Scale;
    EXPECT_DOUBLE_EQ(r.value().rating, 1500);
    EXPECT_NEAR(r.value().deviation, kGlicko2Scale * std::sqrt(phi * phi + 0.06 * 0.06), 1e-9);
    EXPECT_DOUBLE_EQ(r.value().volatility, 0.06);
    EXPECT_GT(r.value().deviation, 200);
    // With lichess's bounds, never above the start RD.
    const Result<Rating> capped = updateRating(Rating{1500, 499.9, 0.09}, {});
    ASSERT_TRUE(capped.ok()) << capped.error();
    EXPECT_DOUBLE_EQ(capped.value().deviation, 500);
}

TEST(Glicko2, LichessDefaults) {
    EXPECT_EQ(kLichessGlicko2.startRating, 1500);
    EXPECT_EQ(kLichessGlicko2.startDeviation, 500);
    EXPECT_EQ(kLichessGlicko2.startVolatility, 0.09);
    EXPECT_EQ(kLichessGlicko2.tau, 0.75);
    EXPECT_EQ(kLichessGlicko2.minDeviation, 45);
    EXPECT_EQ(kLichessGlicko2.provisionalDeviation, 110);
    EXPECT_EQ(kLichessGlicko2.ratingPeriodsPerDay, 0.21436);
    const Rating start = startRating();
    EXPECT_EQ(start.rating, 1500);
    EXPECT_EQ(start.deviation, 500);
    EXPECT_EQ(start.volatility, 0.09);
}

// lichess keeps the RD at 45 or more: many games against settled opponents would take it lower.
TEST(Glicko2, DeviationNeverBelowTheFloor) {
    const std::vector<GameResult> games(40, GameResult{1500, 45, 0.5});
    Glicko2Settings noFloor = kLichessGlicko2;
    noFloor.minDeviation = 0;
    const Result<Rating> unbounded = updateRating(Rating{1500, 50, 0.06}, games, noFloor);
    ASSERT_TRUE(unbounded.ok()) << unbounded.error();
    EXPECT_LT(unbounded.value().deviation, 45);  // the floor below is doing something

    const Result<Rating> r = updateRating(Rating{1500, 50, 0.06}, games);
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_DOUBLE_EQ(r.value().deviation, 45);
    EXPECT_DOUBLE_EQ(r.value().rating, unbounded.value().rating);

    // Game after game (lichess: each game its own rating period) it never goes below the floor.
    Rating player = startRating();
    for (int i = 0; i < 300; ++i) {
        const GameResult game{1500, 45, i % 2 == 0 ? 1.0 : 0.0};
        const Result<Rating> next = updateRating(player, std::span(&game, 1));
        ASSERT_TRUE(next.ok()) << next.error();
        player = next.value();
        ASSERT_GE(player.deviation, 45);
    }
    EXPECT_FALSE(provisional(player));
}

TEST(Glicko2, ProvisionalWhileTheDeviationIsAtLeast110) {
    EXPECT_TRUE(provisional(startRating()));
    EXPECT_TRUE(provisional(Rating{1500, 110, 0.09}));
    EXPECT_FALSE(provisional(Rating{1500, 109.99, 0.09}));
    EXPECT_FALSE(provisional(Rating{1500, 45, 0.09}));
    EXPECT_TRUE(provisional(Rating{1500, kNaN, 0.09}));
}

// lichess: phi grows by sigma^2 per rating period away, 0.21436 periods a day, up to RD 500.
TEST(Glicko2, TimeAwayGrowsTheDeviationUpToTheStart) {
    const Rating settled{1800, 45, 0.09};
    const Result<Rating> none = withTimeAway(settled, 0);
    ASSERT_TRUE(none.ok()) << none.error();
    EXPECT_DOUBLE_EQ(none.value().deviation, 45);

    const Result<Rating> year = withTimeAway(settled, 365);
    ASSERT_TRUE(year.ok()) << year.error();
    const double phi = 45 / kGlicko2Scale;
    const double expected =
        kGlicko2Scale *
        std::sqrt(phi * phi + 0.09 * 0.09 * 365 * kLichessGlicko2.ratingPeriodsPerDay);
    EXPECT_NEAR(year.value().deviation, expected, 1e-9);
    EXPECT_NEAR(year.value().deviation, 145.4, 0.1);
    EXPECT_TRUE(provisional(year.value()));
    EXPECT_EQ(year.value().rating, 1800);
    EXPECT_EQ(year.value().volatility, 0.09);

    // Longer away, longer RD, but never above the start RD.
    const Result<Rating> week = withTimeAway(settled, 7);
    ASSERT_TRUE(week.ok());
    EXPECT_GT(week.value().deviation, 45);
    EXPECT_LT(week.value().deviation, year.value().deviation);
    for (double days : {10000.0, 1e9, 1e300}) {
        const Result<Rating> long_ = withTimeAway(settled, days);
        ASSERT_TRUE(long_.ok()) << long_.error();
        EXPECT_DOUBLE_EQ(long_.value().deviation, 500);
    }
}

// A win for A against B, both 1500 / 500 / 0.09 (or both 1700 / 80 / 0.06): each moves by the
// same amount, in opposite directions, and their RDs and volatilities stay equal.
TEST(Glicko2, AGameBetweenEqualsIsSymmetric) {
    for (const Rating equal : {startRating(), Rating{1700, 80, 0.06}}) {
        const GameResult winAgainstB{equal.rating, equal.deviation, 1};
        const GameResult lossAgainstA{equal.rating, equal.deviation, 0};
        const Result<Rating> a = updateRating(equal, std::span(&winAgainstB, 1));
        const Result<Rating> b = updateRating(equal, std::span(&lossAgainstA, 1));
        ASSERT_TRUE(a.ok() && b.ok());
        EXPECT_GT(a.value().rating, equal.rating);
        EXPECT_NEAR(a.value().rating - equal.rating, equal.rating - b.value().rating, 1e-9);
        EXPECT_NEAR(a.value().deviation, b.value().deviation, 1e-9);
        EXPECT_NEAR(a.value().volatility, b.value().volatility, 1e-12);
        EXPECT_LT(a.value().deviation, equal.deviation);
    }
}

TEST(Glicko2, BadInputsAreErrors) {
    const GameResult game{1500, 100, 1};
    const auto one = std::span(&game, 1);
    for (const Rating bad :
         {Rating{kNaN, 100, 0.06}, Rating{kInf, 100, 0.06}, Rating{-1, 100, 0.06},
          Rating{5001, 100, 0.06}, Rating{1500, 0, 0.06}, Rating{1500, -100, 0.06},
          Rating{1500, kNaN, 0.06}, Rating{1500, 1001, 0.06}, Rating{1500, 100, 0},
          Rating{1500, 100, -0.06}, Rating{1500, 100, kNaN}, Rating{1500, 100, 2}}) {
        EXPECT_FALSE(updateRating(bad, one).ok()) << bad.rating << " " << bad.deviation;
        EXPECT_FALSE(updateRating(bad, {}).ok());
        EXPECT_FALSE(withTimeAway(bad, 1).ok());
    }
    for (const GameResult bad :
         {GameResult{kNaN, 100, 1}, GameResult{-5, 100, 1}, GameResult{1500, 0, 1},
          GameResult{1500, kInf, 1}, GameResult{1500, 100, 1.5}, GameResult{1500, 100, -0.5},
          GameResult{1500, 100, kNaN}}) {
        const std::vector<GameResult> games{game, bad};
        const Result<Rating> r = updateRating(startRating(), games);
        ASSERT_FALSE(r.ok());
        EXPECT_NE(r.error().find("glicko2:"), std::string::npos);
    }
    for (double days : {-1.0, kNaN, kInf, -kInf})
        EXPECT_FALSE(withTimeAway(startRating(), days).ok()) << days;

    Glicko2Settings s = kLichessGlicko2;
    for (double tau : {0.0, -0.5, kNaN, kInf, 11.0}) {
        s.tau = tau;
        EXPECT_FALSE(updateRating(startRating(), one, s).ok()) << tau;
    }
    s = kLichessGlicko2;
    s.minDeviation = 600;  // above the maximum
    EXPECT_FALSE(updateRating(startRating(), one, s).ok());
    s = kLichessGlicko2;
    s.ratingPeriodsPerDay = kNaN;
    EXPECT_FALSE(withTimeAway(startRating(), 1, s).ok());
}

// The corners of the valid ranges, one game or all of them at once, with the smallest and the
// largest tau: always a finite rating that is itself a valid input.
TEST(Glicko2, CornersOfTheValidRangesStayFinite) {
    std::vector<GameResult> all;
    for (double rating : {kMinValidRating, kMaxValidRating})
        for (double deviation : {kMinValidDeviation, kMaxValidDeviation})
            for (double score : {0.0, 0.5, 1.0}) all.push_back({rating, deviation, score});
    for (double tau : {kMinValidTau, kMaxValidTau}) {
        Glicko2Settings s = kPaper;
        s.tau = tau;
        for (double rating : {kMinValidRating, kMaxValidRating})
            for (double deviation : {kMinValidDeviation, kMaxValidDeviation})
                for (double volatility : {kMinValidVolatility, kMaxValidVolatility}) {
                    const Rating player{rating, deviation, volatility};
                    for (std::size_t i = 0; i <= all.size(); ++i) {
                        const auto games = i < all.size() ? std::span(&all[i], 1)
                                                          : std::span<const GameResult>(all);
                        const Result<Rating> r = updateRating(player, games, s);
                        ASSERT_TRUE(r.ok()) << r.error() << " tau " << tau << " player " << rating
                                            << "/" << deviation << "/" << volatility;
                        ASSERT_TRUE(finite(r.value()));
                        const Result<Rating> again = updateRating(r.value(), games, s);
                        ASSERT_TRUE(again.ok()) << again.error();
                    }
                }
    }
}

}  // namespace
}  // namespace common
