// What every connection of the server shares: its settings, its store, its two rooms (Lasca,
// with the two-person tables, and Torneio), the page's files, the names it answers for and the
// connections it holds. Touched on the server's one thread only.
#pragma once

#include <memory>

#include "account_api.h"
#include "room.h"
#include "web/i18n/i18n.h"
#include "web/server/access.h"
#include "web/server/server.h"
#include "web/store/store.h"

namespace web::server {

// ServerState
//   lasca     Lasca tables against the engine (and the analysis board); a tab of it may join a
//             two-person table, which the lasca room hands to `duels`
//   torneio   Torneio tables
//   lobby     the lobby's seeks, Torneio offers, challenges and games to watch
//   files     the page's files, read at start
//   hosts     the Host names and Origins served
//   limits    the connections held, in all and per address
//   accounts  the accounts' endpoints (/api/...)
struct ServerState {
    ServerConfig config;
    store::Store* store = nullptr;
    std::shared_ptr<Room> lasca;
    std::shared_ptr<Room> torneio;
    std::shared_ptr<Room> lobby;
    StaticFiles files;
    i18n::Catalogues catalogues;  // from files' /i18n/<lang>/*.json
    HostPolicy hosts{"", 0, {}};
    std::shared_ptr<ConnectionLimits> limits;
    std::shared_ptr<AccountApi> accounts;
};

}  // namespace web::server
