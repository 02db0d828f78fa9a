// The `lasca-web` server (Boost.Beast on one Asio thread), laid out as Beast's own multi-session
// examples: a Listener accepts connections; an HttpSession serves the page's static files and the
// /games pages and upgrades /ws and /ws/torneio to a WebSocketSession, which only reads, limits,
// queues and writes; the rooms own the tables and their policy: LascaRoom (Lasca tables against
// the engine: ownership, the save policy), DuelRoom (two-person tables and their clocks) and
// TorneioRoom (Torneio tables and their hooks). Sessions and rooms talk through room.h.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

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
// What holds against strangers (protocol.md, "Limits"; docs/robustness.md, "Attacks tried"):
//   publicOrigins    origins beside the loopback ones that the server answers for, each
//                    "scheme://host[:port]": a request's Host must name one of them (or a
//                    loopback name, or the listening address, on the listening port), a
//                    WebSocket upgrade's Origin, when it has one, must be one of them exactly
//   maxConnections, maxConnectionsPerAddress   TCP connections at once, in all and from one
//                    address; one more gets a 503 reply and is closed
//   trustedProxies   addresses of the fronts (HAProxy) whose connections begin with a PROXY
//                    protocol header (version 1): the address it names is the connection's
//                    address for every limit; from these addresses a connection without the
//                    header is closed
//   headerSeconds    how long a connection may take to send one request's head and body
//   idleSeconds      a WebSocket that sends no message for this long is closed (pings answered
//                    do not count)
//   maxQueuedBytes   the replies waiting to be written to one WebSocket; a tab that lets more
//                    pile up (it reads nothing) is closed
//   maxTorneioTablesPerAddress  Torneio tables made from one address that are on the server
//   maxDuelsPerAddress          two-person tables made from one address that are on the server
//   maxGamesPerAddress          new Lasca games kept in the store from one address in an hour
// Accounts (protocol.md, "Accounts (HTTP)"):
//   secureCookies     the session cookie carries `Secure` (the server is behind TLS)
//   signInTries, signInWaitSeconds   password checks (sign-in, a password change, an account's
//                    deletion) from one address, and for one account name: signInTries at once,
//                    then one each signInWaitSeconds
//   signUpsPerAddress  accounts made from one address: that many at once, then as many an hour
// Several instances on one PostgreSQL database (docs/design.md, "Spreading the server"):
//   instance         this instance's name, unique among them ("" for one server alone): its
//                    tables are held under leases (store::Store::setHome)
//   leaseMs          how long a lease lives unrenewed; the instance renews every leaseMs / 4
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
    std::vector<std::string> publicOrigins;
    int maxConnections = 2000;
    int maxConnectionsPerAddress = 100;
    std::vector<std::string> trustedProxies;
    int headerSeconds = 10;
    int idleSeconds = 3600;
    std::size_t maxQueuedBytes = std::size_t{8} << 20;
    int maxTorneioTablesPerAddress = 4;
    int maxDuelsPerAddress = 20;
    int maxGamesPerAddress = 200;
    bool secureCookies = false;
    int signInTries = 5;
    double signInWaitSeconds = 60;
    int signUpsPerAddress = 5;
    std::string instance;
    int leaseMs = 5000;
};

// Runs the server until SIGINT or SIGTERM. Prints "lasca-web: listening on http://ADDR:PORT/"
// on stdout once it listens (with the real port when port was 0). Every Lasca game is saved in
// `store` (store.h) as it changes, before the replies that show the change go out; a tab joins a
// stored game by its id. Errors: the address cannot be bound.
common::Result<bool> runServer(const ServerConfig& config, store::Store& store);

// RateLimiter: a token bucket. `allow(now)` takes one token if there is one; tokens come back at
// `perSecond`, up to `burst`. `full(now)`: the bucket holds `burst` again (it may be forgotten).
class RateLimiter {
  public:
    RateLimiter(double perSecond, double burst)
        : perSecond_(perSecond), burst_(burst), tokens_(burst) {}
    bool allow(double nowSeconds);
    bool full(double nowSeconds) const { return refilled(nowSeconds) >= burst_; }
    // The seconds until allow() would take a token (0: it would now).
    double wait(double nowSeconds) const {
        const double tokens = refilled(nowSeconds);
        return tokens >= 1 ? 0 : (1 - tokens) / perSecond_;
    }

  private:
    double perSecond_;
    double burst_;
    double tokens_;
    double last_ = -1;

    double refilled(double nowSeconds) const {
        return last_ < 0 ? tokens_ : std::min(burst_, tokens_ + (nowSeconds - last_) * perSecond_);
    }
};

// AttemptLimits: a RateLimiter per key (an address, an account name's key): `burst` tries at
// once, then one each `secondsPerTry`. At most kMaxKeys keys are kept: when that many are, the
// keys whose bucket is full again are forgotten, and a new key beyond them is refused (a limit
// in all). Pure: the time is handed in; the caller holds any lock.
class AttemptLimits {
  public:
    static constexpr std::size_t kMaxKeys = 100000;

    AttemptLimits(int burst, double secondsPerTry) : burst_(burst), perSecond_(1 / secondsPerTry) {}
    // 0 when a try for `key` is allowed now (and counted), else the whole seconds to wait
    // (at least 1).
    int tryNow(const std::string& key, double nowSeconds);
    std::size_t keys() const { return buckets_.size(); }

  private:
    int burst_;
    double perSecond_;
    std::map<std::string, RateLimiter, std::less<>> buckets_;
};

}  // namespace web::server
