// A player's page, made from the store without I/O of its own (protocol.md, "Player pages"):
//   /@/<name>       HTML: the ratings per speed (`?` after a provisional one, RD >= 110), the
//                   rated games counted, member since, the rating history drawn as an inline
//                   SVG line per speed (no script), and the player's finished two-person tables
//                   (opponent linked to their page, result, date, the game's PDN)
//   /api/@/<name>   the same as JSON
// The name is read in any case ("ANA" finds "Ana"); an unknown or deleted name is a 404 page.
// Names are shown as text (escaped), though the rule of names allows no markup.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "web/pages/games_page.h"
#include "web/store/store.h"

namespace web::pages {

// PlayerFacts: what a player's page shows, as read from the store.
struct PlayerFacts {
    store::StoredAccount account;
    std::vector<store::StoredRating> ratings;
    std::vector<store::RatingPoint> history;
    std::vector<store::NumberedDuel> games;  // newest first, at most kPlayerGames
};
inline constexpr int kPlayerGames = 100;

// The answer to a GET of `target`, or nothing when the path is not a player's page.
std::optional<GamesPage> playerPage(store::Store& store, std::string_view target);

// The parts, for tests.
std::string playerHtml(const PlayerFacts& facts);
nlohmann::json playerJson(const PlayerFacts& facts);
// The rating history of one category as an inline SVG line ("" when it has no point).
std::string historySvg(const std::vector<store::RatingPoint>& history, const std::string& category);

}  // namespace web::pages
