// What every connection of the server shares: its settings, its store and its three rooms.
// Touched on the server's one thread only.
#pragma once

#include <memory>

#include "room.h"
#include "web/server/server.h"
#include "web/store/store.h"

namespace web::server {

// ServerState
//   lasca     Lasca tables against the engine (and the analysis board); a tab of it may join a
//             two-person table, which the lasca room hands to `duels`
//   torneio   Torneio tables
struct ServerState {
    ServerConfig config;
    store::Store* store = nullptr;
    std::shared_ptr<Room> lasca;
    std::shared_ptr<Room> torneio;
};

}  // namespace web::server
