// Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", glicko.net/glicko/glicko2.pdf)
// as lichess applies them: a rating, its deviation (RD) and its volatility; each update takes the
// results of one rating period at once; the RD grows again while a player is away. Pure
// functions; every input is range-checked and a bad one is an error value, so no NaN comes out.
// docs/ratings.md tells what the club rates with it.
#pragma once

#include "common/result.h"

#include <span>

namespace common {

// Rating: a player's strength on the Glicko scale (1500 the start).
//   rating      the estimate, in [kMinValidRating, kMaxValidRating]
//   deviation   RD, one standard deviation of the estimate, in [kMinValidDeviation,
//               kMaxValidDeviation]
//   volatility  sigma, the expected fluctuation of the strength, in [kMinValidVolatility,
//               kMaxValidVolatility]
struct Rating {
    double rating = 1500;
    double deviation = 500;
    double volatility = 0.09;
};

// GameResult: one game of the rating period, seen from the player being rated.
//   opponentRating, opponentDeviation  the opponent's rating and RD before the period, in the
//                                      ranges of a Rating's
//   score  1 a win, 0.5 a draw, 0 a loss (any value in [0, 1] is accepted)
struct GameResult {
    double opponentRating = 1500;
    double opponentDeviation = 500;
    double score = 0.5;
};

// The ranges an input must lie in; outside them (or not finite) is an error. They are wider than
// anything the club's updates produce (lichess keeps ratings above 400, RDs in [45, 500] and
// volatilities below 0.1), and narrow enough that every step stays finite: an expected score
// never rounds to exactly 0 or 1 (v would be infinite), sigma^2 and tau^2 never underflow.
inline constexpr double kMinValidRating = 0;
inline constexpr double kMaxValidRating = 5000;
inline constexpr double kMinValidDeviation = 1;
inline constexpr double kMaxValidDeviation = 1000;
inline constexpr double kMinValidVolatility = 0.0001;
inline constexpr double kMaxValidVolatility = 1;
inline constexpr double kMinValidTau = 0.01;
inline constexpr double kMaxValidTau = 10;

// Glicko2Settings: the system's constants and the bounds applied after each update. The defaults
// are lichess's (kLichessGlicko2); Glickman's paper has no bounds (set them to the valid ranges).
//   start*                a new player's rating (1500), RD (500) and volatility (0.09)
//   tau                   how much the volatility may change in one period (0.75; the paper
//                         suggests 0.3 to 1.2)
//   minDeviation          the RD is raised to at least this after an update (45)
//   maxDeviation          the RD never grows above this, by games or by time away (500, the start)
//   minRating             the rating is raised to at least this after an update (400)
//   maxVolatility         the volatility is lowered to at most this after an update (0.1)
//   provisionalDeviation  a rating is provisional while its RD is at least this (110)
//   ratingPeriodsPerDay   how many rating periods a day away counts for (0.21436); lichess
//                         counts each game as its own rating period
struct Glicko2Settings {
    double startRating = 1500;
    double startDeviation = 500;
    double startVolatility = 0.09;
    double tau = 0.75;
    double minDeviation = 45;
    double maxDeviation = 500;
    double minRating = 400;
    double maxVolatility = 0.1;
    double provisionalDeviation = 110;
    double ratingPeriodsPerDay = 0.21436;
};

// lichess's constants: the club's defaults, in this one place.
inline constexpr Glicko2Settings kLichessGlicko2{};

// The conversion between the Glicko scale and the Glicko-2 scale (the paper's step 2).
inline constexpr double kGlicko2Scale = 173.7178;

// The Illinois algorithm of step 5 stops when its bracket is narrower than this.
inline constexpr double kVolatilityTolerance = 0.000001;

// A new player's rating.
constexpr Rating startRating(const Glicko2Settings& settings = kLichessGlicko2) {
    return Rating{settings.startRating, settings.startDeviation, settings.startVolatility};
}

// Whether a rating is shown as provisional (a "?" after it): RD at least provisionalDeviation.
// A deviation that is not a number counts as provisional.
bool provisional(const Rating& rating, const Glicko2Settings& settings = kLichessGlicko2);

// The player's rating at the end of a rating period with these results, each against the
// opponent's rating before the period (steps 1 to 8 of the paper), then bounded by the settings'
// minDeviation, maxDeviation, minRating and maxVolatility, and by the valid ranges, so that the
// result is always a valid input to the next update. No results: only the RD grows (step 6:
// sqrt(phi^2 + sigma^2), bounded the same way). An error for an input out of range, for settings
// that are not sane, or (never seen) when step 5 does not converge.
Result<Rating> updateRating(const Rating& player, std::span<const GameResult> results,
                            const Glicko2Settings& settings = kLichessGlicko2);

// The rating after `days` away from the game: on the Glicko-2 scale phi grows to
// sqrt(phi^2 + sigma^2 * t) for t = days * ratingPeriodsPerDay elapsed rating periods (step 6
// for t periods), at most maxDeviation (the start RD: a longer absence tells nothing more); the
// rating and the volatility do not change. An error for an input out of range or a negative or
// non-finite number of days.
Result<Rating> withTimeAway(const Rating& player, double days,
                            const Glicko2Settings& settings = kLichessGlicko2);

}  // namespace common
