// Every game an account played, to download (protocol.md, "Accounts (HTTP)"): its two-person
// tables as one PDN file (GET /api/account/games), its Torneio tables' records as one text file
// (GET /api/account/torneio); made from the store without I/O of their own.
#pragma once

#include <cstddef>

#include "web/pages/games_page.h"
#include "web/store/store.h"

namespace web::pages {

// The most PDN text the file holds: past it, the oldest games are left out and the file says so
// in a first line `% ...` (a PDN escape line, which readers skip).
inline constexpr std::size_t kAccountPdnBytes = std::size_t{8} << 20;

// The file of `account`'s tables, finished and running, oldest first, each as its own PDN page
// makes it (duelPdn, Round its public number): 200, text/plain, with a header
// `Content-Disposition: attachment; filename="<name>-games.pdn"`; a store error a 500 page.
// maxBytes: the budget above (tests make it small; the newest game always goes in).
GamesPage accountGamesPdn(store::Store& store, const store::StoredAccount& account,
                          std::size_t maxBytes = kAccountPdnBytes);

// The finished Torneio tables an account held a seat of, oldest first, each its record as
// /games/torneio/<n>.txt shows it after a line `# table <n>: <result>`: 200, text/plain, with
// `Content-Disposition: attachment; filename="<name>-torneio.txt"`; past maxBytes the oldest
// are left out and the first line says so; a store error a 500 page.
GamesPage accountTorneioRecords(store::Store& store, const store::StoredAccount& account,
                                std::size_t maxBytes = kAccountPdnBytes);

}  // namespace web::pages
