// The `lasca-web` server (Boost.Beast on one Asio thread), laid out as Beast's own multi-session
// examples: a Listener accepts connections; an HttpSession serves the page's static files and the
// /games pages and upgrades /ws and /ws/torneio to a WebSocketSession, which only reads, limits,
// queues and writes; the rooms own the tables and their policy: LascaRoom (Lasca tables against
// the engine: ownership, the save policy), DuelRoom (two-person tables and their clocks) and
// TorneioRoom (Torneio tables and their hooks). Sessions and rooms talk through room.h.
#pragma once

#include <cstdint>
#include <string>

#include "common/result.h"

namespace web::store {
class Store;
}

namespace web::server {

// ServerConfig: what `lasca-web`'s command line sets.
//   address, port    where to listen (127.0.0.1 by default; port 0 picks a free port)
//   staticDir        the page's files (index.html, ...)
//   enginePath       the Lasca engine program
//   maxTables        Lasca tables (WebSocket connections) at once; more are refused
//   maxEngines       the engine processes of the pool every table's searches share
//                    (web/lasca_tables/engine_pool.h); `lasca-web` defaults to the core count
//   messagesPerSecond, burst   the rate limit per connection (a token bucket): a message over
//                    it gets an error reply and is not handled
//   maxTorneioTables Torneio tables at once
//   egtbPath         the endgame tables' folder every engine of the pool probes (EgtbPath,
//                    docs/egtb.md); empty: none
struct ServerConfig {
    std::string address = "127.0.0.1";
    std::uint16_t port = 8080;
    std::string staticDir;
    std::string enginePath;
    int maxTables = 1000;
    int maxEngines = 2;
    double messagesPerSecond = 20;
    double burst = 60;
    int maxTorneioTables = 16;
    std::string egtbPath;
};

// Runs the server until SIGINT or SIGTERM. Prints "lasca-web: listening on http://ADDR:PORT/"
// on stdout once it listens (with the real port when port was 0). Every Lasca game is saved in
// `store` (store.h) as it changes, before the replies that show the change go out; a tab joins a
// stored game by its id. Errors: the address cannot be bound.
common::Result<bool> runServer(const ServerConfig& config, store::Store& store);

// RateLimiter: a token bucket. `allow(now)` takes one token if there is one; tokens come back at
// `perSecond`, up to `burst`.
class RateLimiter {
  public:
    RateLimiter(double perSecond, double burst)
        : perSecond_(perSecond), burst_(burst), tokens_(burst) {}
    bool allow(double nowSeconds);

  private:
    double perSecond_;
    double burst_;
    double tokens_;
    double last_ = -1;
};

}  // namespace web::server
