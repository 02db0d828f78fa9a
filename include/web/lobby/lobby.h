// web::lobby: what the lobby's offers ask and who may see them, with no connection and no store.
// A seek asks for a two-person Lasca table (a clock or none, rated or casual, a rating range);
// a Torneio offer gathers people at a table of 2 to 4 seats, AI seats filling the rest; a
// challenge asks one named player for a Lasca game, who accepts or declines with a reason. The
// server's lobby room (src/web/server/lobby_room.h) holds the open offers and the tabs.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "common/glicko2.h"
#include "common/result.h"
#include "web/lasca_tables/duel.h"

namespace web::lobby {

using Json = nlohmann::json;

// The ratings a range may name (a range outside them is refused).
inline constexpr int kMinRangeRating = 0;
inline constexpr int kMaxRangeRating = 4000;

// SeekParams: a Lasca seek or challenge: the clock in milliseconds (none when `clock` is false:
// a correspondence game, casual only), rated or casual, and the ratings (inclusive) of the people
// who may accept it, in the seek's category (none: everyone).
struct SeekParams {
    bool clock = false;
    std::int64_t time = 0;
    std::int64_t increment = 0;
    bool rated = false;
    std::optional<std::pair<int, int>> range;

    friend bool operator==(const SeekParams&, const SeekParams&) = default;
};

// The field "clock" of a message: absent or null (no clock), or {"time":ms,"increment":ms}
// within the two-person tables' limits (lasca_tables/duel.h). A table made by `lasca.create` and
// a seek or challenge of the lobby read their clock with it.
common::Result<std::optional<lasca_tables::DuelClock>> readClock(const Json& message);

// Reads the fields "clock" (null or {"time":ms,"increment":ms}), "rated" (optional, false) and
// "range" (optional: null or [low, high]) of a message; every other field of `allowed` passes.
// Errors: a clock out of the two-person tables' limits, a rated game without a clock of a rated
// speed, a range upside down or out of [kMinRangeRating, kMaxRangeRating].
common::Result<SeekParams> readSeek(const Json& message);

// The category the seek's game is rated or counted in ("blitz", "correspondence", ...).
std::string category(const SeekParams& params);

// The params as the lobby's messages and the store show them:
// {"clock":null|{"time","increment"},"rated":b,"range":null|[lo,hi],"speed":"blitz"}.
Json seekJson(const SeekParams& params);

// TorneioParams: a Torneio offer: seats at the table (2-4), people to gather (2 to seats; the
// others are AI seats of `level`), rounds (1-200), rated (only signed-in people sit).
struct TorneioParams {
    int seats = 2;
    int people = 2;
    int level = 0;
    int rounds = 200;
    bool rated = false;

    friend bool operator==(const TorneioParams&, const TorneioParams&) = default;
};

// Reads {"seats","people","level","rounds","rated"} (level in [0, levels)).
common::Result<TorneioParams> readTorneio(const Json& message, int levels);
Json torneioJson(const TorneioParams& params);

// Viewer: who looks at the lobby: a guest (account 0), or an account with its ratings by
// category (none yet in a category: the start rating).
struct Viewer {
    std::int64_t account = 0;
    std::map<std::string, common::Rating> ratings;

    bool guest() const { return account == 0; }
    common::Rating ratingIn(const std::string& category) const;
};

// Whether a viewer who did not make it may see and accept a seek: a guest only a casual one
// without a range; an account a seek whose range holds its rating in the seek's category.
bool maySee(const SeekParams& params, const Viewer& viewer);

// Whether a viewer may sit at a Torneio offer: a rated one is for signed-in people only.
bool maySit(const TorneioParams& params, const Viewer& viewer);

// The reasons a challenge may be declined with, and the sentence each is told as.
struct DeclineReason {
    std::string_view key;
    std::string_view text;
};
inline constexpr std::array<DeclineReason, 7> kDeclineReasons = {{
    {"generic", "I am not accepting challenges at the moment."},
    {"later", "This is not the right time for me, please ask again later."},
    {"tooFast", "This time control is too fast for me, please challenge again with a slower game."},
    {"tooSlow", "This time control is too slow for me, please challenge again with a faster game."},
    {"timeControl", "I am not accepting challenges with this time control."},
    {"rated", "Please send me a rated challenge instead."},
    {"casual", "Please send me a casual challenge instead."},
}};
const DeclineReason* declineReason(std::string_view key);

// The colours of a new game: true when the maker of the offer plays White (one random bit from
// the operating system).
bool makerPlaysWhite();

}  // namespace web::lobby
