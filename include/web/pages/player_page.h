// A player's page, made from the store without I/O of its own (protocol.md, "Player pages"):
//   /@/<name>       HTML: the ratings per speed (`?` after a provisional one, RD >= 110), the
//                   rated games counted, member since, the rating history drawn as an inline
//                   SVG line per speed (no script), and the player's finished two-person tables
//                   (opponent linked to their page, result, date, the game's PDN), newest
//                   (highest number) first, kPlayerGames a page, with a link to the older ones.
//                   The Torneio rating is shown with the speeds, its history likewise, and the
//                   player's finished Torneio tables listed (seat, the others, outcome, date, a
//                   link to the table's record /games/torneio/<n>), newest first, kPlayerGames
//   /api/@/<name>   the same as JSON
//   ?before=<n>     either of them with the games numbered below n (any other query is the
//                   first page; a malformed n a 400)
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
    std::vector<store::NumberedDuel> games;                  // newest first, at most kPlayerGames
    std::vector<store::NumberedTorneioTable> torneioTables;  // newest first, at most kPlayerGames
    // The page of older games: its `?before=` (the number of the last game shown), 0 when none.
    std::int64_t older = 0;
};
inline constexpr int kPlayerGames = 50;

// The answer to a GET of `target`, or nothing when the path is not a player's page. The HTML
// page is written in the language of `words` (as gamesPage's); without it, in English.
std::optional<GamesPage> playerPage(store::Store& store, std::string_view target,
                                    const i18n::Translator& words);
std::optional<GamesPage> playerPage(store::Store& store, std::string_view target);

// The parts, for tests.
std::string playerHtml(const PlayerFacts& facts, const i18n::Translator& words);
std::string playerHtml(const PlayerFacts& facts);
nlohmann::json playerJson(const PlayerFacts& facts);
// The rating history of one category as an inline SVG line ("" when it has no point), named
// `label` for a screen reader ("<category> rating history" without one).
std::string historySvg(const std::vector<store::RatingPoint>& history, const std::string& category,
                       const std::string& label);
std::string historySvg(const std::vector<store::RatingPoint>& history, const std::string& category);

}  // namespace web::pages
