// The games pages of lasca-web, made from the store without I/O of their own:
//   /games                  the running public tables (made in the lobby) with their players
//                           and a link to watch each (/?table=<id>&token=<watch token>), the
//                           running public Torneio tables (/torneio?watch=<id>), then
//                           the most recent games of both kinds, newest first (HTML)
//   /games?player=NAME      the finished two-person tables of one account, newest first (a
//                           404 page for a name of no account)
//   /games.pdn              the kept games as PDN in pages, oldest first: every Lasca game, then
//                           every finished two-person table. A page holds at most
//                           kPdnPageBytes of PDN (but always one game, however long) and is read
//                           from the store alone; its answer names the next page in a header
//                           `Link: </games.pdn?...>; rel="next"` (none on the last page):
//                             /games.pdn?lasca=N   Lasca games numbered above N, then (once
//                                                  every one is in) tables from the first;
//                                                  /games.pdn is ?lasca=0
//                             /games.pdn?table=N   finished tables numbered above N
//                           any other query is a 400 page
//   /games/lasca/N.pdn      one Lasca game by its public number (the page's analysis board
//                           opens it with /?view=N)
//   /games/torneio/N        one Torneio table (HTML): once over, its result and whole record
//                           (torneio replay's listing); while it runs, only what every seat
//                           saw: its parameters, seats and public events
//   /games/torneio/N.txt    the same table's text as the protocol writes it (torneioTableText)
// Nothing on them is secret: a Lasca game's id (the key that plays it) and a seat's token
// never appear, nor any private event of a running table; games are named by their public
// numbers (store.h, GameSummary). A public table's id and watch token are shown (anyone may
// watch it); a private table's never are.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "web/i18n/i18n.h"
#include "web/store/store.h"

namespace web::pages {

// GamesPage: an answer to one of the paths above.
//   headers   more header fields of the answer, by name (a page's Link to the next page)
struct GamesPage {
    int status = 200;
    std::string contentType;
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
};

// The most PDN text one page of /games.pdn holds (a single longer game is a page of its own).
inline constexpr std::size_t kPdnPageBytes = std::size_t{1} << 20;

// The answer to a GET of `target`, or nothing when the path is not one of the games pages (the
// query is read by /games.pdn only). A number that names no game is a 404 page; a store error a
// 500 page. pdnPageBytes: the size of a /games.pdn page (tests make it small). The HTML pages
// are written in the language of `words` (every word from the catalogues' pages.* and
// common.nav.* messages, dates the language's way, <html lang> set) and say so in a header
// `Vary: Cookie, Accept-Language`; without `words`, in English (builtInWords).
std::optional<GamesPage> gamesPage(store::Store& store, std::string_view target,
                                   const i18n::Translator& words,
                                   std::size_t pdnPageBytes = kPdnPageBytes);
std::optional<GamesPage> gamesPage(store::Store& store, std::string_view target,
                                   std::size_t pdnPageBytes = kPdnPageBytes);

// The pages' own messages in `lang` (English for an unknown one), compiled in from
// web/i18n/<lang>/{common,pages}.json: for callers without the server's catalogues.
const i18n::Translator& builtInWords(std::string_view lang);

// The most running public tables /games lists.
inline constexpr int kWatchListed = 50;

// A running public Torneio table (made in the lobby) as /games lists it, from the server's
// Torneio room (which tables are public is not kept in the store): its id, watched at
// /torneio?watch=<id> (the id names no seat), and per seat its kind ("person" or a player
// kind), an AI's level (0-based) and a person's account name ("" for a guest).
struct WatchableTorneio {
    struct Seat {
        std::string kind;
        int level = 0;
        std::string player;
    };
    std::string id;
    std::vector<Seat> seats;
    bool rated = false;
};

// gamesPage with the running public Torneio tables (at most kWatchListed) listed to watch on
// /games, after the two-person tables.
std::optional<GamesPage> gamesPage(store::Store& store, std::string_view target,
                                   const i18n::Translator& words,
                                   const std::vector<WatchableTorneio>& torneio,
                                   std::size_t pdnPageBytes = kPdnPageBytes);

// A two-person table as PDN (the players by their accounts' names, "white player" and "black
// player" for guests; its end; TimeControl when it has a clock); `round`: the PDN Round tag.
std::string duelPdn(const store::StoredDuel& duel, const std::string& round);

// A Torneio table as /games/torneio/<n>.txt serves it: its whole record once it is over; while
// it runs, its parameters, seats and public events only.
std::string torneioTableText(const store::StoredTorneioTable& table);
// The page /games/torneio/<number> (torneio_table_page.cpp): the table's result, seats and
// parameters in the language of `words`, then its record (once over) or its public events (while
// it runs) as the protocol writes them, and a link to the .txt.
std::string torneioTableHtml(const store::StoredTorneioTable& table, std::int64_t number,
                             const i18n::Translator& words);
// The public event lines of a table's decisions so far (what every seat saw), or nothing when its
// parameters do not read.
std::optional<std::vector<std::string>> publicEventLines(const store::StoredTorneioTable& table);

// The parts, for tests.
// player: the account whose games these are ("" for the recent games of everyone); watchable:
// the running public tables listed above them (none on a player's list), and torneio the
// running public Torneio tables.
std::string gamesListHtml(const std::vector<store::GameSummary>& games,
                          const i18n::Translator& words, const std::string& player = "",
                          const std::vector<store::NumberedDuel>& watchable = {},
                          const std::vector<WatchableTorneio>& torneio = {});
std::string gamesListHtml(const std::vector<store::GameSummary>& games,
                          const std::string& player = "",
                          const std::vector<store::NumberedDuel>& watchable = {});
std::string torneioTableText(const store::StoredTorneioTable& table);

}  // namespace web::pages
