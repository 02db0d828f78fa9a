// The Torneio tables of the server (torneio_tables/torneio_table.h): made and joined from a tab
// of /ws/torneio, each person seat shown in one tab at a time (the newest window holds it), every
// accepted decision kept in the store from the table's own thread before any seat is told, the
// end of a game kept with its record, and tables nobody looks at dropped (they come back from
// the store when a seat's link joins).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>  // before Boost.Asio, whose awaitable.hpp uses std::exchange
#include <vector>

#include <boost/asio.hpp>

#include "room.h"
#include "web/server/server.h"
#include "web/store/store.h"
#include "web/torneio_tables/torneio_table.h"

namespace web::server {

class TorneioTab;

// TorneioRoom
//   tables_   the tables on the server by id: the table, per seat (0-based) the tab showing it,
//             and when a tab last joined or acted (a table nobody looked at for kIdle goes)
class TorneioRoom : public Room, public std::enable_shared_from_this<TorneioRoom> {
  public:
    TorneioRoom(const ServerConfig& config, store::Store& store,
                boost::asio::any_io_executor executor);
    std::shared_ptr<Tab> open(const std::shared_ptr<Peer>& peer) override;
    // Closes every table's seats and ends the games' threads (the server stops).
    void clear() { tables_.clear(); }

  private:
    friend class TorneioTab;
    static constexpr std::chrono::minutes kIdle{30};
    struct Entry {
        std::shared_ptr<torneio_tables::TorneioTable> table;
        std::vector<std::vector<std::weak_ptr<TorneioTab>>> listeners;
        std::chrono::steady_clock::time_point lastActive;
    };
    std::optional<std::string> create(const Json& m, std::vector<Json>& out);
    Entry* find(const std::string& id);
    common::Result<Entry*> findOrRestore(const std::string& id, const std::string& token);
    torneio_tables::TorneioTableHooks hooks(const std::shared_ptr<std::string>& id);
    // Later, on the server's thread: `each` for every tab showing a seat of table *id (only seat
    // `seat`'s tabs when it is given), if the room and the table are still there.
    static void forTabsLater(const std::weak_ptr<TorneioRoom>& room,
                             const boost::asio::any_io_executor& executor,
                             const std::shared_ptr<std::string>& id, std::optional<int> seat,
                             std::function<void(TorneioTab&)> each);
    void add(const std::shared_ptr<torneio_tables::TorneioTable>& table,
             const std::shared_ptr<std::string>& id);
    void sweep();

    ServerConfig config_;
    store::Store& store_;
    boost::asio::any_io_executor executor_;
    std::map<std::string, Entry> tables_;
};

}  // namespace web::server
