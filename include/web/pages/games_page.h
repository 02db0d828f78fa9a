// The games pages of lasca-web, made from the store without I/O of their own:
//   /games                  the most recent games of both kinds, newest first (HTML)
//   /games.pdn              every kept Lasca game as PDN, oldest first
//   /games/lasca/N.pdn      one Lasca game by its public number (the page's analysis board
//                           opens it with /?view=N)
//   /games/torneio/N        one Torneio table: once over, its whole record (torneio replay's
//                           listing); while it runs, only what every seat saw: its parameters,
//                           seats and public events
// Nothing on them is secret: a Lasca game's id (the key that plays it) and a seat's token
// never appear, nor any private event of a running table; games are named by their public
// numbers (store.h, GameSummary).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "web/store/store.h"

namespace web::pages {

// GamesPage: an answer to one of the paths above.
struct GamesPage {
    int status = 200;
    std::string contentType;
    std::string body;
};

// The answer to a GET of `target` (its query ignored), or nothing when the path is not one of
// the games pages. A number that names no game is a 404 page; a store error a 500 page.
std::optional<GamesPage> gamesPage(store::Store& store, std::string_view target);

// The parts, for tests.
std::string gamesListHtml(const std::vector<store::GameSummary>& games);
std::string torneioTableText(const store::StoredTorneioTable& table);

}  // namespace web::pages
