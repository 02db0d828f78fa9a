// The Lasca tables against the engine (and the analysis board): one LascaTable per tab; their
// searches are served by the room's EnginePool (config.maxEngines processes, shared by every
// table, ticked once a second). The room's policy: how many tables run at once, which tab holds a
// game (one at a time: a game opened in a second tab leaves the first), and the save policy: after
// every reply that changed the game, the change the table records is committed to the store before
// the replies go out. A tab's `lasca.create` and `lasca.join`, and every message of a tab bound to
// a two-person table, go to the DuelRoom.
//
// Stored games per address: a new game's first save (its first move, a set position, an import)
// takes one of config.maxGamesPerAddress tokens of its tab's address, which come back evenly over
// an hour (a token bucket: that many at once, that many an hour on average). Without a token the
// game is still played, but not kept: the tab is told once, its `state` says "kept":false (so
// the page leaves no link that would not come back), and nothing of that game is saved. A
// person mid-game would rather finish it than be stopped; only the record is given up. Games
// that are kept already (a reload, a restart) take no token.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>  // before Boost.Asio, whose awaitable.hpp uses std::exchange

#include <boost/asio.hpp>

#include "duel_room.h"
#include "room.h"
#include "web/lasca_tables/engine_pool.h"
#include "web/server/server.h"
#include "web/store/store.h"

namespace web::server {

class LascaTab;

// LascaRoom
//   tables_    the tabs that hold a table now (at most config.maxTables)
//   pool_      the engine processes every table's searches go to
//   tick_      the pool's once-a-second timer (busy notices, analysis slices), from the first tab
//   owners_    the tab that holds each Lasca game, by game id
//   keptGames_ per address, the bucket of tokens for new kept games (an address whose bucket is
//              full again is forgotten once the map grows)
class LascaRoom : public Room, public std::enable_shared_from_this<LascaRoom> {
  public:
    LascaRoom(const ServerConfig& config, store::Store& store, std::shared_ptr<DuelRoom> duels,
              boost::asio::any_io_executor executor);
    std::shared_ptr<Tab> open(const std::shared_ptr<Peer>& peer) override;
    // The engine pool's counts and its size (for /health).
    lasca_tables::PoolStats engineStats() const { return pool_->stats(); }
    int engineSlots() const { return pool_->size(); }
    // Lets go of the tables another instance holds now (keys of store::homeKey: "lasca:" games
    // and "duel:" two-person tables): their tabs are told {"type":"moved"} and closed.
    void letGo(const std::vector<std::string>& keys);

  private:
    friend class LascaTab;
    // The tab now holds the game: another tab that held it is moved to a new game.
    void claim(const std::string& gameId, LascaTab& tab);
    // Takes a token for a new kept game from `address`'s bucket; false when it is empty.
    bool takeGameToken(const std::string& address);

    ServerConfig config_;
    store::Store& store_;
    std::shared_ptr<DuelRoom> duels_;
    boost::asio::any_io_executor executor_;
    void startTicks();
    int tables_ = 0;
    std::shared_ptr<lasca_tables::EnginePool> pool_;
    boost::asio::steady_timer tick_;
    bool ticking_ = false;
    std::map<std::string, std::weak_ptr<LascaTab>> owners_;
    std::map<std::string, RateLimiter> keptGames_;
};

}  // namespace web::server
