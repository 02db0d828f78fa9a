// web::ratings: what the club rates and how, on top of common/glicko2.h. A Lasca game is rated in
// the speed its clock gives (bullet, blitz, rapid, classical; a game without a clock is
// correspondence and has no speed rating); a Torneio game of 2 to 4 seats is rated as the
// results between every pair of seats. Pure functions; no store, no server. docs/ratings.md
// explains the choices.
#pragma once

#include "common/glicko2.h"
#include "common/result.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace web::ratings {

// ---- Lasca: a rating per speed -----------------------------------------------------------------

// Clock: a game's time control, the time each side starts with and adds after each move.
struct Clock {
    std::uint32_t initialSeconds = 0;
    std::uint32_t incrementSeconds = 0;
};

// Speed: the rated speeds, by the estimated duration of a game (lichess's limits).
enum class Speed { bullet, blitz, rapid, classical };

// The estimated time of one side for a game of 40 moves: initial + 40 x increment, in seconds.
std::uint64_t estimatedSeconds(const Clock& clock);

// The speed of a clock: estimated time under 180 s bullet, under 480 s blitz, under 1500 s
// rapid, classical from 1500 s on.
Speed speedOf(const Clock& clock);

// The speed a game is rated in: none (std::nullopt) for a game without a clock, a
// correspondence game, which is not rated by speed.
std::optional<Speed> ratedSpeed(const std::optional<Clock>& clock);

// "bullet", "blitz", "rapid", "classical".
std::string_view speedName(Speed speed);

// The category's name of a game: its speed's name, or "correspondence" without a clock.
std::string_view categoryName(const std::optional<Clock>& clock);

// A player's rating before a rated game played at `atMs` (milliseconds since the Unix epoch):
// the start rating for a first game in the category (no rating), else `rating` grown by the
// days since `lastGameMs`, its last rated game there (common::withTimeAway; a clock set back
// grows nothing). Two-person and Torneio tables alike.
common::Result<common::Rating> ratingBefore(
    const std::optional<common::Rating>& rating, std::int64_t lastGameMs, std::int64_t atMs,
    const common::Glicko2Settings& settings = common::kLichessGlicko2);

// The two sides' ratings after one game between them (its own rating period, as lichess rates
// each game): a's score 1, 0.5 or 0 (b's is 1 minus it), each against the other's rating before
// the game. An error for a rating or score out of range (common::updateRating's ranges).
common::Result<std::vector<common::Rating>> afterGame(
    const common::Rating& a, const common::Rating& b, double scoreOfA,
    const common::Glicko2Settings& settings = common::kLichessGlicko2);

// ---- Torneio: one rating, every pair of seats --------------------------------------------------

inline constexpr std::size_t kMinTorneioSeats = 2;
inline constexpr std::size_t kMaxTorneioSeats = 4;

// TorneioSeat: a seat of a finished Torneio game.
//   rating  the seat's player's Torneio rating before the game
//   place   its finishing place, 1 the winner; seats that drew share a place; eliminated seats
//           are placed by when they were eliminated, the later the better. Only the order
//           matters: 1, 2, 2, 4 and 1, 2, 2, 3 rate the same. In [1, number of seats].
struct TorneioSeat {
    common::Rating rating;
    int place = 1;
};

// The seats' ratings after the game, in the seats' order. Each seat is rated in one rating
// period with a result against every other seat: 1 against a seat placed worse, 0.5 against a
// seat with the same place, 0 against a seat placed better, every opponent with its rating
// before the game. An error for fewer than 2 or more than 4 seats, a place out of range, no seat
// in first place, or a rating out of range.
common::Result<std::vector<common::Rating>> afterTorneioGame(
    std::span<const TorneioSeat> seats,
    const common::Glicko2Settings& settings = common::kLichessGlicko2);

}  // namespace web::ratings
