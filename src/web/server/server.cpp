#include "web/server/server.h"

#include <atomic>
#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <utility>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "common/logging.h"
#include "common/seed.h"
#include "common/text.h"
#include "torneio/play/player.h"
#include "web/lasca/duel.h"
#include "web/pages/games_page.h"
#include "web/lasca/lasca_table.h"
#include "web/messages/messages.h"
#include "web/store/store.h"
#include "web/torneio/torneio_table.h"

namespace web {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

bool RateLimiter::allow(double nowSeconds) {
    if (last_ >= 0) tokens_ = std::min(burst_, tokens_ + (nowSeconds - last_) * perSecond_);
    last_ = nowSeconds;
    if (tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
}

namespace {

// The longest WebSocket frame read; longer messages than kMaxMessageBytes still get an error
// reply, longer frames than this close the connection.
constexpr std::size_t kMaxFrameBytes = 1 << 20;
constexpr std::size_t kMaxQueuedMessages = 2000;  // a tab that reads nothing is disconnected
constexpr std::chrono::seconds kHttpTimeout{30};

double secondsNow() {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

std::string dumpJson(const Json& j) {
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

class WsSession;

// Milliseconds since the Unix epoch: the times the store keeps.
std::int64_t nowMilliseconds() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// TorneioEntry: one Torneio table of the server and the tabs that hold its seats.
//   listeners   per seat (0-based), the sessions showing that seat
//   lastActive  when a tab last joined or acted: a table nobody looked at for kTorneioIdle goes
struct TorneioEntry {
    std::shared_ptr<TorneioTable> table;
    std::vector<std::vector<std::weak_ptr<WsSession>>> listeners;
    std::chrono::steady_clock::time_point lastActive;
};
constexpr std::chrono::minutes kTorneioIdle{30};

// DuelEntry: a Lasca table for two people and the tabs that show it; timer_ wakes the server
// when the running clock's flag falls.
struct DuelEntry {
    std::unique_ptr<LascaDuel> duel;
    std::vector<std::weak_ptr<WsSession>> listeners;
    std::unique_ptr<net::steady_timer> timer;
};

// The duels' clock: milliseconds of the steady clock (only differences matter).
std::int64_t duelNow() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// ServerState: what every connection shares; only touched on the server's one thread, but for
// the counters, which engine destructors may also change.
struct ServerState {
    ServerConfig config;
    std::atomic<int> tables{0};
    std::atomic<int> engines{0};
    net::any_io_executor executor;
    std::map<std::string, TorneioEntry> torneio;
    Store* store = nullptr;
    // The tab that holds each Lasca game (by game id): a game is played in one tab at a time.
    std::map<std::string, std::weak_ptr<WsSession>> lascaOwners;
    // Lasca tables for two people, by id.
    std::map<std::string, DuelEntry> duels;
};

// CountedEngine: a ProcessEngine that holds one of the server's engine places while it lives.
class CountedEngine : public EngineChannel {
  public:
    CountedEngine(std::unique_ptr<ProcessEngine> engine, std::shared_ptr<ServerState> state)
        : engine_(std::move(engine)), state_(std::move(state)) {}
    ~CountedEngine() override {
        engine_.reset();
        --state_->engines;
    }
    bool send(std::string_view line) override { return engine_->send(line); }

  private:
    std::unique_ptr<ProcessEngine> engine_;
    std::shared_ptr<ServerState> state_;
};

// ---- WebSocket ---------------------------------------------------------------------------------

// WsSession: one browser tab's WebSocket and its Lasca table.
//   queue_   messages waiting to be written, oldest first; one async_write at a time
//   table_   made once the handshake is accepted and a table place is free
class WsSession : public std::enable_shared_from_this<WsSession> {
  public:
    WsSession(tcp::socket socket, std::shared_ptr<ServerState> state, bool torneio)
        : ws_(std::move(socket)),
          state_(std::move(state)),
          limiter_(state_->config.messagesPerSecond, state_->config.burst),
          torneio_(torneio) {}

    // The seat this tab shows changed: send what is new of its view.
    void torneioChanged() {
        const auto it = state_->torneio.find(tableId_);
        if (it == state_->torneio.end()) return;
        WebSeat* seat = it->second.table->webSeat(seat_);
        Json view = seat->view(linesSent_, logSent_);
        linesSent_ = view["lineCount"].get<std::size_t>();
        if (view["started"].get<bool>()) logSent_ = view["logCount"].get<std::size_t>();
        const std::string request = view.contains("request") && !view["request"].is_null()
                                        ? view["request"]["line"].get<std::string>()
                                        : std::string();
        if (view["lines"].empty() && request == requestSent_) return;  // nothing new
        requestSent_ = request;
        send({view});
    }
    ~WsSession() {
        table_.reset();  // stops the engine first
        if (holdsTable_) --state_->tables;
    }

    void run(http::request<http::string_body> request) {
        ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
        ws_.read_message_max(kMaxFrameBytes);
        ws_.async_accept(request,
                         beast::bind_front_handler(&WsSession::onAccept, shared_from_this()));
    }

  private:
    void onAccept(beast::error_code ec) {
        if (ec) return;
        if (torneio_) {
            send({torneioHello()});
            doRead();
            return;
        }
        if (state_->tables.fetch_add(1) >= state_->config.maxTables) {
            --state_->tables;
            send({errorMessage("too many tables: try again later")});
            closing_ = true;
            return;
        }
        holdsTable_ = true;
        table_ = std::make_unique<LascaTable>(engineFactory());
        send(saved(table_->hello()));
        doRead();
    }

    EngineFactory engineFactory() {
        return [weak = weak_from_this(), state = state_,
                executor = ws_.get_executor()]() -> common::Result<std::unique_ptr<EngineChannel>> {
            if (state->engines.fetch_add(1) >= state->config.maxEngines) {
                --state->engines;
                return common::makeError("too many engines running: try again later");
            }
            auto onLine = [weak, executor](std::string line) {
                net::post(executor, [weak, line = std::move(line)] {
                    if (auto self = weak.lock()) self->onEngineLine(line);
                });
            };
            auto onClosed = [weak, executor] {
                net::post(executor, [weak] {
                    if (auto self = weak.lock()) self->onEngineClosed();
                });
            };
            auto engine = ProcessEngine::start(state->config.enginePath, onLine, onClosed);
            if (!engine) {
                --state->engines;
                return common::makeError(engine.error());
            }
            return std::unique_ptr<EngineChannel>(
                std::make_unique<CountedEngine>(std::move(engine).value(), state));
        };
    }

    void onEngineLine(const std::string& line) {
        if (table_) send(saved(table_->onEngineLine(line)));
    }
    void onEngineClosed() {
        if (table_) send(saved(table_->onEngineClosed()));
    }

    // Commits the game if the replies changed it, before they go out: what a page is shown is
    // on disk. A failed save keeps the game going in memory and says so to the page and the log.
    std::vector<Json> saved(std::vector<Json> replies) {
        StoredLascaGame now = table_->stored();
        now.created = lastSaved_.created;  // the times are stamped here, not compared
        now.updated = lastSaved_.updated;
        if (now == lastSaved_) return replies;
        const auto millis = nowMilliseconds();
        if (now.id != lastSaved_.id || !lastSaved_.created) now.created = millis;
        now.updated = millis;
        claimGame(now.id);
        if (auto ok = state_->store->saveLascaGame(now); !ok) {
            common::logger().error("web: saving failed: {}", ok.error());
            replies.insert(
                replies.begin(),
                errorMessage("saving failed (the game goes on, but is not kept): " + ok.error()));
            return replies;
        }
        lastSaved_ = std::move(now);
        return replies;
    }

    // This tab now holds the game: another tab that held it is moved to a new game.
    void claimGame(const std::string& id) {
        std::erase_if(state_->lascaOwners,
                      [](const auto& entry) { return entry.second.expired(); });
        auto& owner = state_->lascaOwners[id];
        auto other = owner.lock();
        owner = weak_from_this();
        if (!other || other.get() == this || !other->table_ || other->table_->gameId() != id)
            return;
        other->lastSaved_ = {};
        auto replies = other->table_->handle(Json{{"type", "new"}});
        replies.insert(replies.begin(), errorMessage("this game was opened in another tab"));
        other->send(other->saved(std::move(replies)));
    }

    // {"type":"join","gameId":ID}: this tab takes the stored game (a reload, a restart).
    std::vector<Json> onJoinGame(const Json& m) {
        if (auto e = checkFields(m, {"gameId"})) return {errorMessage(*e)};
        const auto id = stringField(m, "gameId", 64);
        if (!id) return {errorMessage(id.error())};
        if (id.value() == table_->gameId())  // already this tab's game: its state again
            return table_->handle(Json{{"type", "view"}, {"ply", table_->viewPly()}});
        const auto loaded = state_->store->loadLascaGame(id.value());
        if (!loaded) return {errorMessage("cannot load the game: " + loaded.error())};
        if (!loaded.value())
            return {errorMessage("no game with id '" + common::printable(id.value()) + "'")};
        auto restored = table_->restore(*loaded.value());
        if (!restored) return {errorMessage(restored.error())};
        lastSaved_ = *loaded.value();
        claimGame(id.value());
        return std::move(restored).value();
    }

    std::vector<Json> handleLasca(std::string_view text) {
        const auto message = parseMessage(text);
        if (!message) return {errorMessage(message.error())};
        const auto type = messageType(message.value());
        if (type && type.value() == "lasca.create") return onDuelCreate(message.value());
        if (type && type.value() == "lasca.join") return onDuelJoin(message.value());
        if (!duelId_.empty()) return handleDuel(message.value(), type ? type.value() : "");
        if (type && (type.value() == "resign" || type.value() == "draw"))
            return {errorMessage("join a two-person table first")};
        if (type && type.value() == "join") return saved(onJoinGame(message.value()));
        return saved(table_->handle(message.value()));
    }

    // ---- Lasca tables for two people (duels) ----

    // {"type":"lasca.create","clock":null|{"time":ms,"increment":ms}}
    std::vector<Json> onDuelCreate(const Json& m) {
        if (auto e = checkFields(m, {"clock"})) return {errorMessage(*e)};
        std::optional<DuelClock> clock;
        if (m.contains("clock") && !m["clock"].is_null()) {
            const Json& c = m["clock"];
            if (!c.is_object()) return {errorMessage("clock must be null or an object")};
            if (auto e = checkFields(c, {"time", "increment"})) return {errorMessage(*e)};
            const auto time = intField(c, "time", kMinDuelTime, kMaxDuelTime);
            if (!time) return {errorMessage(time.error())};
            const auto increment = intField(c, "increment", 0, kMaxDuelIncrement);
            if (!increment) return {errorMessage(increment.error())};
            clock = DuelClock{time.value(), increment.value()};
        }
        sweepDuels();
        if (state_->duels.size() >= static_cast<std::size_t>(state_->config.maxTables))
            return {errorMessage("too many two-person tables: try again later")};
        auto duel = LascaDuel::create(common::randomHex(8), clock, duelNow());
        if (!duel) return {errorMessage(duel.error())};
        const auto tokens = duel.value().takeTokens();
        const std::string id = duel.value().id();
        auto& entry = state_->duels[id];
        entry.duel = std::make_unique<LascaDuel>(std::move(duel).value());
        entry.timer = std::make_unique<net::steady_timer>(state_->executor);
        std::vector<Json> out;
        if (const auto error = saveDuel(entry)) out.push_back(errorMessage(*error));
        out.push_back({{"type", "lasca.created"},
                       {"table", id},
                       {"seats", Json::array({{{"colour", "white"}, {"token", tokens[0]}},
                                              {{"colour", "black"}, {"token", tokens[1]}}})},
                       {"watch", tokens[2]}});
        return out;
    }

    // {"type":"lasca.join","table":ID,"token":T}: this tab shows the table from that seat.
    std::vector<Json> onDuelJoin(const Json& m) {
        if (auto e = checkFields(m, {"table", "token"})) return {errorMessage(*e)};
        const auto id = stringField(m, "table", 64);
        if (!id) return {errorMessage(id.error())};
        const auto token = stringField(m, "token", 64);
        if (!token) return {errorMessage(token.error())};
        auto it = state_->duels.find(id.value());
        if (it == state_->duels.end()) {
            sweepDuels();
            if (state_->duels.size() >= static_cast<std::size_t>(state_->config.maxTables))
                return {errorMessage("too many two-person tables: try again later")};
            const auto kept = state_->store->loadDuel(id.value());
            if (!kept) return {errorMessage("cannot load the table: " + kept.error())};
            if (!kept.value()) return {errorMessage("no such table")};
            auto duel = LascaDuel::restore(*kept.value(), duelNow());
            if (!duel) return {errorMessage(duel.error())};
            if (!duel.value().seatOfToken(token.value()))
                return {errorMessage("this link holds no seat of the table")};
            DuelEntry entry;
            entry.duel = std::make_unique<LascaDuel>(std::move(duel).value());
            entry.timer = std::make_unique<net::steady_timer>(state_->executor);
            it = state_->duels.emplace(id.value(), std::move(entry)).first;
            armDuelTimer(id.value());
        }
        const auto seat = it->second.duel->seatOfToken(token.value());
        if (!seat) return {errorMessage("this link holds no seat of the table")};
        duelId_ = id.value();
        duelSeat_ = *seat;
        std::erase_if(it->second.listeners, [](const auto& l) { return l.expired(); });
        it->second.listeners.push_back(weak_from_this());
        return duelView(true);
    }

    DuelEntry* duelEntry() {
        const auto it = state_->duels.find(duelId_);
        return it == state_->duels.end() ? nullptr : &it->second;
    }

    // A bound tab's messages: moves, resign and draw go to the duel; looking (view, preview,
    // export) to the tab's own copy of the game; everything that would change the game
    // otherwise is refused. Analysis only once the game is over.
    std::vector<Json> handleDuel(const Json& m, const std::string& type) {
        DuelEntry* entry = duelEntry();
        if (!entry) return {errorMessage("the table is gone")};
        LascaDuel& duel = *entry->duel;
        common::Result<bool> done = common::makeError("");
        if (type == "move") {
            if (auto e = checkFields(m, {"ply", "move"})) return {errorMessage(*e)};
            const auto ply = intField(m, "ply", 0, kMaxGamePlies);
            if (!ply) return {errorMessage(ply.error())};
            const auto text = stringField(m, "move", 64);
            if (!text) return {errorMessage(text.error())};
            if (static_cast<std::size_t>(ply.value()) != duel.moveTexts().size())
                return {errorMessage("moves are played at the end of the game")};
            done = duel.move(duelSeat_, text.value(), duelNow());
        } else if (type == "resign") {
            if (auto e = checkFields(m, {})) return {errorMessage(*e)};
            done = duel.resign(duelSeat_, duelNow());
        } else if (type == "draw") {
            if (auto e = checkFields(m, {"offer"})) return {errorMessage(*e)};
            const auto offer = boolField(m, "offer");
            if (!offer) return {errorMessage(offer.error())};
            done = duel.draw(duelSeat_, offer.value(), duelNow());
        } else if (type == "view" || type == "preview" || type == "pdn.export" ||
                   (type == "analyse" && duel.over())) {
            return decorateDuel(table_->handle(m));
        } else {
            return {errorMessage(type == "analyse"
                                     ? "no analysis while the game is played"
                                     : "this tab plays a two-person table: open the page "
                                       "without a table link for other games")};
        }
        if (!done) return {errorMessage(done.error())};
        duelChanged(duelId_);
        return {};
    }

    // Keeps the duel (before anyone is told). An error line when saving failed.
    static std::optional<std::string> saveDuel(ServerState& st, DuelEntry& entry) {
        auto kept = entry.duel->stored(duelNow());
        kept.created = kept.created ? kept.created : nowMilliseconds();
        kept.updated = nowMilliseconds();
        if (const auto saved = st.store->saveDuel(kept); !saved) {
            common::logger().error("web: saving failed: {}", saved.error());
            return "saving failed (the game goes on, but is not kept): " + saved.error();
        }
        return std::nullopt;
    }
    std::optional<std::string> saveDuel(DuelEntry& entry) { return saveDuel(*state_, entry); }

    // After a change: kept, its clock re-armed, every tab of it shown the new state.
    static void duelChanged(const std::shared_ptr<ServerState>& st, const std::string& id) {
        const auto it = st->duels.find(id);
        if (it == st->duels.end()) return;
        const auto error = saveDuel(*st, it->second);
        armDuelTimer(st, id);
        for (const auto& l : it->second.listeners)
            if (auto session = l.lock()) {
                auto view = session->duelView(false);
                if (error) view.insert(view.begin(), errorMessage(*error));
                session->send(view);
            }
    }
    void duelChanged(const std::string& id) { duelChanged(state_, id); }

    // Wakes the server when the running clock's flag falls (the handler holds no owner of the
    // server's state, so that a stopped server frees it).
    static void armDuelTimer(const std::shared_ptr<ServerState>& st, const std::string& id) {
        const auto it = st->duels.find(id);
        if (it == st->duels.end()) return;
        const auto until = it->second.duel->untilFlag(duelNow());
        it->second.timer->cancel();
        if (!until) return;
        it->second.timer->expires_after(std::chrono::milliseconds(*until + 1));
        it->second.timer->async_wait(
            [weak = std::weak_ptr<ServerState>(st), id](beast::error_code ec) {
                auto state = weak.lock();
                if (ec || !state) return;
                const auto found = state->duels.find(id);
                if (found == state->duels.end()) return;
                if (found->second.duel->checkTime(duelNow()))
                    duelChanged(state, id);
                else
                    armDuelTimer(state, id);  // woke early: wait again
            });
    }
    void armDuelTimer(const std::string& id) { armDuelTimer(state_, id); }

    // Drops the duels nobody shows whose clock does not run (they stay in the store and come
    // back when a link joins them).
    void sweepDuels() {
        for (auto it = state_->duels.begin(); it != state_->duels.end();) {
            const bool watched =
                std::any_of(it->second.listeners.begin(), it->second.listeners.end(),
                            [](const auto& l) { return !l.expired(); });
            if (!watched && !it->second.duel->running() && it->first != duelId_)
                it = state_->duels.erase(it);
            else
                ++it;
        }
    }

    // This tab's copy of the duel's game brought up to date (people both sides, the view at the
    // end unless the tab looks at an earlier position), and its state.
    std::vector<Json> duelView(bool joined) {
        DuelEntry* entry = duelEntry();
        if (!entry) return {errorMessage("the table is gone")};
        const LascaDuel& duel = *entry->duel;
        StoredLascaGame game;
        game.id = "table-" + duelId_;
        game.startLfen = duel.game().start().toLfen();
        game.moves = duel.moveTexts();
        game.engine = "none";
        const bool atEnd = table_->viewPly() == static_cast<int>(table_->stored().moves.size());
        const int ply = table_->viewPly();
        auto restored = table_->restore(game);
        if (!restored) return {errorMessage(restored.error())};
        if (!joined && !atEnd)
            return decorateDuel(table_->handle({{"type", "view"}, {"ply", ply}}));
        return decorateDuel(std::move(restored).value());
    }

    // Adds the duel's facts to every state: the table, this tab's seat, the clock, the draw
    // offer, and its end (time, resignation, agreement) over the rules' status; a seat that
    // cannot move at the shown position gets no legal moves.
    std::vector<Json> decorateDuel(std::vector<Json> replies) {
        DuelEntry* entry = duelEntry();
        if (!entry) return replies;
        const LascaDuel& duel = *entry->duel;
        const auto now = duelNow();
        for (auto& r : replies) {
            if (r.value("type", "") != "state") continue;
            r["table"] = duelId_;
            r["seat"] = duelSeatName(duelSeat_);
            r["clock"] = duel.clockJson(now);
            r["drawOffer"] = duel.drawOffer()
                                 ? Json(duel.drawOffer() == lasca::Color::White ? "white" : "black")
                                 : Json(nullptr);
            r.erase("gameId");
            if (duel.over()) {
                const std::string winner = duel.result() == "2-0" ? "White" : "Black";
                const std::string text =
                    duel.rule() == "time"
                        ? (winner == "White" ? "Black" : "White") + std::string(" lost on time")
                    : duel.rule() == "resign"
                        ? (winner == "White" ? "Black" : "White") + std::string(" resigned")
                    : duel.rule() == "agreement" ? std::string("Draw by agreement")
                                                 : r["status"]["text"].get<std::string>();
                r["status"] = {{"over", true},
                               {"result", duel.result()},
                               {"rule", duel.rule()},
                               {"text", text}};
            }
            const bool mine = (duelSeat_ == DuelSeat::White && r["sideToMove"] == "white") ||
                              (duelSeat_ == DuelSeat::Black && r["sideToMove"] == "black");
            if (duel.over() || !mine || r["ply"] != r["moves"].size()) r["legal"] = Json::array();
        }
        return replies;
    }

    void doRead() {
        ws_.async_read(buffer_, beast::bind_front_handler(&WsSession::onRead, shared_from_this()));
    }

    void onRead(beast::error_code ec, std::size_t) {
        if (ec) return;  // closed: the session ends when the last handler lets go of it
        std::string text = beast::buffers_to_string(buffer_.data());
        buffer_.consume(buffer_.size());
        if (!limiter_.allow(secondsNow()))
            send({errorMessage("too many messages: slow down")});
        else if (torneio_)
            send(handleTorneio(text));
        else
            send(handleLasca(text));
        doRead();
    }

    void send(const std::vector<Json>& messages) {
        for (const auto& m : messages) {
            if (queue_.size() >= kMaxQueuedMessages) {
                common::logger().warn("web: a tab reads too slowly; closing it");
                beast::get_lowest_layer(ws_).close();
                return;
            }
            queue_.push_back(dumpJson(m));
        }
        if (!writing_ && !queue_.empty()) doWrite();
    }

    void doWrite() {
        writing_ = true;
        ws_.text(true);
        ws_.async_write(net::buffer(queue_.front()),
                        beast::bind_front_handler(&WsSession::onWrite, shared_from_this()));
    }

    void onWrite(beast::error_code ec, std::size_t) {
        writing_ = false;
        if (ec) return;
        queue_.pop_front();
        if (!queue_.empty()) {
            doWrite();
        } else if (closing_) {
            ws_.async_close(websocket::close_code::try_again_later,
                            [self = shared_from_this()](beast::error_code) {});
        }
    }

    // ---- Torneio ----

    static Json torneioHello() {
        Json kinds = Json::array({"person"});
        for (const auto& kind : torneio::play::playerKinds())
            kinds.push_back(std::string(kind.name));
        Json levels = Json::array();
        for (const auto& level : torneio::play::kAiLevels)
            levels.push_back({{"name", level.name}, {"about", level.about}});
        return {{"type", "hello"}, {"game", "torneio"}, {"kinds", kinds}, {"aiLevels", levels}};
    }

    std::vector<Json> handleTorneio(std::string_view text) {
        const auto message = parseMessage(text);
        if (!message) return {errorMessage(message.error())};
        const auto type = messageType(message.value());
        if (!type) return {errorMessage(type.error())};
        std::optional<std::string> error;
        std::vector<Json> out;
        if (type.value() == "torneio.create")
            error = onCreate(message.value(), out);
        else if (type.value() == "torneio.join")
            error = onJoin(message.value(), out);
        else if (type.value() == "torneio.act")
            error = onAct(message.value(), out);
        else
            error = "unknown message type '" + common::printable(type.value()) + "'";
        if (error) return {errorMessage(*error)};
        return out;
    }

    // Drops finished tables nobody shows, and tables nobody looked at for kTorneioIdle.
    void sweepTorneio() {
        const auto now = std::chrono::steady_clock::now();
        for (auto it = state_->torneio.begin(); it != state_->torneio.end();) {
            bool watched = false;
            for (const auto& seat : it->second.listeners)
                for (const auto& l : seat) watched = watched || !l.expired();
            const bool idle = now - it->second.lastActive > kTorneioIdle;
            if ((!watched && it->second.table->finished()) || (!watched && idle))
                it = state_->torneio.erase(it);
            else
                ++it;
        }
    }

    // What a table tells the server, from its own thread: a seat's view changed (its tabs are
    // told on the server's thread), a decision to keep (kept at once, before the seats are told;
    // the store is locked per call), the end of the game.
    TorneioTableHooks torneioHooks() {
        auto weakState = std::weak_ptr<ServerState>(state_);
        auto executor = state_->executor;
        Store* store = state_->store;
        auto idHolder = std::make_shared<std::string>();
        TorneioTableHooks hooks;
        hooks.seatChanged = [weakState, idHolder, executor](int seat) {
            net::post(executor, [weakState, idHolder, seat] {
                auto st = weakState.lock();
                if (!st) return;
                const auto it = st->torneio.find(*idHolder);
                if (it == st->torneio.end()) return;
                for (const auto& l : it->second.listeners[static_cast<std::size_t>(seat)])
                    if (auto session = l.lock()) session->torneioChanged();
            });
        };
        hooks.decided = [weakState, idHolder, executor, store](
                            std::size_t index, const StoredTorneioDecision& decision) {
            const auto saved =
                store->addTorneioDecision(*idHolder, index, decision, nowMilliseconds());
            if (saved) return true;
            common::logger().error("web: saving failed: {}", saved.error());
            net::post(executor, [weakState, idHolder, error = saved.error()] {
                auto st = weakState.lock();
                if (!st) return;
                const auto it = st->torneio.find(*idHolder);
                if (it == st->torneio.end()) return;
                for (const auto& seat : it->second.listeners)
                    for (const auto& l : seat)
                        if (auto session = l.lock())
                            session->send({errorMessage(
                                "saving failed (the game goes on, but is not kept): " + error)});
            });
            return false;
        };
        hooks.ended = [idHolder, store](const std::string& result, const torneio::Record& record) {
            const auto saved = store->finishTorneioTable(
                *idHolder, result, torneio::formatRecord(record), nowMilliseconds());
            if (!saved) common::logger().error("web: saving failed: {}", saved.error());
        };
        pendingTableId_ = idHolder;
        return hooks;
    }

    // Puts a made table on the server and starts its game (the hooks learn its id first).
    void addTorneioTable(const std::shared_ptr<TorneioTable>& table) {
        *pendingTableId_ = table->id();
        TorneioEntry entry;
        entry.table = table;
        entry.listeners.resize(static_cast<std::size_t>(table->seats()));
        entry.lastActive = std::chrono::steady_clock::now();
        state_->torneio.emplace(table->id(), std::move(entry));
        table->start();
    }

    // The table with this id: on the server, or made again from the store (its game replayed)
    // when the token is one of its seats'. An error says why not.
    common::Result<TorneioEntry*> findTorneioTable(const std::string& id,
                                                   const std::string& token) {
        if (const auto it = state_->torneio.find(id); it != state_->torneio.end())
            return &it->second;
        const auto kept = state_->store->loadTorneioTable(id);
        if (!kept) return common::makeError("cannot load the table: " + kept.error());
        if (!kept.value()) return common::makeError("no such table");
        auto table = TorneioTable::restore(*kept.value(), torneioHooks());
        if (!table) return common::makeError(table.error());
        if (!table.value()->seatOfToken(token))
            return common::makeError("this link holds no seat of the table");
        sweepTorneio();
        if (static_cast<int>(state_->torneio.size()) >= state_->config.maxTorneioTables)
            return common::makeError("too many Torneio tables: try again later");
        addTorneioTable(table.value());
        return &state_->torneio.find(id)->second;
    }

    std::optional<std::string> onCreate(const Json& m, std::vector<Json>& out) {
        if (auto e = checkFields(m, {"seats", "rounds"})) return e;
        const auto rounds = intField(m, "rounds", 1, 200);
        if (!rounds) return rounds.error();
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
        if (persons == 0) return "at least one seat must be a person";
        sweepTorneio();
        if (static_cast<int>(state_->torneio.size()) >= state_->config.maxTorneioTables)
            return "too many Torneio tables: try again later";
        auto table = TorneioTable::create(choices, static_cast<int>(rounds.value()),
                                          common::systemSeed(), torneioHooks());
        if (!table) return table.error();
        auto kept = table.value()->stored();
        kept.created = kept.updated = nowMilliseconds();
        const auto saved = state_->store->createTorneioTable(kept);
        if (!saved) {
            common::logger().error("web: saving failed: {}", saved.error());
            out.push_back(errorMessage("saving failed (the table goes on, but is not kept): " +
                                       saved.error()));
        }
        addTorneioTable(table.value());
        Json seats = table.value()->seatsJson();
        const auto tokens = table.value()->takeTokens();
        for (std::size_t s = 0; s < seats.size(); ++s)
            if (choices[s].kind == "person") seats[s]["token"] = tokens[s];
        out.push_back(
            {{"type", "torneio.created"}, {"table", table.value()->id()}, {"seats", seats}});
        return std::nullopt;
    }

    std::optional<std::string> onJoin(const Json& m, std::vector<Json>& out) {
        if (auto e = checkFields(m, {"table", "token"})) return e;
        const auto id = stringField(m, "table", 64);
        if (!id) return id.error();
        const auto token = stringField(m, "token", 64);
        if (!token) return token.error();
        if (!tableId_.empty()) return "this tab already holds a seat";
        const auto found = findTorneioTable(id.value(), token.value());
        if (!found) return found.error();
        TorneioEntry& entry = *found.value();
        const auto seat = entry.table->seatOfToken(token.value());
        if (!seat) return "this link holds no seat of the table";
        tableId_ = id.value();
        seat_ = *seat;
        // The newest window holds the seat: one that held it before is told and let go.
        auto& listeners = entry.listeners[static_cast<std::size_t>(seat_)];
        for (const auto& l : listeners)
            if (auto other = l.lock(); other && other.get() != this) other->seatTakenElsewhere();
        listeners.assign(1, weak_from_this());
        entry.lastActive = std::chrono::steady_clock::now();
        const auto it = state_->torneio.find(tableId_);
        out.push_back({{"type", "torneio.joined"},
                       {"table", tableId_},
                       {"seat", seat_ + 1},
                       {"seats", it->second.table->seatsJson()}});
        Json view = it->second.table->webSeat(seat_)->view(0, 0);
        linesSent_ = view["lineCount"].get<std::size_t>();
        if (view["started"].get<bool>()) logSent_ = view["logCount"].get<std::size_t>();
        requestSent_ = view.contains("request") && !view["request"].is_null()
                           ? view["request"]["line"].get<std::string>()
                           : std::string();
        out.push_back(view);
        return std::nullopt;
    }

    // Another window opened this tab's seat: this tab no longer holds it.
    void seatTakenElsewhere() {
        tableId_.clear();
        linesSent_ = logSent_ = 0;
        requestSent_.clear();
        send({{{"type", "torneio.left"},
               {"text", "this seat was opened in another window: play it there"}}});
    }

    std::optional<std::string> onAct(const Json& m, std::vector<Json>& out) {
        (void)out;
        if (auto e = checkFields(m, {"action"})) return e;
        const auto action = stringField(m, "action", 200);
        if (!action) return action.error();
        const auto it = state_->torneio.find(tableId_);
        if (tableId_.empty() || it == state_->torneio.end()) return "join a table first";
        it->second.lastActive = std::chrono::steady_clock::now();
        return it->second.table->webSeat(seat_)->submit(action.value());
    }

    websocket::stream<beast::tcp_stream> ws_;
    std::shared_ptr<ServerState> state_;
    RateLimiter limiter_;
    bool torneio_ = false;
    std::string tableId_;
    std::string duelId_;  // the two-person table this tab shows, if any
    DuelSeat duelSeat_ = DuelSeat::Watch;
    std::shared_ptr<std::string> pendingTableId_;  // the id the hooks of the newest table use
    int seat_ = 0;
    std::size_t linesSent_ = 0;
    std::size_t logSent_ = 0;
    std::string requestSent_;  // the pending request of the last view sent ("" for none)
    beast::flat_buffer buffer_;
    std::deque<std::string> queue_;
    bool writing_ = false;
    bool closing_ = false;
    bool holdsTable_ = false;
    std::unique_ptr<LascaTable> table_;
    StoredLascaGame lastSaved_;  // the game as last committed to the store
};

// ---- HTTP --------------------------------------------------------------------------------------

std::string contentType(const std::filesystem::path& path) {
    const auto ext = path.extension().string();
    if (ext == ".html") return "text/html; charset=utf-8";
    if (ext == ".css") return "text/css; charset=utf-8";
    if (ext == ".js") return "text/javascript; charset=utf-8";
    if (ext == ".svg") return "image/svg+xml";
    if (ext == ".png") return "image/png";
    if (ext == ".ico") return "image/x-icon";
    return "application/octet-stream";
}

// The file a request target names under the static folder, or nothing: only letters, digits,
// '-', '_', '.' and '/' in the path, no "..", no hidden files.
std::optional<std::filesystem::path> staticFile(const std::string& dir, std::string_view target) {
    const auto query = target.find('?');
    if (query != std::string_view::npos) target = target.substr(0, query);
    if (target == "/") target = "/index.html";
    if (target == "/torneio") target = "/torneio.html";
    if (target.empty() || target[0] != '/' || target.find("..") != std::string_view::npos ||
        target.find("/.") != std::string_view::npos || target.size() > 200)
        return std::nullopt;
    for (const char c : target)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.' &&
            c != '/')
            return std::nullopt;
    std::filesystem::path path = std::filesystem::path(dir) / std::string(target.substr(1));
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
    return path;
}

http::response<http::string_body> respond(const ServerState& state,
                                          const http::request<http::string_body>& request) {
    http::response<http::string_body> response;
    response.version(request.version());
    response.keep_alive(request.keep_alive());
    response.set(http::field::server, "lasca-web");
    response.set(http::field::cache_control, "no-cache");
    response.set("X-Content-Type-Options", "nosniff");
    const bool reading =
        request.method() == http::verb::get || request.method() == http::verb::head;
    const std::string_view target(request.target().data(), request.target().size());
    if (const auto games = reading ? gamesPage(*state.store, target) : std::nullopt) {
        response.result(static_cast<http::status>(games->status));
        response.set(http::field::content_type, games->contentType);
        response.set("Content-Security-Policy", "default-src 'self'");
        if (request.method() == http::verb::get) response.body() = games->body;
        response.prepare_payload();
        return response;
    }
    const auto path =
        reading ? staticFile(state.config.staticDir,
                             std::string_view(request.target().data(), request.target().size()))
                : std::nullopt;
    if (!path) {
        response.result(http::status::not_found);
        response.set(http::field::content_type, "text/plain");
        response.body() = "not found\n";
    } else {
        std::ifstream in(*path, std::ios::binary);
        std::ostringstream body;
        body << in.rdbuf();
        response.result(http::status::ok);
        response.set(http::field::content_type, contentType(*path));
        response.set("Content-Security-Policy",
                     "default-src 'self'; connect-src 'self'; img-src 'self' data:");
        if (request.method() == http::verb::get) response.body() = body.str();
    }
    response.prepare_payload();
    return response;
}

// A WebSocket upgrade is accepted only from the page itself: an Origin header, when there is one,
// must name the host the request was sent to (no other site may drive a local server).
bool sameOrigin(const http::request<http::string_body>& request) {
    const auto origin = request[http::field::origin];
    if (origin.empty()) return true;
    const std::string expected = "http://" + std::string(request[http::field::host]);
    return origin == expected;
}

// HttpSession: one TCP connection before (or without) a WebSocket upgrade.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
  public:
    HttpSession(tcp::socket socket, std::shared_ptr<ServerState> state)
        : stream_(std::move(socket)), state_(std::move(state)) {}

    void run() { doRead(); }

  private:
    void doRead() {
        parser_.emplace();
        parser_->body_limit(8192);
        stream_.expires_after(kHttpTimeout);
        http::async_read(stream_, buffer_, *parser_,
                         beast::bind_front_handler(&HttpSession::onRead, shared_from_this()));
    }

    void onRead(beast::error_code ec, std::size_t) {
        if (ec) return;
        auto request = parser_->release();
        if (websocket::is_upgrade(request)) {
            const bool torneio = request.target() == "/ws/torneio";
            if ((request.target() != "/ws" && !torneio) || !sameOrigin(request)) return;
            stream_.expires_never();
            std::make_shared<WsSession>(stream_.release_socket(), state_, torneio)
                ->run(std::move(request));
            return;
        }
        auto response =
            std::make_shared<http::response<http::string_body>>(respond(*state_, request));
        http::async_write(stream_, *response,
                          [self = shared_from_this(), response](beast::error_code e, std::size_t) {
                              if (e || !response->keep_alive()) {
                                  beast::error_code ignored;
                                  self->stream_.socket().shutdown(tcp::socket::shutdown_send,
                                                                  ignored);
                                  return;
                              }
                              self->doRead();
                          });
    }

    beast::tcp_stream stream_;
    std::shared_ptr<ServerState> state_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
};

// Listener: accepts connections and hands each to an HttpSession.
class Listener : public std::enable_shared_from_this<Listener> {
  public:
    Listener(net::io_context& io, tcp::acceptor acceptor, std::shared_ptr<ServerState> state)
        : io_(io), acceptor_(std::move(acceptor)), state_(std::move(state)) {}
    void run() {
        acceptor_.async_accept(net::make_strand(io_),
                               beast::bind_front_handler(&Listener::onAccept, shared_from_this()));
    }

  private:
    void onAccept(beast::error_code ec, tcp::socket socket) {
        if (!ec) std::make_shared<HttpSession>(std::move(socket), state_)->run();
        run();
    }
    net::io_context& io_;
    tcp::acceptor acceptor_;
    std::shared_ptr<ServerState> state_;
};

}  // namespace

common::Result<bool> runServer(const ServerConfig& config, Store& store) {
    net::io_context io{1};
    beast::error_code ec;
    const auto address = net::ip::make_address(config.address, ec);
    if (ec) return common::makeError("bad address '" + config.address + "'");
    tcp::acceptor acceptor(io);
    const tcp::endpoint endpoint{address, config.port};
    acceptor.open(endpoint.protocol(), ec);
    if (!ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor.bind(endpoint, ec);
    if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
    if (ec)
        return common::makeError("cannot listen on " + config.address + ":" +
                                 std::to_string(config.port) + ": " + ec.message());
    const auto port = acceptor.local_endpoint().port();
    auto state = std::make_shared<ServerState>();
    state->config = config;
    state->store = &store;
    state->executor = io.get_executor();
    std::make_shared<Listener>(io, std::move(acceptor), state)->run();
    net::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&io](beast::error_code, int) { io.stop(); });
    std::cout << "lasca-web: listening on http://" << config.address << ":" << port << "/"
              << std::endl;
    common::logger().info("web: static files from {}, engine {}", config.staticDir,
                          config.enginePath);
    io.run();
    state->torneio.clear();  // closes the seats and ends the games' threads
    state->duels.clear();
    return true;
}

}  // namespace web
