#include "web/ratings/ratings.h"

#include <algorithm>

#include <cmath>
#include <string>

namespace web::ratings {

namespace {

// lichess's limits on the estimated time (initial + 40 x increment), in seconds.
constexpr std::uint64_t kBulletBelow = 180;
constexpr std::uint64_t kBlitzBelow = 480;
constexpr std::uint64_t kRapidBelow = 1500;

// A game's length in moves for the estimate: the increment counts 40 times.
constexpr std::uint64_t kEstimatedMoves = 40;

}  // namespace

std::uint64_t estimatedSeconds(const Clock& clock) {
    return std::uint64_t{clock.initialSeconds} + kEstimatedMoves * clock.incrementSeconds;
}

Speed speedOf(const Clock& clock) {
    const std::uint64_t seconds = estimatedSeconds(clock);
    if (seconds < kBulletBelow) return Speed::bullet;
    if (seconds < kBlitzBelow) return Speed::blitz;
    if (seconds < kRapidBelow) return Speed::rapid;
    return Speed::classical;
}

std::optional<Speed> ratedSpeed(const std::optional<Clock>& clock) {
    if (!clock) return std::nullopt;
    return speedOf(*clock);
}

std::string_view speedName(Speed speed) {
    switch (speed) {
        case Speed::bullet:
            return "bullet";
        case Speed::blitz:
            return "blitz";
        case Speed::rapid:
            return "rapid";
        case Speed::classical:
            return "classical";
    }
    return "classical";  // not reached: every Speed is named above
}

std::string_view categoryName(const std::optional<Clock>& clock) {
    const std::optional<Speed> speed = ratedSpeed(clock);
    return speed ? speedName(*speed) : "correspondence";
}

common::Result<std::vector<common::Rating>> afterGame(const common::Rating& a,
                                                      const common::Rating& b, double scoreOfA,
                                                      const common::Glicko2Settings& settings) {
    if (!std::isfinite(scoreOfA) || scoreOfA < 0 || scoreOfA > 1)
        return common::makeError("ratings: a score must be in [0, 1]");
    const common::GameResult forA{b.rating, b.deviation, scoreOfA};
    const common::GameResult forB{a.rating, a.deviation, 1 - scoreOfA};
    common::Result<common::Rating> newA = common::updateRating(a, std::span(&forA, 1), settings);
    if (!newA) return common::makeError(newA.error());
    common::Result<common::Rating> newB = common::updateRating(b, std::span(&forB, 1), settings);
    if (!newB) return common::makeError(newB.error());
    return std::vector<common::Rating>{newA.value(), newB.value()};
}

common::Result<std::vector<common::Rating>> afterTorneioGame(
    std::span<const TorneioSeat> seats, const common::Glicko2Settings& settings) {
    if (seats.size() < kMinTorneioSeats || seats.size() > kMaxTorneioSeats)
        return common::makeError("ratings: a Torneio game has 2 to 4 seats, not " +
                                 std::to_string(seats.size()));
    const int count = static_cast<int>(seats.size());
    bool winner = false;
    for (const TorneioSeat& seat : seats) {
        if (seat.place < 1 || seat.place > count)
            return common::makeError("ratings: a place must be in [1, " + std::to_string(count) +
                                     "], not " + std::to_string(seat.place));
        winner |= seat.place == 1;
    }
    if (!winner) return common::makeError("ratings: no seat is in first place");

    // Every seat's results against all the others, from the ratings before the game.
    std::vector<common::Rating> after;
    after.reserve(seats.size());
    std::vector<common::GameResult> results;
    for (std::size_t i = 0; i < seats.size(); ++i) {
        results.clear();
        for (std::size_t j = 0; j < seats.size(); ++j) {
            if (j == i) continue;
            const double score = seats[i].place < seats[j].place    ? 1.0
                                 : seats[i].place == seats[j].place ? 0.5
                                                                    : 0.0;
            results.push_back({seats[j].rating.rating, seats[j].rating.deviation, score});
        }
        common::Result<common::Rating> rated =
            common::updateRating(seats[i].rating, results, settings);
        if (!rated) return common::makeError(rated.error());
        after.push_back(rated.value());
    }
    return after;
}

common::Result<common::Rating> ratingBefore(const std::optional<common::Rating>& rating,
                                            std::int64_t lastGameMs, std::int64_t atMs,
                                            const common::Glicko2Settings& settings) {
    if (!rating) return common::startRating(settings);
    constexpr double kMillisecondsADay = 86'400'000.0;
    const double days =
        static_cast<double>(std::max<std::int64_t>(0, atMs - lastGameMs)) / kMillisecondsADay;
    return common::withTimeAway(*rating, days, settings);
}

}  // namespace web::ratings
