// The finishing places of a finished Torneio game, as its ratings read them (docs/ratings.md,
// web::ratings::afterTorneioGame): read from the referee's full record, which says who won or
// drew (its outcome) and when each other seat left the game (its `eliminated` and
// `disqualified` events, in the order of the decisions that caused them).
#pragma once

#include <optional>
#include <vector>

#include "torneio/rules/record.h"

namespace web::torneio_tables {

// The places by seat (0-based): 1 for the seats the outcome names (the one left, G12, or every
// survivor of a draw, D11); every other seat by when it left, the later the better, seats that
// left through the same decision sharing a place, the places counted as in a competition
// (1, 2, 2, 4). A seat the record never shows leaving is placed last. Nothing for a record of a
// game that is not over.
std::optional<std::vector<int>> finishingPlaces(const torneio::Record& record);

// The places of some seats counted among themselves alone (only the seats with accounts are
// rated): for each of `seats` (0-based seats of `places`, in the order given), 1 + the number of
// them placed strictly better, so that a seat placed behind only other seats is first among
// those given. A seat out of range is placed last.
std::vector<int> placesAmong(const std::vector<int>& places, const std::vector<int>& seats);

}  // namespace web::torneio_tables
