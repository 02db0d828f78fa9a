// The Lasca tables against the engine (and the analysis board): one LascaTable per tab; their
// searches are served by the room's EnginePool (config.maxEngines processes, shared by every
// table, ticked once a second). The room's policy: how many tables run at once, which tab holds a
// game (one at a time: a game opened in a second tab leaves the first), and the save policy: after
// every reply that changed the game, the change the table records is committed to the store before
// the replies go out. A tab's `lasca.create` and `lasca.join`, and every message of a tab bound to
// a two-person table, go to the DuelRoom.
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
class LascaRoom : public Room, public std::enable_shared_from_this<LascaRoom> {
  public:
    LascaRoom(const ServerConfig& config, store::Store& store, std::shared_ptr<DuelRoom> duels,
              boost::asio::any_io_executor executor);
    std::shared_ptr<Tab> open(const std::shared_ptr<Peer>& peer) override;

  private:
    friend class LascaTab;
    // The tab now holds the game: another tab that held it is moved to a new game.
    void claim(const std::string& gameId, LascaTab& tab);

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
};

}  // namespace web::server
