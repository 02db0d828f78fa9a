#include "torneio_room.h"

#include <algorithm>

#include "common/logging.h"
#include "common/seed.h"
#include "common/text.h"
#include "torneio/play/player.h"
#include "web/messages/messages.h"
#include "web/ratings/ratings.h"
#include "web/torneio_tables/finishing_places.h"

namespace web::server {

using messages::checkFields;
using messages::errorMessage;
using messages::intField;
using messages::messageType;
using messages::parseMessage;
using messages::Say;
using messages::stringField;
using torneio_tables::SeatAccount;
using torneio_tables::TorneioSeatChoice;
using torneio_tables::TorneioTable;

namespace net = boost::asio;

namespace {

// The most rounds a table may have (D11).
constexpr int kMaxRounds = 200;

}  // namespace

// TorneioTab: one tab of /ws/torneio and the seat it shows, if any.
//   person_   the account the connection signed in as (nothing for a guest): a seat bound to an
//             account opens only for it
//   linesSent_, logSent_, requestSent_   what of the seat's view the tab was sent: the protocol
//             lines, the log lines, and the pending request's line ("" for none)
class TorneioTab : public Tab, public std::enable_shared_from_this<TorneioTab> {
  public:
    TorneioTab(std::shared_ptr<TorneioRoom> room, const std::shared_ptr<Peer>& peer)
        : room_(std::move(room)), peer_(peer), address_(peer->address()), person_(peer->person()) {}

    void send(const std::vector<Json>& messages) {
        if (auto peer = peer_.lock()) peer->send(messages);
    }

    void onMessage(std::string_view text) override {
        const auto message = parseMessage(text);
        if (!message) return send({errorMessage(message.error())});
        const auto type = messageType(message.value());
        if (!type) return send({errorMessage(type.error())});
        std::optional<TorneioRefusal> error;
        std::vector<Json> out;
        if (type.value() == "torneio.create")
            error = room_->create(message.value(), address_, out);
        else if (type.value() == "torneio.join")
            error = onJoin(message.value(), out);
        else if (type.value() == "torneio.act")
            error = onAct(message.value());
        else if (type.value() == "torneio.watch")
            error = onWatch(message.value(), out);
        else
            error = "unknown message type '" + common::printable(type.value()) + "'";
        if (error && error->home) return send({messages::movedMessage(*error->home)});
        if (error) return send({errorMessage(error->say)});
        send(out);
    }

    // The table this tab shows or watches lives on another instance now.
    void tableMoved() {
        if (auto peer = peer_.lock()) peer->sendAndClose({messages::movedMessage("")});
    }

    // The seat this tab shows changed: send what is new of its view.
    void seatChanged() {
        TorneioRoom::Entry* entry = room_->find(tableId_);
        if (!entry || entry->table->replaying()) return;  // the whole view once it is done
        Json view = entry->table->webSeat(seat_)->view(linesSent_, logSent_);
        if (!noteSent(view) && view["lines"].empty()) return;  // nothing new
        send({view});
    }

    // The table this tab watches has new public events: send what is new of its view (a table
    // still replaying its kept game sends it once the replay is done).
    void publicChanged() {
        TorneioRoom::Entry* entry = room_->find(watchId_);
        if (!entry || entry->table->replaying()) return;
        Json view = entry->table->publicView(eventsSent_, resetsSent_);
        if (view["type"] != "torneio.watchView") return send({view});
        const std::size_t count = view["eventCount"];
        const int resets = view["resets"];
        if (count == eventsSent_ && resets == resetsSent_) return;  // nothing new
        eventsSent_ = count;
        resetsSent_ = resets;
        send({view});
    }

    // Another window opened this tab's seat: this tab no longer holds it.
    void seatTakenElsewhere() {
        tableId_.clear();
        linesSent_ = logSent_ = 0;
        requestSent_.clear();
        Json left = messages::said(Say{"server.torneio.left"});
        left["type"] = "torneio.left";
        send({left});
    }

  private:
    // Notes what `view` sends; true when its pending request differs from the one last sent.
    bool noteSent(const Json& view) {
        linesSent_ = view["lineCount"].get<std::size_t>();
        if (view["started"].get<bool>()) logSent_ = view["logCount"].get<std::size_t>();
        const std::string request = view.contains("request") && !view["request"].is_null()
                                        ? view["request"]["line"].get<std::string>()
                                        : std::string();
        const bool changed = request != requestSent_;
        requestSent_ = request;
        return changed;
    }

    std::optional<TorneioRefusal> onJoin(const Json& m, std::vector<Json>& out) {
        if (auto e = checkFields(m, {"table", "token"})) return e;
        const auto id = stringField(m, "table", 64);
        if (!id) return id.error();
        const auto token = stringField(m, "token", 64);
        if (!token) return token.error();
        if (!tableId_.empty()) return Say{"server.torneio.join.already"};
        const auto found = room_->findOrRestore(id.value(), token.value());
        if (const auto* refused = std::get_if<TorneioRefusal>(&found)) return *refused;
        TorneioRoom::Entry& entry = *std::get<TorneioRoom::Entry*>(found);
        const auto seat = entry.table->seatOfToken(token.value());
        if (!seat) return Say{"server.torneio.join.noSeat"};
        // A seat bound to an account is that account's alone, its link notwithstanding.
        const bool rated = entry.table->rated();
        if (const auto& holder = entry.table->account(*seat); holder.id != 0) {
            if (!person_)
                return rated ? Say{"server.torneio.join.signInRated"}
                             : Say{"server.torneio.join.signIn"};
            if (person_->id != holder.id)
                return rated ? Say{"server.torneio.join.othersRated"}
                             : Say{"server.torneio.join.others"};
        }
        tableId_ = id.value();
        seat_ = *seat;
        // The newest window holds the seat: one that held it before is told and let go.
        auto& listeners = entry.listeners[static_cast<std::size_t>(seat_)];
        for (const auto& l : listeners)
            if (auto other = l.lock(); other && other.get() != this) other->seatTakenElsewhere();
        listeners.assign(1, weak_from_this());
        entry.lastActive = std::chrono::steady_clock::now();
        out.push_back({{"type", "torneio.joined"},
                       {"table", tableId_},
                       {"seat", seat_ + 1},
                       {"rated", rated},
                       {"seats", entry.table->seatsJson()}});
        // A table still replaying its kept game sends the view once the replay is done (one
        // view with every line, not an empty one and then each line as it is replayed).
        if (entry.table->replaying()) return std::nullopt;
        Json view = entry.table->webSeat(seat_)->view(0, 0);
        noteSent(view);
        out.push_back(view);
        return std::nullopt;
    }

    // {"type":"torneio.watch","table":ID}: a public table's public view, live; no seat, no
    // token (torneio_room.h). A private table, a made-up id, a table whose game ended and left
    // the room: refused alike.
    std::optional<TorneioRefusal> onWatch(const Json& m, std::vector<Json>& out) {
        if (auto e = checkFields(m, {"table"})) return e;
        const auto id = stringField(m, "table", 64);
        if (!id) return id.error();
        if (!tableId_.empty() || !watchId_.empty())
            return TorneioRefusal(Say{"server.torneio.watchTabTaken"});
        TorneioRoom::Entry* entry = room_->find(id.value());
        if (!entry) {  // on another instance, if several share the database
            const auto home = room_->store_.whereIs(store::homeKey("torneio", id.value()));
            if (home && home.value()) return TorneioRefusal::movedTo(*home.value());
        }
        if (!entry || !room_->publicIds_.contains(id.value()))
            return TorneioRefusal(Say{"server.torneio.noTableToWatch"});
        watchId_ = id.value();
        entry->watchers.push_back(weak_from_this());
        std::erase_if(entry->watchers, [](const auto& w) { return w.expired(); });
        out.push_back({{"type", "torneio.watching"},
                       {"table", watchId_},
                       {"rated", entry->table->rated()},
                       {"seats", entry->table->seatsJson()}});
        if (entry->table->replaying()) return std::nullopt;
        Json view = entry->table->publicView(0, 0);
        eventsSent_ = view.value("eventCount", std::size_t{0});
        resetsSent_ = view.value("resets", 0);
        out.push_back(view);
        return std::nullopt;
    }

    std::optional<TorneioRefusal> onAct(const Json& m) {
        if (auto e = checkFields(m, {"action"})) return e;
        const auto action = stringField(m, "action", 200);
        if (!action) return action.error();
        TorneioRoom::Entry* entry = tableId_.empty() ? nullptr : room_->find(tableId_);
        if (!entry) return Say{"server.torneio.join.first"};
        entry->lastActive = std::chrono::steady_clock::now();
        return entry->table->webSeat(seat_)->submit(action.value());
    }

    std::shared_ptr<TorneioRoom> room_;
    std::weak_ptr<Peer> peer_;
    std::string address_;
    std::optional<Person> person_;
    std::string tableId_;
    int seat_ = 0;
    std::size_t linesSent_ = 0;
    std::size_t logSent_ = 0;
    std::string requestSent_;
    // The public table this tab watches ("" for none) and what of its view it was sent.
    std::string watchId_;
    std::size_t eventsSent_ = 0;
    int resetsSent_ = 0;
};

namespace {

Json torneioHello() {
    Json kinds = Json::array({"person"});
    for (const auto& kind : torneio::play::playerKinds()) kinds.push_back(std::string(kind.name));
    Json levels = Json::array();
    for (const auto& level : torneio::play::kAiLevels)
        levels.push_back({{"name", level.name}, {"about", level.about}});
    return {{"type", "hello"}, {"game", "torneio"}, {"kinds", kinds}, {"aiLevels", levels}};
}

// The new ratings of a finished rated table's accounts (docs/ratings.md): the seats' finishing
// places read from the record, placed again among the seats with accounts alone (AI seats and
// guests are not rated: an account placed behind only AI seats is first among those rated), each
// rating before the game grown by its time away, then every pair of them rated at once
// (web::ratings::afterTorneioGame).
store::RateTorneioTable rateTorneioTable(const torneio::Record& record, std::int64_t at) {
    return [places = torneio_tables::finishingPlaces(record),
            at](const std::vector<store::TorneioRatedSeat>& seats)
               -> common::Result<std::vector<common::Rating>> {
        if (!places) return common::makeError("the game is not over");
        std::vector<int> held;
        for (const auto& seat : seats) {
            if (seat.seat < 0 || static_cast<std::size_t>(seat.seat) >= places->size())
                return common::makeError("seat " + std::to_string(seat.seat + 1) + " is no seat");
            held.push_back(seat.seat);
        }
        const auto among = torneio_tables::placesAmong(*places, held);
        std::vector<ratings::TorneioSeat> rated;
        for (std::size_t i = 0; i < seats.size(); ++i) {
            const auto& kept = seats[i].before;
            const auto before = kept ? ratings::ratingBefore(kept->rating, kept->lastGame, at)
                                     : ratings::ratingBefore(std::nullopt, 0, at);
            if (!before) return common::makeError(before.error());
            rated.push_back({before.value(), among[i]});
        }
        return ratings::afterTorneioGame(rated);
    };
}

}  // namespace

TorneioRoom::TorneioRoom(const ServerConfig& config, store::Store& store,
                         net::any_io_executor executor)
    : config_(config), store_(store), executor_(std::move(executor)) {
}

std::shared_ptr<Tab> TorneioRoom::open(const std::shared_ptr<Peer>& peer) {
    peer->send({torneioHello()});
    return std::make_shared<TorneioTab>(shared_from_this(), peer);
}

TorneioRoom::Entry* TorneioRoom::find(const std::string& id) {
    const auto it = tables_.find(id);
    return it == tables_.end() ? nullptr : &it->second;
}

bool TorneioRoom::shown(const Entry& entry) {
    for (const auto& seat : entry.listeners)
        for (const auto& l : seat)
            if (!l.expired()) return true;
    return false;
}

// Drops finished tables nobody shows, and tables nobody looked at for kIdle.
void TorneioRoom::sweep() {
    const auto now = std::chrono::steady_clock::now();
    for (auto it = tables_.begin(); it != tables_.end();) {
        const bool idle = now - it->second.lastActive > kIdle;
        if (!shown(it->second) && (it->second.table->finished() || idle))
            it = tables_.erase(it);
        else
            ++it;
    }
}

void TorneioRoom::dropUnshown(std::size_t count, const std::string* maker) {
    std::vector<std::map<std::string, Entry>::iterator> unshown;
    for (auto it = tables_.begin(); it != tables_.end(); ++it)
        if (it->second.kept && !shown(it->second) && (!maker || it->second.maker == *maker))
            unshown.push_back(it);
    std::sort(unshown.begin(), unshown.end(), [](const auto& a, const auto& b) {
        return a->second.lastActive < b->second.lastActive;
    });
    for (std::size_t i = 0; i < count && i < unshown.size(); ++i) tables_.erase(unshown[i]);
}

int TorneioRoom::madeFrom(const std::string& address) const {
    return static_cast<int>(std::count_if(tables_.begin(), tables_.end(), [&](const auto& t) {
        return !t.second.maker.empty() && t.second.maker == address;
    }));
}

// What a table tells the server, from its own thread: a seat's view changed (its tabs are told
// on the server's thread), a decision to keep (kept at once, before the seats are told; the
// store is locked per call), the end of the game. `id` is the table's id once it is made.
torneio_tables::TorneioTableHooks TorneioRoom::hooks(const std::shared_ptr<std::string>& id,
                                                     bool rated) {
    auto weak = weak_from_this();
    auto executor = executor_;
    store::Store* store = &store_;
    torneio_tables::TorneioTableHooks hooks;
    hooks.seatChanged = [weak, id, executor](int seat) {
        forTabsLater(weak, executor, id, seat, [](TorneioTab& tab) { tab.seatChanged(); });
    };
    hooks.decided = [weak, id, executor, store](std::size_t index,
                                                const store::StoredTorneioDecision& decision) {
        const auto saved = store->addTorneioDecision(*id, index, decision, nowMilliseconds());
        if (saved) return true;
        common::logger().error("web: saving failed: {}", saved.error());
        forTabsLater(weak, executor, id, std::nullopt, [error = saved.error()](TorneioTab& tab) {
            tab.send({errorMessage(Say{"server.torneio.savingFailed", {{"error", error}}})});
        });
        return false;
    };
    hooks.replayed = [weak, id, executor] {
        forTabsLater(weak, executor, id, std::nullopt, [](TorneioTab& tab) { tab.seatChanged(); });
    };
    // A watcher is told of new public events as a seat of its view (and once a restored
    // table's replay is done).
    hooks.publicChanged = [weak, id, executor] { forWatchersLater(weak, executor, id); };
    hooks.replayed = [replayed = std::move(hooks.replayed), weak, id, executor] {
        replayed();
        forWatchersLater(weak, executor, id);
    };
    // A public table leaves the running games when it ends, or when the room drops it.
    hooks.closed = [weak, id, executor] {
        net::post(executor, [weak, id] {
            if (auto self = weak.lock();
                self && self->publicIds_.contains(*id) && self->publicGone_)
                self->publicGone_(*id);
        });
    };
    // A rated end that cannot be kept (its ratings with it) is not kept at all: the table,
    // restored, plays its end again and tries once more.
    hooks.ended = [id, store, rated](const std::string& result, const torneio::Record& record) {
        const auto now = nowMilliseconds();
        const auto text = torneio::formatRecord(record);
        const auto saved = rated ? store->finishRatedTorneioTable(*id, result, text, now,
                                                                  rateTorneioTable(record, now))
                                 : store->finishTorneioTable(*id, result, text, now);
        if (!saved) common::logger().error("web: saving failed: {}", saved.error());
    };
    hooks.ended = [ended = std::move(hooks.ended), weak, id, executor](
                      const std::string& result, const torneio::Record& record) {
        ended(result, record);
        net::post(executor, [weak, id] {
            if (auto self = weak.lock()) self->publicEnded(*id);
        });
    };
    return hooks;
}

void TorneioRoom::forWatchersLater(const std::weak_ptr<TorneioRoom>& room,
                                   const net::any_io_executor& executor,
                                   const std::shared_ptr<std::string>& id) {
    net::post(executor, [room, id] {
        auto self = room.lock();
        Entry* entry = self ? self->find(*id) : nullptr;
        if (!entry) return;
        for (const auto& w : entry->watchers)
            if (auto tab = w.lock()) tab->publicChanged();
    });
}

void TorneioRoom::publicEnded(const std::string& id) {
    if (publicIds_.erase(id) && publicGone_) publicGone_(id);
}

void TorneioRoom::forTabsLater(const std::weak_ptr<TorneioRoom>& room,
                               const net::any_io_executor& executor,
                               const std::shared_ptr<std::string>& id, std::optional<int> seat,
                               std::function<void(TorneioTab&)> each) {
    net::post(executor, [room, id, seat, each = std::move(each)] {
        auto self = room.lock();
        if (!self) return;
        Entry* entry = self->find(*id);
        if (!entry) return;
        for (std::size_t s = 0; s < entry->listeners.size(); ++s) {
            if (seat && static_cast<std::size_t>(*seat) != s) continue;
            for (const auto& l : entry->listeners[s])
                if (auto tab = l.lock()) each(*tab);
        }
    });
}

void TorneioRoom::letGo(const std::vector<std::string>& keys) {
    for (const auto& key : keys) {
        if (!key.starts_with("torneio:")) continue;
        const auto it = tables_.find(key.substr(8));
        if (it == tables_.end()) continue;
        std::vector<std::shared_ptr<TorneioTab>> tabs;
        for (const auto& seat : it->second.listeners)
            for (const auto& l : seat)
                if (auto tab = l.lock()) tabs.push_back(tab);
        for (const auto& w : it->second.watchers)
            if (auto tab = w.lock()) tabs.push_back(tab);
        const std::string id = it->first;
        publicIds_.erase(id);  // still listed in the lobby: it plays on at its new home
        tables_.erase(it);     // its game's threads end
        for (const auto& tab : tabs) tab->tableMoved();
    }
}

// Puts a made table in the room and starts its game (the hooks learn its id first).
TorneioRoom::Entry& TorneioRoom::add(const std::shared_ptr<TorneioTable>& table,
                                     const std::shared_ptr<std::string>& id) {
    *id = table->id();
    Entry entry;
    entry.table = table;
    entry.listeners.resize(static_cast<std::size_t>(table->seats()));
    entry.lastActive = std::chrono::steady_clock::now();
    Entry& added = tables_.emplace(table->id(), std::move(entry)).first->second;
    table->start();
    return added;
}

// The table with this id: in the room, or made again from the store (its game replayed) when
// the token is one of its seats'. An error says why not.
std::variant<TorneioRoom::Entry*, TorneioRefusal> TorneioRoom::findOrRestore(
    const std::string& id, const std::string& token) {
    const auto key = store::homeKey("torneio", id);
    if (find(id) && !store_.holds(key)) letGo({key});  // another instance took it meanwhile
    if (Entry* entry = find(id)) return entry;
    // Several instances: taken from a home that stopped, or the tab is sent to the living home;
    // then read under the lease.
    const auto home = store_.takeTable(key);
    if (!home) return Say{"server.torneio.join.cannotLoad", {{"error", home.error()}}};
    if (!home.value().found) return Say{"server.torneio.join.noTable"};
    if (!home.value().here) return TorneioRefusal::movedTo(home.value().home);
    const auto kept = store_.loadTorneioTable(id);
    if (!kept) return Say{"server.torneio.join.cannotLoad", {{"error", kept.error()}}};
    if (!kept.value()) return Say{"server.torneio.join.noTable"};
    auto tableId = std::make_shared<std::string>();
    auto table = TorneioTable::restore(*kept.value(), hooks(tableId, kept.value()->rated));
    if (!table) return Say{"server.torneio.join.cannotLoad", {{"error", table.error()}}};
    if (!table.value()->seatOfToken(token)) return Say{"server.torneio.join.noSeat"};
    // Restored past a room that new tables filled (torneio_room.h): the tables nobody shows go
    // first, and the ceiling is twice the new tables' limit.
    sweep();
    const auto limit = static_cast<std::size_t>(config_.maxTorneioTables);
    if (tables_.size() >= limit) dropUnshown(tables_.size() - limit + 1);
    if (tables_.size() >= 2 * limit) return Say{"server.torneio.full"};
    // A table the lobby lists (made there, then restored by another instance or after a
    // restart with several instances) stays public.
    if (const auto listed = store_.lobbyGame(id); listed && listed.value()) publicIds_.insert(id);
    return &add(table.value(), tableId);
}

// {"type":"torneio.create","seats":[{"kind":K,"level":L},...],"rounds":N}
std::optional<TorneioRefusal> TorneioRoom::create(const Json& m, const std::string& address,
                                                  std::vector<Json>& out) {
    if (auto e = checkFields(m, {"seats", "rounds"})) return e;
    const auto rounds = intField(m, "rounds", 1, kMaxRounds);
    if (!rounds) return Say{"server.torneio.rounds", {{"low", 1}, {"high", kMaxRounds}}};
    if (!m.contains("seats") || !m["seats"].is_array() || m["seats"].size() < 2 ||
        m["seats"].size() > 4)
        return "seats must be an array of 2 to 4 seats";
    std::vector<TorneioSeatChoice> choices;
    int persons = 0;
    for (const Json& seat : m["seats"]) {
        if (!seat.is_object()) return "each seat must be an object";
        if (auto e = checkFields(seat, {"kind", "level"})) return e;
        const auto kind = stringField(seat, "kind", 16);
        if (!kind) return kind.error();
        TorneioSeatChoice choice;
        choice.kind = kind.value();
        if (seat.contains("level")) {
            const auto level =
                intField(seat, "level", 0,
                         static_cast<std::int64_t>(std::size(torneio::play::kAiLevels)) - 1);
            if (!level) return level.error();
            choice.level = static_cast<int>(level.value());
        }
        persons += choice.kind == "person" ? 1 : 0;
        choices.push_back(choice);
    }
    if (persons == 0) return Say{"server.torneio.noPerson"};
    if (auto full = roomFor(address)) return *full;
    std::string saveError;
    const auto table =
        makeTable(choices, static_cast<int>(rounds.value()), {}, false, address, saveError);
    if (!table) return table.error();
    if (!saveError.empty())
        out.push_back(
            errorMessage(Say{"server.torneio.savingFailedTable", {{"error", saveError}}}));
    Json seats = table.value()->seatsJson();
    const auto tokens = table.value()->takeTokens();
    for (std::size_t s = 0; s < seats.size(); ++s)
        if (choices[s].kind == "person") seats[s]["token"] = tokens[s];
    out.push_back({{"type", "torneio.created"},
                   {"table", table.value()->id()},
                   {"rated", false},
                   {"seats", seats}});
    return std::nullopt;
}

std::optional<Say> TorneioRoom::roomFor(const std::string& address) {
    sweep();
    const int perAddress = config_.maxTorneioTablesPerAddress;
    if (const int mine = madeFrom(address); mine >= perAddress)
        dropUnshown(static_cast<std::size_t>(mine - perAddress + 1), &address);
    if (madeFrom(address) >= perAddress)
        return Say{"server.torneio.addressFull", {{"count", perAddress}}};
    const auto limit = static_cast<std::size_t>(config_.maxTorneioTables);
    if (tables_.size() >= limit) dropUnshown(tables_.size() - limit + 1);
    if (tables_.size() >= limit) return Say{"server.torneio.full"};
    return std::nullopt;
}

common::Result<std::shared_ptr<TorneioTable>> TorneioRoom::makeTable(
    const std::vector<TorneioSeatChoice>& choices, int rounds,
    const std::vector<SeatAccount>& accounts, bool rated, const std::string& address,
    std::string& saveError, const std::vector<std::string>& tokenHashes) {
    auto tableId = std::make_shared<std::string>();
    auto table = TorneioTable::create(choices, rounds, common::systemSeed(), hooks(tableId, rated));
    if (!table) return table;
    if (!accounts.empty() || rated) {
        const auto bound = table.value()->bindAccounts(accounts, rated);
        if (!bound) return common::makeError(bound.error());
    }
    table.value()->giveTokenHashes(tokenHashes);
    auto kept = table.value()->stored();
    kept.created = kept.updated = nowMilliseconds();
    const auto saved = store_.createTorneioTable(kept);
    saveError.clear();
    if (!saved) {
        common::logger().error("web: saving failed: {}", saved.error());
        saveError = saved.error();
    }
    Entry& entry = add(table.value(), tableId);
    entry.maker = address;
    entry.kept = saved.ok();
    return table;
}

common::Result<TorneioRoom::LobbyTorneioTable> TorneioRoom::createForLobby(
    const std::vector<TorneioSeatChoice>& seats, int rounds,
    const std::vector<std::optional<Person>>& persons, bool rated, const std::string& address,
    const std::vector<std::string>& tokenHashes) {
    if (rounds < 1 || rounds > kMaxRounds)
        return common::makeError("rounds: 1 to " + std::to_string(kMaxRounds));
    std::vector<SeatAccount> accounts(seats.size());
    std::size_t person = 0;
    for (std::size_t s = 0; s < seats.size(); ++s) {
        if (seats[s].kind != "person") continue;
        if (person < persons.size() && persons[person])
            accounts[s] = {persons[person]->id, persons[person]->name};
        ++person;
    }
    if (person == 0) return common::makeError("at least one seat must be a person");
    if (person != persons.size())
        return common::makeError(
            "one account (or none) per person seat: " + std::to_string(person) + " person seats, " +
            std::to_string(persons.size()) + " given");
    if (const auto full = roomFor(address)) return common::makeError(messages::english(*full));
    std::string saveError;
    auto table = makeTable(seats, rounds, accounts, rated, address, saveError, tokenHashes);
    if (!table) return common::makeError(table.error());
    publicIds_.insert(table.value()->id());  // a lobby's table is public
    return LobbyTorneioTable{table.value()->id(), table.value()->takeTokens()};
}

}  // namespace web::server
