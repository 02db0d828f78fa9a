// The club's ratings: the speed a Lasca clock is rated in (lichess's limits on initial + 40 x
// increment), a two-sided game, and a Torneio game rated as the results between every pair of
// seats.
#include "web/ratings/ratings.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

namespace web::ratings {
namespace {

using common::Rating;

TEST(RatingsBefore, AFirstGameStartsAndTimeAwayGrowsTheDeviation) {
    const auto first = ratingBefore(std::nullopt, 0, 5'000);
    ASSERT_TRUE(first.ok());
    EXPECT_EQ(first.value().rating, common::startRating().rating);
    EXPECT_EQ(first.value().deviation, common::startRating().deviation);
    const Rating kept{1620, 80, 0.06};
    constexpr std::int64_t kDay = 86'400'000;
    const auto later = ratingBefore(kept, 1'000, 1'000 + 10 * kDay);
    const auto grown = common::withTimeAway(kept, 10);
    ASSERT_TRUE(later.ok() && grown.ok());
    EXPECT_EQ(later.value().rating, 1620);
    EXPECT_DOUBLE_EQ(later.value().deviation, grown.value().deviation);
    EXPECT_GT(later.value().deviation, 80);
    const auto setBack = ratingBefore(kept, 1'000 + kDay, 1'000);  // a clock set back
    ASSERT_TRUE(setBack.ok());
    EXPECT_DOUBLE_EQ(setBack.value().deviation, 80);
}

TEST(RatingsSpeed, EstimatedTimeIsInitialPlusFortyIncrements) {
    EXPECT_EQ(estimatedSeconds(Clock{300, 3}), 420u);
    EXPECT_EQ(estimatedSeconds(Clock{0, 0}), 0u);
    // No overflow at the largest clock.
    EXPECT_EQ(estimatedSeconds(Clock{4294967295u, 4294967295u}), 41ull * 4294967295ull);
}

TEST(RatingsSpeed, LimitsAre180And480And1500Seconds) {
    EXPECT_EQ(speedOf(Clock{0, 0}), Speed::bullet);
    EXPECT_EQ(speedOf(Clock{60, 0}), Speed::bullet);
    EXPECT_EQ(speedOf(Clock{120, 1}), Speed::bullet);  // 160 s
    EXPECT_EQ(speedOf(Clock{179, 0}), Speed::bullet);
    EXPECT_EQ(speedOf(Clock{180, 0}), Speed::blitz);
    EXPECT_EQ(speedOf(Clock{60, 3}), Speed::blitz);   // 180 s
    EXPECT_EQ(speedOf(Clock{180, 2}), Speed::blitz);  // 260 s
    EXPECT_EQ(speedOf(Clock{479, 0}), Speed::blitz);
    EXPECT_EQ(speedOf(Clock{300, 5}), Speed::rapid);  // 500 s
    EXPECT_EQ(speedOf(Clock{480, 0}), Speed::rapid);
    EXPECT_EQ(speedOf(Clock{600, 0}), Speed::rapid);
    EXPECT_EQ(speedOf(Clock{1499, 0}), Speed::rapid);
    EXPECT_EQ(speedOf(Clock{900, 15}), Speed::classical);  // 1500 s
    EXPECT_EQ(speedOf(Clock{1800, 0}), Speed::classical);
    EXPECT_EQ(speedOf(Clock{0, 40}), Speed::classical);  // 1600 s
}

TEST(RatingsSpeed, NoClockIsCorrespondenceAndNotRatedBySpeed) {
    EXPECT_FALSE(ratedSpeed(std::nullopt).has_value());
    EXPECT_EQ(categoryName(std::nullopt), "correspondence");
    EXPECT_EQ(ratedSpeed(Clock{300, 0}), Speed::blitz);
    EXPECT_EQ(categoryName(Clock{300, 0}), "blitz");
    EXPECT_EQ(speedName(Speed::bullet), "bullet");
    EXPECT_EQ(speedName(Speed::blitz), "blitz");
    EXPECT_EQ(speedName(Speed::rapid), "rapid");
    EXPECT_EQ(speedName(Speed::classical), "classical");
}

TEST(RatingsGame, AWinBetweenNewPlayersMovesBothEqually) {
    const auto r = afterGame(common::startRating(), common::startRating(), 1);
    ASSERT_TRUE(r.ok()) << r.error();
    ASSERT_EQ(r.value().size(), 2u);
    EXPECT_GT(r.value()[0].rating, 1500);
    EXPECT_NEAR(r.value()[0].rating - 1500, 1500 - r.value()[1].rating, 1e-9);
    const auto draw = afterGame(common::startRating(), common::startRating(), 0.5);
    ASSERT_TRUE(draw.ok());
    EXPECT_NEAR(draw.value()[0].rating, 1500, 1e-9);
    EXPECT_FALSE(afterGame(common::startRating(), common::startRating(), 2).ok());
    EXPECT_FALSE(afterGame(common::startRating(), common::startRating(),
                           std::numeric_limits<double>::quiet_NaN())
                     .ok());
    EXPECT_FALSE(afterGame(Rating{-3, 100, 0.09}, common::startRating(), 1).ok());
}

// Two seats are a plain game: the winner's rating is what a one-game period gives it.
TEST(RatingsTorneio, TwoSeatsAreAnOrdinaryGame) {
    const Rating a{1620, 90, 0.07};
    const Rating b{1480, 150, 0.08};
    const std::vector<TorneioSeat> seats{{a, 2}, {b, 1}};
    const auto r = afterTorneioGame(seats);
    ASSERT_TRUE(r.ok()) << r.error();
    const auto game = afterGame(a, b, 0);
    ASSERT_TRUE(game.ok());
    EXPECT_DOUBLE_EQ(r.value()[0].rating, game.value()[0].rating);
    EXPECT_DOUBLE_EQ(r.value()[1].rating, game.value()[1].rating);
    EXPECT_DOUBLE_EQ(r.value()[1].deviation, game.value()[1].deviation);
}

// Four equal players finishing 1, 2, 3, 4: scores 3, 2, 1, 0 against the other three, so the
// winner gains what the last loses, second gains what third loses, and the gains shrink down
// the order. The order of the seats does not matter.
TEST(RatingsTorneio, FourEqualSeatsMoveByTheirPlaces) {
    const Rating start = common::startRating();
    const std::vector<TorneioSeat> seats{{start, 3}, {start, 1}, {start, 4}, {start, 2}};
    const auto r = afterTorneioGame(seats);
    ASSERT_TRUE(r.ok()) << r.error();
    const double first = r.value()[1].rating;
    const double second = r.value()[3].rating;
    const double third = r.value()[0].rating;
    const double fourth = r.value()[2].rating;
    EXPECT_GT(first, second);
    EXPECT_GT(second, 1500);
    EXPECT_LT(third, 1500);
    EXPECT_GT(third, fourth);
    EXPECT_NEAR(first - 1500, 1500 - fourth, 1e-9);
    EXPECT_NEAR(second - 1500, 1500 - third, 1e-9);
    for (const Rating& after : r.value()) EXPECT_LT(after.deviation, 500);
}

// Each seat's new rating is one rating period with a result against each other seat.
TEST(RatingsTorneio, EverySeatIsRatedAgainstEveryOtherBeforeTheGame) {
    const Rating a{1700, 60, 0.06};
    const Rating b{1500, 200, 0.09};
    const Rating c{1350, 320, 0.09};
    // b won, a and c drew (eliminated together).
    const std::vector<TorneioSeat> seats{{a, 2}, {b, 1}, {c, 2}};
    const auto r = afterTorneioGame(seats);
    ASSERT_TRUE(r.ok()) << r.error();
    const std::vector<common::GameResult> forA{{1500, 200, 0}, {1350, 320, 0.5}};
    const std::vector<common::GameResult> forB{{1700, 60, 1}, {1350, 320, 1}};
    const std::vector<common::GameResult> forC{{1700, 60, 0.5}, {1500, 200, 0}};
    EXPECT_DOUBLE_EQ(r.value()[0].rating, common::updateRating(a, forA).value().rating);
    EXPECT_DOUBLE_EQ(r.value()[1].rating, common::updateRating(b, forB).value().rating);
    EXPECT_DOUBLE_EQ(r.value()[2].rating, common::updateRating(c, forC).value().rating);
    EXPECT_DOUBLE_EQ(r.value()[2].deviation, common::updateRating(c, forC).value().deviation);
    EXPECT_LT(r.value()[0].rating, 1700);  // a drew with a far weaker seat and lost to b
    EXPECT_GT(r.value()[2].rating, 1350);  // c drew with a far stronger seat
}

TEST(RatingsTorneio, AllDrawnLeavesEqualRatingsInPlace) {
    const Rating start = common::startRating();
    const std::vector<TorneioSeat> seats{{start, 1}, {start, 1}, {start, 1}};
    const auto r = afterTorneioGame(seats);
    ASSERT_TRUE(r.ok()) << r.error();
    for (const Rating& after : r.value()) {
        EXPECT_NEAR(after.rating, 1500, 1e-9);
        EXPECT_LT(after.deviation, 500);
    }
}

TEST(RatingsTorneio, BadGamesAreErrors) {
    const Rating start = common::startRating();
    EXPECT_FALSE(afterTorneioGame(std::vector<TorneioSeat>{}).ok());
    EXPECT_FALSE(afterTorneioGame(std::vector<TorneioSeat>{{start, 1}}).ok());
    EXPECT_FALSE(afterTorneioGame(std::vector<TorneioSeat>(5, TorneioSeat{start, 1})).ok());
    EXPECT_FALSE(afterTorneioGame(std::vector<TorneioSeat>{{start, 0}, {start, 1}}).ok());
    EXPECT_FALSE(afterTorneioGame(std::vector<TorneioSeat>{{start, 1}, {start, 3}}).ok());
    EXPECT_FALSE(afterTorneioGame(std::vector<TorneioSeat>{{start, 2}, {start, 2}}).ok());
    const auto badRating = afterTorneioGame(std::vector<TorneioSeat>{
        {start, 1}, {Rating{1500, std::numeric_limits<double>::infinity(), 0.09}, 2}});
    ASSERT_FALSE(badRating.ok());
    EXPECT_NE(badRating.error().find("deviation"), std::string::npos);
}

}  // namespace
}  // namespace web::ratings
