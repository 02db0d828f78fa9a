#include "lasca_room.h"

#include <chrono>
#include <utility>

#include "common/logging.h"
#include "common/text.h"
#include "web/lasca_tables/engine_link.h"
#include "web/lasca_tables/lasca_table.h"
#include "web/messages/messages.h"

namespace web::server {

using lasca_tables::EngineChannel;
using lasca_tables::EngineFactory;
using lasca_tables::EnginePool;
using lasca_tables::EngineWorker;
using lasca_tables::LascaTable;
using lasca_tables::PoolClient;
using lasca_tables::ProcessEngine;
using messages::checkFields;
using messages::errorMessage;
using messages::messageType;
using messages::parseMessage;
using messages::Say;
using messages::stringField;

namespace net = boost::asio;

// LascaTab: one tab's Lasca table, and the two-person table it shows, if any (its own table
// then shows that table's game).
class LascaTab : public Tab, public DuelWatcher, public std::enable_shared_from_this<LascaTab> {
  public:
    LascaTab(std::shared_ptr<LascaRoom> room, const std::shared_ptr<Peer>& peer)
        : room_(std::move(room)), peer_(peer), address_(peer->address()), person_(peer->person()) {
        ++room_->tables_;
    }
    ~LascaTab() override {
        table_.reset();  // stops the engine first
        --room_->tables_;
    }

    void start() {
        table_ = std::make_unique<LascaTable>(engineFactory());
        send(saved(table_->hello()));
    }

    void onMessage(std::string_view text) override {
        const auto message = parseMessage(text);
        if (!message) return send({errorMessage(message.error())});
        const auto type = messageType(message.value());
        const std::string name = type ? type.value() : "";
        if (name == "lasca.create")
            return send(room_->duels_->create(message.value(), duel_.id, address_, person_));
        if (name == "lasca.join")
            return send(
                room_->duels_->join(message.value(), weak_from_this(), duel_, *table_, person_));
        if (!duel_.id.empty())
            return send(room_->duels_->handle(message.value(), name, duel_, *table_));
        if (name == "resign" || name == "draw")
            return send({errorMessage(Say{"server.lasca.notAtTable"})});
        // {"type":"keep","keep":false}: this tab's games are practice (the lessons of /learn):
        // played, never kept, and taking none of the address's kept games.
        if (name == "keep") {
            if (auto e = checkFields(message.value(), {"keep"})) return send({errorMessage(*e)});
            const auto keep = messages::boolField(message.value(), "keep");
            if (!keep) return send({errorMessage(keep.error())});
            if (!keep.value() && table_->inStore())
                return send({errorMessage(Say{"server.lasca.alreadyKept"})});
            keep_ = keep.value();
            return send({{{"type", "keep"}, {"keep", keep_}}});
        }
        if (name == "join") return send(saved(onJoinGame(message.value())));
        send(saved(table_->handle(message.value())));
    }

    void duelChanged(const std::optional<Say>& error) override {
        auto view = room_->duels_->view(duel_, *table_, false);
        if (error) view.insert(view.begin(), errorMessage(*error));
        send(view);
    }

    // Another window opened this tab's seat of a two-person table: this tab no longer shows
    // the table (a fresh table of its own, not shown, takes whatever it sends next).
    void seatTakenElsewhere() override {
        duel_ = DuelBinding{};
        table_ = std::make_unique<LascaTable>(engineFactory());
        Json left = {{"type", "lasca.left"}};
        left.update(messages::said(Say{"server.lasca.seatOpenedElsewhere"}));
        send({left});
    }

    // This tab's game, or the two-person table it shows, lives on another instance now.
    void tableMoved() override {
        if (auto peer = peer_.lock()) peer->sendAndClose({messages::movedMessage("")});
    }

    // Another tab took this tab's game: this one starts a new game.
    void gameTakenElsewhere() {
        auto replies = table_->handle(Json{{"type", "new"}});
        replies.insert(replies.begin(), errorMessage(Say{"server.lasca.openedElsewhere"}));
        send(saved(std::move(replies)));
    }

    const std::string& gameId() const { return table_->gameId(); }
    bool hasTable() const { return table_ != nullptr; }

  private:
    void send(const std::vector<Json>& messages) {
        if (auto peer = peer_.lock()) peer->send(messages);
    }

    // The table's engine: a channel to the room's pool (no process of its own).
    EngineFactory engineFactory() {
        return [weak = weak_from_this(),
                pool = room_->pool_]() -> common::Result<std::unique_ptr<EngineChannel>> {
            PoolClient client;
            client.onLine = [weak](std::string line) {
                if (auto self = weak.lock()) self->onEngineLine(line);
            };
            client.onClosed = [weak] {
                if (auto self = weak.lock()) self->onEngineClosed();
            };
            client.onBusy = [weak](int ahead) {
                if (auto self = weak.lock()) self->onEngineBusy(ahead);
            };
            return pool->connect(std::move(client));
        };
    }

    void onEngineLine(const std::string& line) {
        if (table_) send(saved(table_->onEngineLine(line)));
    }
    void onEngineClosed() {
        if (table_) send(saved(table_->onEngineClosed()));
    }
    void onEngineBusy(int ahead) {
        if (table_) send(table_->onEngineBusy(ahead));
    }

    // Commits what the replies changed of the game before they go out: what a page is shown is
    // on disk. A failed save keeps the game going in memory (the change stays unsaved and goes
    // with the next save) and says so to the page and the log. A new game's first save takes a
    // token of the address (lasca_room.h); without one the game is played but not kept.
    std::vector<Json> saved(std::vector<Json> replies) {
        auto change = table_->unsavedChange();
        if (!keep_ && !table_->inStore()) {
            for (auto& r : replies)
                if (r.value("type", "") == "state") r["kept"] = false;
            return replies;
        }
        if (change && !table_->inStore() && change->game.id != notKept_ &&
            !room_->takeGameToken(address_)) {
            notKept_ = change->game.id;
            replies.insert(replies.begin(),
                           errorMessage(Say{"server.lasca.notKept",
                                            {{"count", room_->config_.maxGamesPerAddress}}}));
        }
        if (!notKept_.empty() && table_->gameId() == notKept_) {
            for (auto& r : replies)
                if (r.value("type", "") == "state" && r.value("gameId", "") == notKept_)
                    r["kept"] = false;
            return replies;
        }
        if (!change) return replies;
        const auto millis = nowMilliseconds();
        change->game.created = millis;  // kept from the first save of the game
        change->game.updated = millis;
        room_->claim(change->game.id, *this);
        if (auto ok = room_->store_.saveLascaGame(change->game, change->moves, change->tree); !ok) {
            common::logger().error("web: saving failed: {}", ok.error());
            replies.insert(replies.begin(), errorMessage(Say{"server.error.saveFailed"}));
            return replies;
        }
        table_->markSaved();
        return replies;
    }

    // {"type":"join","gameId":ID}: this tab takes the stored game (a reload, a restart).
    std::vector<Json> onJoinGame(const Json& m) {
        if (auto e = checkFields(m, {"gameId"})) return {errorMessage(*e)};
        const auto id = stringField(m, "gameId", 64);
        if (!id) return {errorMessage(id.error())};
        // "table-..." was the id of a two-person table's analysis copy, which every link of the
        // table could name: such a copy, if the file still holds one, is nobody's to take.
        if (id.value().starts_with("table-"))
            return {
                errorMessage(Say{"server.lasca.noGame", {{"id", common::printable(id.value())}}})};
        if (id.value() == table_->gameId())  // already this tab's game: its state again
            return table_->handle(Json{{"type", "view"}, {"ply", table_->viewPly()}});
        // Several instances: the game is taken from a home that stopped, or the tab is sent to
        // the living one; then read under the lease.
        const Json noGame =
            errorMessage(Say{"server.lasca.noGame", {{"id", common::printable(id.value())}}});
        const auto home = room_->store_.takeTable(store::homeKey("lasca", id.value()));
        if (!home) {
            common::logger().error("web: taking game {} failed: {}", id.value(), home.error());
            return {errorMessage(Say{"server.lasca.cannotLoad"})};
        }
        if (!home.value().found) return {noGame};
        if (!home.value().here) return {messages::movedMessage(home.value().home)};
        const auto loaded = room_->store_.loadLascaGame(id.value());
        if (!loaded) {
            common::logger().error("web: loading game {} failed: {}", id.value(), loaded.error());
            return {errorMessage(Say{"server.lasca.cannotLoad"})};
        }
        if (!loaded.value()) return {noGame};
        auto restored = table_->restore(*loaded.value());
        if (!restored) {
            common::logger().error("web: game {} is unreadable: {}", id.value(), restored.error());
            return {errorMessage(Say{"server.lasca.cannotLoad"})};
        }
        room_->claim(id.value(), *this);
        return std::move(restored).value();
    }

    std::shared_ptr<LascaRoom> room_;
    std::weak_ptr<Peer> peer_;
    std::string address_;
    std::optional<Person> person_;  // the signed-in account of the connection, if any
    std::unique_ptr<LascaTable> table_;
    DuelBinding duel_;
    std::string notKept_;  // the id of a game played without being kept (no token), "" for none
    bool keep_ = true;     // false: practice, nothing of this tab's games is kept
};

LascaRoom::LascaRoom(const ServerConfig& config, store::Store& store,
                     std::shared_ptr<DuelRoom> duels, net::any_io_executor executor)
    : config_(config),
      store_(store),
      duels_(std::move(duels)),
      executor_(std::move(executor)),
      tick_(executor_) {
    // Each worker is the engine program as a child process; its reader thread hands its lines
    // to the pool on the server's thread, with the worker's generation.
    auto pool = std::make_shared<std::weak_ptr<EnginePool>>();
    auto factory = [pool, path = config_.enginePath, executor = executor_](
                       int index,
                       std::uint64_t generation) -> common::Result<std::unique_ptr<EngineWorker>> {
        auto onLine = [pool, executor, index, generation](std::string line) {
            net::post(executor, [pool, index, generation, line = std::move(line)] {
                if (auto p = pool->lock()) p->workerLine(index, generation, line);
            });
        };
        auto onClosed = [pool, executor, index, generation] {
            net::post(executor, [pool, index, generation] {
                if (auto p = pool->lock()) p->workerClosed(index, generation);
            });
        };
        auto engine = ProcessEngine::start(path, onLine, onClosed);
        if (!engine) {
            common::logger().error("web: the engine '{}' does not start: {}", path, engine.error());
            return common::makeError(engine.error());
        }
        return std::unique_ptr<EngineWorker>(std::move(engine).value());
    };
    pool_ = std::make_shared<EnginePool>(
        config_.maxEngines, lasca_tables::kPoolHashMb, std::move(factory),
        [executor = executor_](std::function<void()> f) { net::post(executor, std::move(f)); });
    if (!config_.egtbPath.empty())
        pool_->setWorkerSetup({"setoption name EgtbPath value " + config_.egtbPath});
    *pool = pool_;
}

void LascaRoom::startTicks() {
    tick_.expires_after(std::chrono::seconds(1));
    tick_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
        if (ec) return;
        auto self = weak.lock();
        if (!self) return;
        self->pool_->tick();
        self->startTicks();
    });
}

std::shared_ptr<Tab> LascaRoom::open(const std::shared_ptr<Peer>& peer) {
    if (tables_ >= config_.maxTables) {
        peer->sendAndClose({errorMessage(Say{"server.lasca.tooManyTables"})});
        return nullptr;
    }
    if (!ticking_) {
        ticking_ = true;
        startTicks();
    }
    auto tab = std::make_shared<LascaTab>(shared_from_this(), peer);
    tab->start();
    return tab;
}

bool LascaRoom::takeGameToken(const std::string& address) {
    const double now =
        std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    const double burst = config_.maxGamesPerAddress;
    constexpr std::size_t kForgetAbove = 4096;  // addresses remembered before full ones go
    if (keptGames_.size() > kForgetAbove)
        std::erase_if(keptGames_, [&](const auto& entry) { return entry.second.full(now); });
    return keptGames_.try_emplace(address, burst / 3600.0, burst).first->second.allow(now);
}

void LascaRoom::letGo(const std::vector<std::string>& keys) {
    for (const auto& key : keys) {
        if (key.starts_with("duel:")) {
            duels_->letGo(key.substr(5));
        } else if (key.starts_with("lasca:")) {
            const auto it = owners_.find(key.substr(6));
            if (it == owners_.end()) continue;
            const auto tab = it->second.lock();
            owners_.erase(it);
            if (tab && tab->hasTable() && tab->gameId() == key.substr(6)) tab->tableMoved();
        }
    }
}

void LascaRoom::claim(const std::string& id, LascaTab& tab) {
    std::erase_if(owners_, [](const auto& entry) { return entry.second.expired(); });
    auto& owner = owners_[id];
    auto other = owner.lock();
    owner = tab.weak_from_this();
    if (!other || other.get() == &tab || !other->hasTable() || other->gameId() != id) return;
    other->gameTakenElsewhere();
}

}  // namespace web::server
