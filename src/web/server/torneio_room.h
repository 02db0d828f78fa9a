// The Torneio tables of the server (torneio_tables/torneio_table.h): made and joined from a tab
// of /ws/torneio, each person seat shown in one tab at a time (the newest window holds it), every
// accepted decision kept in the store from the table's own thread before any seat is told, the
// end of a game kept with its record, and tables nobody looks at dropped (they come back from
// the store when a seat's link joins).
//
// How many tables (ServerConfig): dropping a kept table nobody shows loses nothing (it waits in
// the store for a seat's link), so the limits drop such tables before they refuse anyone:
//   - a new table (`torneio.create`) needs a free place among config.maxTorneioTables: when the
//     room is full, the kept tables nobody shows are dropped, least recently active first, as
//     many as it takes; only a room full of shown tables refuses it ("too many Torneio
//     tables"). A table made and left by its maker therefore never blocks anyone; no grace is
//     given, since the table is back as soon as a link joins it.
//   - one address may have at most config.maxTorneioTablesPerAddress tables it made on the
//     server at once: its own tables nobody shows are dropped first, then a new one is refused
//     with an error naming the limit.
//   - restoring a kept table (a seat's link joins a table that is in the store but not in the
//     room) is never refused because new tables filled the room: new tables stop at
//     maxTorneioTables, restored ones may go on to twice that (the hard ceiling: each table has
//     its threads), after the tables nobody shows were dropped. A restored table counts against
//     no address.
//   - besides, finished tables nobody shows, and tables nobody looked at for kIdle, are dropped
//     whenever a table is made or restored.
// A table whose first save failed (not in the store) is never dropped to make room.
//
// Accounts and ratings: a table made from a page (`torneio.create`) binds no seat to an account
// and is not rated. A table made for the lobby (createForLobby) binds each signed-in person's
// seat to that person's account, so that only a tab of that account may open it; it is rated
// when the lobby asks and every person seat has an account (two at least). The end of a rated
// game is kept with the new Torneio ratings of its accounts in one transaction
// (Store::finishRatedTorneioTable): the seats' finishing places (finishing_places.h) among the
// seats with accounts, rated as the results between every pair (web::ratings::afterTorneioGame),
// each rating first grown by its time away as a two-person table's is (docs/ratings.md).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>  // before Boost.Asio, whose awaitable.hpp uses std::exchange
#include <variant>
#include <vector>

#include <boost/asio.hpp>

#include "room.h"
#include "web/messages/messages.h"
#include "web/server/server.h"
#include "web/store/store.h"
#include "web/torneio_tables/torneio_table.h"

namespace web::server {

class TorneioTab;

// TorneioRefusal: why a Torneio message is refused, as its error reply says it: a text said to the
// person (a server.torneio.* key), or, for a message only a program can get wrong (a field, a
// type, a kind), the English detail under server.error.refused.
struct TorneioRefusal {
    TorneioRefusal(messages::Say said) : say(std::move(said)) {}  // NOLINT: implicit by design
    TorneioRefusal(std::string detail)                            // NOLINT: implicit by design
        : say{"server.error.refused", {{"detail", std::move(detail)}}} {}
    TorneioRefusal(const char* detail)
        : TorneioRefusal(std::string(detail)) {}  // NOLINT: implicit by design
    // Not a refusal: the table lives on instance `home` (several behind one front), and the
    // tab is answered {"type":"moved","home":home} instead of an error.
    static TorneioRefusal movedTo(std::string home) {
        TorneioRefusal moved(messages::Say{"server.error.refused"});
        moved.home = std::move(home);
        return moved;
    }
    messages::Say say;
    std::optional<std::string> home;
};

// TorneioRoom
//   tables_   the tables on the server by id: the table, per seat (0-based) the tab showing it,
//             when a tab last joined or acted (a table nobody looked at for kIdle goes), the
//             address that made it ("" for a restored table) and whether the store holds it
class TorneioRoom : public Room, public std::enable_shared_from_this<TorneioRoom> {
  public:
    TorneioRoom(const ServerConfig& config, store::Store& store,
                boost::asio::any_io_executor executor);
    std::shared_ptr<Tab> open(const std::shared_ptr<Peer>& peer) override;
    // A table made for the lobby: seats as torneio.create takes them, the person seats' accounts
    // (nothing for a guest) in seat order of the person seats, rated only when every person seat
    // has an account; `tokenHashes` gives the person seats, in seat order, the tokens with these
    // hashes (made by the lobby's instances of their people; none: the table makes them).
    // Returns the table id and each seat's token ("" for AI seats and seats given a hash).
    struct LobbyTorneioTable {
        std::string id;
        std::vector<std::string> tokens;
    };
    common::Result<LobbyTorneioTable> createForLobby(
        const std::vector<torneio_tables::TorneioSeatChoice>& seats, int rounds,
        const std::vector<std::optional<Person>>& persons, bool rated, const std::string& address,
        const std::vector<std::string>& tokenHashes = {});
    // Closes every table's seats and ends the games' threads (the server stops).
    void clear() { tables_.clear(); }
    // Public tables (made for the lobby) may be watched by anyone (`torneio.watch` with the
    // table's id: /torneio?watch=<id>), a watcher being sent the table's public view alone
    // (TorneioTable::publicView). `gone` is told, on the server's thread, when a public table
    // leaves the running games: its game ended, or the room dropped it.
    void onPublicGone(std::function<void(const std::string& id)> gone) {
        publicGone_ = std::move(gone);
    }
    // Lets go of the tables another instance holds now (keys of store::homeKey, "torneio:"
    // ones): their seats' and watchers' tabs are told {"type":"moved"} and closed, and the
    // tables' games end here without writing.
    void letGo(const std::vector<std::string>& keys);

  private:
    friend class TorneioTab;
    static constexpr std::chrono::minutes kIdle{30};
    struct Entry {
        std::shared_ptr<torneio_tables::TorneioTable> table;
        std::vector<std::vector<std::weak_ptr<TorneioTab>>> listeners;
        std::chrono::steady_clock::time_point lastActive;
        std::string maker;
        bool kept = true;
        std::vector<std::weak_ptr<TorneioTab>> watchers;
    };
    std::optional<TorneioRefusal> create(const Json& m, const std::string& address,
                                         std::vector<Json>& out);
    // Room for a new table from `address` (the limits of torneio_room.h): the tables nobody
    // shows dropped as it takes, or why there is none.
    std::optional<messages::Say> roomFor(const std::string& address);
    // A new table made from `address`, kept and started (create's and createForLobby's common
    // part, after roomFor): the table made with its seats bound to `accounts` (by seat; empty:
    // none), its person seats given `tokenHashes` (createForLobby's). `saveError`: why the store
    // could not keep it ("" when kept); such a table is played all the same.
    common::Result<std::shared_ptr<torneio_tables::TorneioTable>> makeTable(
        const std::vector<torneio_tables::TorneioSeatChoice>& choices, int rounds,
        const std::vector<torneio_tables::SeatAccount>& accounts, bool rated,
        const std::string& address, std::string& saveError,
        const std::vector<std::string>& tokenHashes = {});
    Entry* find(const std::string& id);
    // The table with this id, in the room or restored from the store, or why not.
    std::variant<Entry*, TorneioRefusal> findOrRestore(const std::string& id,
                                                       const std::string& token);
    // `rated`: the table's end is kept with its accounts' new ratings.
    torneio_tables::TorneioTableHooks hooks(const std::shared_ptr<std::string>& id, bool rated);
    // Later, on the server's thread: `each` for every tab showing a seat of table *id (only seat
    // `seat`'s tabs when it is given), if the room and the table are still there.
    static void forTabsLater(const std::weak_ptr<TorneioRoom>& room,
                             const boost::asio::any_io_executor& executor,
                             const std::shared_ptr<std::string>& id, std::optional<int> seat,
                             std::function<void(TorneioTab&)> each);
    // Later, on the server's thread: every tab watching table *id is sent what is new.
    static void forWatchersLater(const std::weak_ptr<TorneioRoom>& room,
                                 const boost::asio::any_io_executor& executor,
                                 const std::shared_ptr<std::string>& id);
    // A public table's game ended: it is no longer public, and `publicGone_` is told.
    void publicEnded(const std::string& id);
    Entry& add(const std::shared_ptr<torneio_tables::TorneioTable>& table,
               const std::shared_ptr<std::string>& id);
    void sweep();
    static bool shown(const Entry& entry);
    // Drops up to `count` kept tables nobody shows, least recently active first; only those
    // made from `maker` when it is given.
    void dropUnshown(std::size_t count, const std::string* maker = nullptr);
    int madeFrom(const std::string& address) const;

    ServerConfig config_;
    store::Store& store_;
    boost::asio::any_io_executor executor_;
    std::map<std::string, Entry> tables_;
    // The ids of the public tables whose game has not ended (a public table dropped from the
    // room and brought back by a seat's link is public again), and who is told one went.
    std::set<std::string> publicIds_;
    std::function<void(const std::string& id)> publicGone_;
};

}  // namespace web::server
