// The two-person Lasca tables (lasca_tables/duel.h) of the server: made and joined from a Lasca
// tab (`lasca.create`, `lasca.join`), kept in the store after every change before anyone is
// told, their clocks woken by a timer when a flag falls, and every tab of a table shown each
// change. A tab bound to a table shows it on its own LascaTable (people both sides).
//
// Which tables stay on the server: a table nobody shows is dropped when a table is made or
// restored (it stays in the store and comes back when a link joins it, the running clock
// charged from the kept start of the turn, and the game ended at once when that flag fell
// meanwhile). One whose clock runs is kept on while there is room, so that its flag falls on
// the timer; when the room is full (maxTables), or its maker's address at its limit
// (maxPerAddress tables made from one address on the server), it is dropped as well: a running
// clock never keeps an abandoned table on the server. A restored table counts against no
// address.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>  // before Boost.Asio, whose awaitable.hpp uses std::exchange
#include <vector>

#include <boost/asio.hpp>

#include "room.h"
#include "web/lasca_tables/duel.h"
#include "web/lasca_tables/lasca_table.h"
#include "web/store/store.h"

namespace web::server {

// DuelBinding: the table a tab shows (id "" for none), its seat there, and the game id of the
// tab's own copy of the table's game (its analysis once over): random, made when the tab joins,
// shown to no one (not even the tab: `state` carries no gameId), so that no other tab can take
// the copy with a `join`.
struct DuelBinding {
    std::string id;
    lasca_tables::DuelSeat seat = lasca_tables::DuelSeat::Watch;
    std::string copyId;
};

// DuelWatcher: a tab that shows a table, told after each change (with the error line of a save
// that failed, if one did), and when another window opened its player's seat (it no longer
// shows the table).
class DuelWatcher {
  public:
    virtual ~DuelWatcher() = default;
    virtual void duelChanged(const std::optional<messages::Say>& error) = 0;
    virtual void seatTakenElsewhere() = 0;
    // The table moved to another instance of the server (docs/design.md): the tab is told
    // {"type":"moved"} and closed, and its page connects again through the front.
    virtual void tableMoved() = 0;
};

// DuelRoom
//   duels_   the tables on the server by id: the duel, the tabs that show it with their seats
//            (White's and Black's seat held by one tab each: the newest window of a seat's link
//            holds it, as at a Torneio table; watchers without limit), the timer that wakes the
//            server when the running clock's flag falls, how many of its moves the store holds,
//            the address that made it ("" for a restored table), and whether the store holds
//            the game's end: a rated game's end is written once, with both players' new ratings
//            (Store::finishRatedDuel), when the game ends on the server
//   maxTables_, maxPerAddress_   tables on the server, in all and made from one address
class DuelRoom : public std::enable_shared_from_this<DuelRoom> {
  public:
    DuelRoom(boost::asio::any_io_executor executor, store::Store& store, int maxTables,
             int maxPerAddress);

    // {"type":"lasca.create","clock":null|{"time":ms,"increment":ms},"rated":bool} from a tab
    // of `address` (keepId: the table the tab shows, never dropped to make room). A rated table
    // is made only for a signed-in `person` and with a clock; else an error and no table.
    std::vector<Json> create(const Json& m, const std::string& keepId, const std::string& address,
                             const std::optional<Person>& person = std::nullopt);
    // {"type":"lasca.join","table":ID,"token":T}: the tab shows the table from that seat (and
    // no longer the one it showed before, if any). A player's seat of a rated table is taken by
    // the first signed-in account that opens it and by no other; a guest, or the account that
    // holds the other seat, is refused it.
    std::vector<Json> join(const Json& m, const std::weak_ptr<DuelWatcher>& watcher,
                           DuelBinding& binding, lasca_tables::LascaTable& view,
                           const std::optional<Person>& person = std::nullopt);
    // A bound tab's message of type `type`.
    std::vector<Json> handle(const Json& m, const std::string& type, const DuelBinding& binding,
                             lasca_tables::LascaTable& view);
    // The tab's copy of the table's game brought up to date, and its state.
    std::vector<Json> view(const DuelBinding& binding, lasca_tables::LascaTable& view, bool joined);
    // A public table for two people the lobby brings together: its clock (none: casual only),
    // rated or not, and each seat's account (nothing for a guest; both needed for a rated
    // table), bound at once so that play starts when both open their links. Its watch token is
    // public (kept in clear, StoredDuel::publicWatch). Counts against no address. `seatHashes`
    // gives White's and Black's seats the tokens with these hashes (made by the players'
    // instances; "" keeps the seat's own). The table's id and its three tokens (White's,
    // Black's, the watchers'; "" for a seat given its hash), or an error.
    struct MadeDuel {
        std::string id;
        std::array<std::string, 3> tokens;
    };
    common::Result<MadeDuel> createPublic(const std::optional<lasca_tables::DuelClock>& clock,
                                          bool rated, const std::optional<Person>& white,
                                          const std::optional<Person>& black,
                                          const std::array<std::string, 2>& seatHashes = {});
    // Told the id of every public table whose game ends on the server (the lobby's list of
    // games to watch).
    void onPublicEnd(std::function<void(const std::string&)> ended) {
        publicEnded_ = std::move(ended);
    }
    // Lets go of the table with this id: another instance holds it now (store::Store::setHome).
    // Its tabs are told and closed; nothing of it is written.
    void letGo(const std::string& id);
    // Drops every table (the server stops).
    void clear() { duels_.clear(); }
    // How many tables are on the server (for tests).
    std::size_t size() const { return duels_.size(); }

  private:
    struct Watcher {
        std::weak_ptr<DuelWatcher> tab;
        lasca_tables::DuelSeat seat = lasca_tables::DuelSeat::Watch;
    };
    struct Entry {
        std::unique_ptr<lasca_tables::LascaDuel> duel;
        std::vector<Watcher> watchers;
        std::unique_ptr<boost::asio::steady_timer> timer;
        std::size_t storedMoves = 0;
        std::string maker;
        bool endKept = false;     // the store holds the game's end (and a rated game's ratings)
        std::string publicWatch;  // a public table's watch token ("" for a private one)
    };
    Entry* find(const std::string& id);
    std::optional<messages::Say> save(Entry& entry);
    void changed(const std::string& id);
    void armTimer(const std::string& id);
    void sweep(const std::string& keepId, bool running, const std::string* maker = nullptr);
    int madeFrom(const std::string& address) const;
    std::vector<Json> decorate(const DuelBinding& binding, std::vector<Json> replies);

    boost::asio::any_io_executor executor_;
    store::Store& store_;
    int maxTables_;
    int maxPerAddress_;
    std::map<std::string, Entry> duels_;
    std::function<void(const std::string&)> publicEnded_;
};

}  // namespace web::server
