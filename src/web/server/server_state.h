// What every connection of the server shares: its settings, its store, its two rooms (Lasca,
// with the two-person tables, and Torneio), the page's files, the names it answers for and the
// connections it holds. Touched on the server's one thread only.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <boost/asio/ip/address.hpp>

#include "account_api.h"
#include "room.h"
#include "web/i18n/i18n.h"
#include "web/lasca_tables/engine_pool.h"
#include "web/pages/games_page.h"
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
//   trustedProxies  the fronts whose connections begin with a PROXY protocol header
//   accounts  the accounts' endpoints (/api/...)
struct ServerState {
    ServerConfig config;
    store::Store* store = nullptr;
    std::shared_ptr<Room> lasca;
    std::shared_ptr<Room> torneio;
    // The running public Torneio tables, for /games (the Torneio room holds which are public).
    std::function<std::vector<pages::WatchableTorneio>()> torneioToWatch;
    // The engine pool's counts and size, for /health.
    std::function<lasca_tables::PoolStats()> engineStats;
    int engineSlots = 0;
    std::shared_ptr<Room> lobby;
    StaticFiles files;
    i18n::Catalogues catalogues;  // from files' /i18n/<lang>/*.json
    HostPolicy hosts{"", 0, {}};
    std::shared_ptr<ConnectionLimits> limits;
    std::vector<boost::asio::ip::address> trustedProxies;
    std::shared_ptr<AccountApi> accounts;
};

}  // namespace web::server
