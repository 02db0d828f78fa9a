// lasca-web keeps every game through `kill -9`: the real server on a database file is
// killed at random points of a game 100 times; after each start on the same file the game,
// joined by its id, goes on from exactly its last committed move (every move the page was shown
// is there; a move sent but not yet answered may or may not be), and SQLite's own check finds
// the file sound. The same for a Torneio table (a person and an AI, 100 kills): its seat link
// rejoins with every line the page had been shown, and its pending request; the finished game's
// kept record replays by the rules. The newest window of a seat link holds the seat. Also: a file
// that is not a database, or one held by a running server, stops a second server at start with exit
// code 2.
#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <thread>

#include "common/process.h"
#include "test_directory.h"
#include "torneio/rules/record.h"
#include "web/store/store.h"

namespace web::server {

using store::Store;

namespace {

namespace net = boost::asio;
namespace websocket = boost::beast::websocket;
using Json = nlohmann::json;
using tcp = net::ip::tcp;

constexpr auto kHangGuard = std::chrono::seconds(20);  // a hang guard, not a speed limit

// The server as a child process on a database file; its port read from its first line.
struct Server {
    std::unique_ptr<common::ChildProcess> process;
    std::string port;

    // fileBlocks > 0: the server may write files of at most that many 512-byte blocks (a full
    // disk, as far as the server can tell: writes beyond it fail with EFBIG).
    static std::optional<Server> start(const std::string& db, int fileBlocks = 0) {
        std::vector<std::string> args = {"--port",   "0",          "--db",        db,
                                         "--engine", LASCA_ENGINE, "--log-level", "off"};
        std::string program = LASCA_WEB;
        if (fileBlocks > 0) {
            args.insert(args.begin(), {"-c",
                                       "ulimit -f " + std::to_string(fileBlocks) +
                                           " && trap '' XFSZ && exec \"$0\" \"$@\"",
                                       LASCA_WEB});
            program = "/bin/sh";
        }
        auto started = common::ChildProcess::start(program, args, "");
        if (!started) return std::nullopt;
        Server server{std::move(started).value(), ""};
        std::string line;
        if (server.process->readLine(line, common::SteadyClock::now() + kHangGuard) !=
            common::ReadStatus::Line)
            return std::nullopt;
        std::smatch found;
        if (!std::regex_search(line, found, std::regex(":([0-9]+)/"))) return std::nullopt;
        server.port = found[1];
        return server;
    }
};

// One tab: a WebSocket to the server, JSON messages.
class Tab {
  public:
    explicit Tab(const std::string& port, const std::string& path = "/ws") : ws_(io_) {
        tcp::resolver resolver(io_);
        net::connect(ws_.next_layer(), resolver.resolve("127.0.0.1", port));
        ws_.handshake("127.0.0.1:" + port, path);
    }
    void send(const Json& m) { ws_.write(net::buffer(m.dump())); }
    void sendText(const std::string& text) { ws_.write(net::buffer(text)); }
    Json read() {
        boost::beast::flat_buffer buffer;
        ws_.read(buffer);
        return Json::parse(boost::beast::buffers_to_string(buffer.data()));
    }
    // Reads until a `state` message (errors before it are returned in `errors`).
    Json readState(std::vector<std::string>* errors = nullptr) {
        for (;;) {
            Json m = read();
            if (m["type"] == "state") return m;
            if (m["type"] == "error" && errors) errors->push_back(m["message"]);
        }
    }

  private:
    net::io_context io_;
    websocket::stream<tcp::socket> ws_;
};

TEST(ServerRestart, EveryCommittedMoveSurvivesKillNine) {
    const std::string db = (common::test::testDirectory() / "web.db").string();
    std::mt19937 random(20261202);
    std::string gameId;
    std::vector<std::string> committed;   // the moves the page was shown
    std::optional<std::string> inFlight;  // a move sent when the server was killed
    int restarts = 0, joined = 0, inFlightKept = 0;
    for (int round = 0; round < 100; ++round) {
        auto server = Server::start(db);
        ASSERT_TRUE(server) << "round " << round;
        ++restarts;
        Tab tab(server->port);
        Json state = tab.readState();
        if (!gameId.empty()) {
            tab.send({{"type", "join"}, {"gameId", gameId}});
            std::vector<std::string> errors;
            state = tab.readState(&errors);
            ASSERT_TRUE(errors.empty()) << errors.front();
            ASSERT_EQ(state["gameId"], gameId);
            auto moves = state["moves"].get<std::vector<std::string>>();
            if (inFlight && moves.size() == committed.size() + 1 && moves.back() == *inFlight) {
                committed.push_back(*inFlight);
                ++inFlightKept;
            }
            ASSERT_EQ(moves, committed) << "round " << round;
            ++joined;
        }
        inFlight.reset();
        if (gameId.empty() || state["status"]["over"].get<bool>()) {
            tab.send({{"type", "new"}, {"engine", "none"}});
            state = tab.readState();
            gameId = state["gameId"];
            committed.clear();
        }
        // A few moves, the server killed after one of them was answered or while one is sent.
        const int moves = 1 + static_cast<int>(random() % 5);
        const bool killWhileSending = random() % 2 == 0;
        for (int i = 0; i < moves && !state["status"]["over"].get<bool>(); ++i) {
            const auto& legal = state["legal"];
            const std::string move = legal.at(random() % legal.size())["move"];
            tab.send({{"type", "move"}, {"ply", committed.size()}, {"move", move}});
            if (killWhileSending && i == moves - 1) {
                inFlight = move;
                break;
            }
            state = tab.readState();
            ASSERT_EQ(state["moves"].size(), committed.size() + 1);
            committed.push_back(move);
        }
        // A moment for an in-flight move to be handled, or not (both are checked above).
        if (inFlight) std::this_thread::sleep_for(std::chrono::microseconds(random() % 4000));
        server->process->kill();
    }
    EXPECT_EQ(restarts, 100);
    EXPECT_GE(joined, 99);
    std::cout << "in-flight moves found after the restart: " << inFlightKept << "\n";
    auto store = Store::open(db);
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_EQ(store.value()->integrityCheck().value(), "ok");
    const auto kept = store.value()->loadLascaGame(gameId).value();
    ASSERT_TRUE(kept.has_value());
    EXPECT_GE(kept->moves.size(), committed.size());
    EXPECT_LE(kept->moves.size(), committed.size() + 1);
}

// A game is played in one tab at a time: a second tab that joins it takes it, the first is told
// and gets a new game; an unknown id is an error and the tab keeps its game.
TEST(ServerRestart, AGameOpenedInASecondTabMovesThere) {
    auto server = Server::start((common::test::testDirectory() / "web.db").string());
    ASSERT_TRUE(server);
    Tab first(server->port);
    Json state = first.readState();
    first.send({{"type", "new"}, {"engine", "none"}});
    state = first.readState();
    const std::string id = state["gameId"];
    first.send({{"type", "move"}, {"ply", 0}, {"move", state["legal"][0]["move"]}});
    ASSERT_EQ(first.readState()["moves"].size(), 1u);

    Tab second(server->port);
    const std::string own = second.readState()["gameId"];
    second.send({{"type", "join"}, {"gameId", "no-such-game"}});
    Json error = second.read();
    EXPECT_EQ(error["type"], "error");
    second.send({{"type", "view"}, {"ply", 0}});
    EXPECT_EQ(second.readState()["gameId"], own);  // kept its own game

    second.send({{"type", "join"}, {"gameId", id}});
    state = second.readState();
    EXPECT_EQ(state["gameId"], id);
    EXPECT_EQ(state["moves"].size(), 1u);
    std::vector<std::string> errors;
    const Json moved = first.readState(&errors);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0], "this game was opened in another tab");
    EXPECT_NE(moved["gameId"], id);
    EXPECT_TRUE(moved["moves"].empty());
}

// Opening the page stores nothing: a game is kept from its first move, or from a set position;
// until then its state says it is not kept (the page leaves no id in its address).
TEST(ServerRestart, AGameIsKeptFromItsFirstMoveNotFromAPageLoad) {
    const std::string db = (common::test::testDirectory() / "web.db").string();
    std::string played, positioned;
    {
        auto server = Server::start(db);
        ASSERT_TRUE(server);
        std::vector<std::unique_ptr<Tab>> tabs;
        for (int i = 0; i < 6; ++i) {
            tabs.push_back(std::make_unique<Tab>(server->port));
            const Json state = tabs.back()->readState();
            EXPECT_FALSE(state.value("kept", true)) << state.dump();
        }
        tabs[0]->send({{"type", "new"}, {"engine", "none"}});
        Json state = tabs[0]->readState();
        EXPECT_FALSE(state.value("kept", true));
        tabs[1]->send({{"type", "settings"}, {"engine", "none"}, {"level", 2}});
        EXPECT_FALSE(tabs[1]->readState().value("kept", true)) << "a setting alone keeps nothing";
        tabs[0]->send({{"type", "move"}, {"ply", 0}, {"move", state["legal"][0]["move"]}});
        state = tabs[0]->readState();
        EXPECT_TRUE(state.value("kept", false));
        played = state["gameId"];
        tabs[2]->send({{"type", "lfen"},
                       {"lfen", "-,-,-,-/-,-,-/-,b,-,-/-,-,-/-,W,-,-/-,-,-/w,-,-,- w 0 1"}});
        state = tabs[2]->readState();
        EXPECT_TRUE(state.value("kept", false));
        positioned = state["gameId"];
        tabs[0]->send({{"type", "takeback"}});
        EXPECT_TRUE(tabs[0]->readState().value("kept", false)) << "once kept, kept with no move";
        server->process->kill();
    }
    auto store = Store::open(db);
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_EQ(store.value()->lascaGameCount().value(), 2);
    EXPECT_TRUE(store.value()->loadLascaGame(played).value().has_value());
    EXPECT_TRUE(store.value()->loadLascaGame(positioned).value().has_value());
}

// A Torneio seat's page: every line it was shown, in order, and its pending request.
struct SeatPage {
    std::vector<std::string> lines;
    Json request;
    bool over = false;
    Json last;

    // Takes one torneio.view (only what is new since the last one).
    void take(const Json& view) {
        ASSERT_EQ(view["linesFrom"].get<std::size_t>(), lines.size()) << view.dump();
        for (const auto& line : view["lines"]) lines.push_back(line);
        request = view.value("request", Json());
        over = view.value("over", false);
    }
    // Reads views until a request is pending or the game is over.
    void settle(Tab& tab) {
        while (request.is_null() && !over) {
            const Json m = tab.read();
            ASSERT_NE(m["type"], "error") << m.dump() << " after " << last.dump();
            last = m;
            if (m["type"] == "torneio.view") take(m);
        }
    }
};

TEST(ServerRestart, EveryKeptTorneioDecisionSurvivesKillNine) {
    const std::string db = (common::test::testDirectory() / "web.db").string();
    std::mt19937 random(20261203);
    std::string table, token;
    std::vector<std::string> shown;  // every line the seat's page was shown, across restarts
    int restarts = 0, games = 0;
    for (int round = 0; round < 100; ++round) {
        auto server = Server::start(db);
        ASSERT_TRUE(server) << "round " << round;
        ++restarts;
        Tab tab(server->port, "/ws/torneio");
        ASSERT_EQ(tab.read()["type"], "hello");
        if (table.empty()) {
            tab.send({{"type", "torneio.create"},
                      {"rounds", 12},
                      {"seats", Json::array({{{"kind", "person"}}, {{"kind", "heuristic"}}})}});
            const Json created = tab.read();
            ASSERT_EQ(created["type"], "torneio.created") << created.dump();
            table = created["table"];
            token = created["seats"][0]["token"];
            shown.clear();
            ++games;
        }
        tab.send({{"type", "torneio.join"}, {"table", table}, {"token", token}});
        const Json joined = tab.read();
        ASSERT_EQ(joined["type"], "torneio.joined") << joined.dump();
        SeatPage page;
        page.take(tab.read());
        page.settle(tab);
        // Every line shown before the kill is there again, in order (the replay may add the
        // events of a decision kept just before the kill).
        ASSERT_GE(page.lines.size(), shown.size()) << "round " << round;
        ASSERT_TRUE(std::equal(shown.begin(), shown.end(), page.lines.begin()))
            << "round " << round;
        shown = page.lines;
        if (page.over) {
            table.clear();
            server->process->kill();
            continue;
        }
        // A few decisions; the server killed at a random moment after one of them.
        const int decisions = 1 + static_cast<int>(random() % 4);
        for (int i = 0; i < decisions && !page.over; ++i) {
            const Json& choices = page.request["choices"];
            const std::string action =
                page.request["kind"] == "setup" || choices.empty()
                    ? "random"
                    : choices.at(random() % choices.size()).get<std::string>();
            tab.send({{"type", "torneio.act"}, {"action", action}});
            page.request = Json();
            if (i == decisions - 1) break;  // killed while it is handled, or not
            page.settle(tab);
            shown = page.lines;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(random() % 4000));
        server->process->kill();
    }
    EXPECT_EQ(restarts, 100);
    EXPECT_GE(games, 1);
    auto store = Store::open(db);
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_EQ(store.value()->integrityCheck().value(), "ok");
    int finished = 0;
    for (std::int64_t number = 1; number <= store.value()->torneioTableCount().value(); ++number) {
        const auto kept = store.value()->torneioTableByNumber(number).value();
        ASSERT_TRUE(kept.has_value());
        if (kept->result.empty()) continue;
        ++finished;
        const auto record = torneio::parseRecord(kept->record);
        ASSERT_TRUE(record.ok()) << record.error();
        EXPECT_TRUE(torneio::replayRecord(record.value()).ok());
        std::size_t actions = 0;
        for (const auto& entry : record.value().entries)
            actions += entry.kind == torneio::RecordEntry::Kind::Action ? 1 : 0;
        EXPECT_EQ(actions, kept->decisions.size());
    }
    EXPECT_GE(finished, games - 1);  // the last may have ended unseen
    EXPECT_LE(finished, games);
    std::cout << "Torneio games played through the kills: " << games << "\n";
}

// A Torneio seat rejoined after a restart: once the table's kept game is replayed, the seat is
// sent one view with every line it had and its pending request (not an empty view first and
// then the replay line by line).
TEST(ServerRestart, ARejoinedTorneioSeatGetsOneWholeView) {
    const std::string db = (common::test::testDirectory() / "web.db").string();
    std::string table, token;
    std::vector<std::string> shown;
    {
        auto server = Server::start(db);
        ASSERT_TRUE(server);
        Tab tab(server->port, "/ws/torneio");
        ASSERT_EQ(tab.read().value("type", ""), "hello");
        tab.send({{"type", "torneio.create"},
                  {"rounds", 30},
                  {"seats", Json::array({{{"kind", "person"}}, {{"kind", "heuristic"}}})}});
        const Json created = tab.read();
        ASSERT_EQ(created.value("type", ""), "torneio.created") << created.dump();
        table = created["table"];
        token = created["seats"][0]["token"];
        tab.send({{"type", "torneio.join"}, {"table", table}, {"token", token}});
        ASSERT_EQ(tab.read().value("type", ""), "torneio.joined");
        SeatPage page;
        page.take(tab.read());
        page.settle(tab);
        for (int i = 0; i < 8 && !page.over; ++i) {  // the game waits for the person after each
            tab.send({{"type", "torneio.act"}, {"action", "random"}});
            page.request = Json();
            page.settle(tab);
        }
        ASSERT_FALSE(page.over) << "the game ended too soon to be replayed";
        shown = page.lines;
        server->process->kill();
    }
    auto server = Server::start(db);
    ASSERT_TRUE(server);
    Tab tab(server->port, "/ws/torneio");
    ASSERT_EQ(tab.read().value("type", ""), "hello");
    tab.send({{"type", "torneio.join"}, {"table", table}, {"token", token}});
    ASSERT_EQ(tab.read().value("type", ""), "torneio.joined");
    const Json view = tab.read();
    ASSERT_EQ(view.value("type", ""), "torneio.view") << view.dump();
    EXPECT_EQ(view.value("linesFrom", 1), 0);
    EXPECT_EQ(view.value("lines", Json::array()), Json(shown)) << "every line, in the first view";
    EXPECT_TRUE(view.contains("request") && !view["request"].is_null()) << view.dump();
}

// A seat link opened in a second window: the newer window holds the seat, the older is told
// and can no longer act; a wrong token is refused at once.
TEST(ServerRestart, TheNewestWindowOfASeatLinkHoldsTheSeat) {
    auto server = Server::start((common::test::testDirectory() / "web.db").string());
    ASSERT_TRUE(server);
    Tab first(server->port, "/ws/torneio");
    ASSERT_EQ(first.read()["type"], "hello");
    first.send({{"type", "torneio.create"},
                {"rounds", 10},
                {"seats", Json::array({{{"kind", "person"}}, {{"kind", "random"}}})}});
    const Json created = first.read();
    const std::string table = created["table"], token = created["seats"][0]["token"];
    first.send({{"type", "torneio.join"}, {"table", table}, {"token", token}});
    ASSERT_EQ(first.read()["type"], "torneio.joined");

    Tab second(server->port, "/ws/torneio");
    ASSERT_EQ(second.read()["type"], "hello");
    second.send({{"type", "torneio.join"}, {"table", table}, {"token", token + "0"}});
    EXPECT_EQ(second.read()["type"], "error");
    second.send({{"type", "torneio.join"}, {"table", table}, {"token", token}});
    ASSERT_EQ(second.read()["type"], "torneio.joined");
    Json told;
    do told = first.read();
    while (told["type"] == "torneio.view");
    EXPECT_EQ(told["type"], "torneio.left");
    first.send({{"type", "torneio.act"}, {"action", "random"}});
    Json refused;
    do refused = first.read();
    while (refused["type"] == "torneio.view");
    EXPECT_EQ(refused["type"], "error");
    EXPECT_EQ(refused["message"], "join a table first");
}

// A disk that fills up during play: the page is told "saving failed", the game goes on in memory,
// and what was saved before is still there after a restart (the file checks clean).
TEST(ServerRestart, AFullDiskKeepsTheGameGoingAndLosesNothingSaved) {
    const std::string db = (common::test::testDirectory() / "web.db").string();
    std::string gameId;
    std::vector<std::string> played;     // every move the page was shown
    std::size_t savedBeforeFailure = 0;  // moves shown before the first "saving failed"
    bool failed = false;
    {
        auto server = Server::start(db, 600);  // 300 KB of file
        ASSERT_TRUE(server);
        Tab tab(server->port);
        Json state = tab.readState();
        tab.send({{"type", "new"}, {"engine", "none"}});
        state = tab.readState();
        gameId = state["gameId"];
        std::mt19937 random(7);
        for (int i = 0; i < 3000 && !failed; ++i) {
            if (state["status"]["over"].get<bool>()) {  // take a move back and go on
                tab.send({{"type", "takeback"}});
                state = tab.readState();
                played.pop_back();
            }
            const auto& legal = state["legal"];
            const std::string move = legal.at(random() % legal.size())["move"];
            tab.send({{"type", "move"}, {"ply", played.size()}, {"move", move}});
            std::vector<std::string> errors;
            state = tab.readState(&errors);
            ASSERT_EQ(state["moves"].size(), played.size() + 1) << "the game goes on";
            for (const auto& e : errors) {
                ASSERT_NE(e.find("saving failed"), std::string::npos) << e;
                failed = true;
            }
            if (!failed) savedBeforeFailure = played.size() + 1;
            played.push_back(move);
        }
        ASSERT_TRUE(failed) << "the file never filled up";
        for (int i = 0; i < 3 && !state["status"]["over"].get<bool>(); ++i) {  // still playable
            tab.send(
                {{"type", "move"}, {"ply", played.size()}, {"move", state["legal"].at(0)["move"]}});
            state = tab.readState();
            played.push_back(state["moves"].back());
        }
        server->process->kill();
    }
    auto server = Server::start(db);
    ASSERT_TRUE(server);
    Tab tab(server->port);
    tab.readState();
    tab.send({{"type", "join"}, {"gameId", gameId}});
    const auto kept = tab.readState()["moves"].get<std::vector<std::string>>();
    ASSERT_GE(kept.size(), savedBeforeFailure) << "nothing saved was lost";
    ASSERT_LE(kept.size(), played.size());
    EXPECT_TRUE(std::equal(kept.begin(), kept.end(), played.begin()));
    server->process->kill();
    auto store = Store::open(db);
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_EQ(store.value()->integrityCheck().value(), "ok");
    std::cout << "moves saved before the disk was full: " << savedBeforeFailure << " of "
              << played.size() << "\n";
}

// Two people at one Lasca board through the server: each colour's link moves only its side, a
// watcher sees every move and cannot move, a restart of the server loses nothing, and a timed
// game ends by a flag that falls while nobody moves (the server's own timer).
TEST(ServerRestart, TwoPeoplePlayAtOneBoardAndAWatcherSeesIt) {
    const std::string db = (common::test::testDirectory() / "web.db").string();
    std::string id, white, black, watch;
    std::vector<std::string> moves;
    {
        auto server = Server::start(db);
        ASSERT_TRUE(server);
        Tab creator(server->port);
        creator.readState();
        creator.send({{"type", "lasca.create"}, {"clock", nullptr}});
        Json created;
        do created = creator.read();
        while (created["type"] == "state");
        ASSERT_EQ(created["type"], "lasca.created") << created.dump();
        id = created["table"];
        white = created["seats"][0]["token"];
        black = created["seats"][1]["token"];
        watch = created["watch"];
        Tab w(server->port), b(server->port), v(server->port);
        for (auto* tab : {&w, &b, &v}) tab->readState();
        w.send({{"type", "lasca.join"}, {"table", id}, {"token", white}});
        Json ws = w.readState();
        EXPECT_EQ(ws["seat"], "white");
        EXPECT_FALSE(ws.contains("gameId")) << "a table's state names no game id";
        b.send({{"type", "lasca.join"}, {"table", id}, {"token", black}});
        Json bs = b.readState();
        EXPECT_EQ(bs["seat"], "black");
        EXPECT_TRUE(bs["legal"].empty()) << "Black is not to move";
        v.send({{"type", "lasca.join"}, {"table", id}, {"token", watch}});
        Json vs = v.readState();
        EXPECT_EQ(vs["seat"], "watch");
        EXPECT_TRUE(vs["legal"].empty());
        // Black and the watcher cannot move for White; White can.
        const std::string first = ws["legal"][0]["move"];
        for (auto* tab : {&b, &v}) {
            tab->send({{"type", "move"}, {"ply", 0}, {"move", first}});
            EXPECT_EQ(tab->read()["type"], "error");
        }
        v.send({{"type", "new"}});
        EXPECT_EQ(v.read()["type"], "error") << "a bound tab cannot start another game";
        w.send({{"type", "move"}, {"ply", 0}, {"move", first}});
        for (auto* tab : {&w, &b, &v}) {
            const Json seen = tab->readState();
            ASSERT_EQ(seen["moves"], Json::array({first}));
        }
        moves.push_back(first);
        bs = Json();
        b.send({{"type", "view"}, {"ply", 1}});  // the state again
        bs = b.readState();
        const std::string reply = bs["legal"][0]["move"];
        b.send({{"type", "move"}, {"ply", 1}, {"move", reply}});
        for (auto* tab : {&w, &b, &v}) ASSERT_EQ(tab->readState()["moves"].size(), 2u);
        moves.push_back(reply);
        server->process->kill();
    }
    {
        auto server = Server::start(db);  // restarted: the table comes back on its links
        ASSERT_TRUE(server);
        Tab b(server->port);
        b.readState();
        b.send({{"type", "lasca.join"}, {"table", id}, {"token", black}});
        const Json bs = b.readState();
        EXPECT_EQ(bs["moves"], Json(moves));
        EXPECT_EQ(bs["seat"], "black");
        b.send({{"type", "lasca.join"}, {"table", id}, {"token", white + "0"}});
        EXPECT_EQ(b.read()["type"], "error");
        b.send({{"type", "resign"}});
        const Json over = b.readState();
        EXPECT_EQ(over["status"]["rule"], "resign");
        EXPECT_EQ(over["status"]["result"], "2-0");
        // A timed table: White moves, Black lets the clock run out.
        b.send({{"type", "lasca.create"}, {"clock", {{"time", 1500}, {"increment", 0}}}});
        Json created;
        do created = b.read();
        while (created["type"] == "state");
        ASSERT_EQ(created["type"], "lasca.created");
        Tab w(server->port);
        w.readState();
        w.send({{"type", "lasca.join"},
                {"table", created["table"]},
                {"token", created["seats"][0]["token"]}});
        Json ws = w.readState();
        EXPECT_EQ(ws["clock"]["white"], 1500);
        EXPECT_TRUE(ws["clock"]["running"].is_null());
        w.send({{"type", "move"}, {"ply", 0}, {"move", ws["legal"][0]["move"]}});
        ws = w.readState();
        EXPECT_EQ(ws["clock"]["running"], "black");
        do ws = w.readState();  // the flag falls on the server's timer (a hang guard above)
        while (!ws["status"]["over"].get<bool>());
        EXPECT_EQ(ws["status"]["rule"], "time");
        EXPECT_EQ(ws["status"]["result"], "2-0");
        EXPECT_EQ(ws["clock"]["black"], 0);
    }
    auto store = Store::open(db);
    ASSERT_TRUE(store.ok());
    const auto kept = store.value()->loadDuel(id).value();
    ASSERT_TRUE(kept.has_value());
    EXPECT_EQ(kept->moves, moves);
    EXPECT_EQ(kept->rule, "resign");
    EXPECT_EQ(kept->whiteHash.find(white), std::string::npos);
}

// A player's link of a two-person table opened in a second window: the newest window holds the
// seat, the older is told (`lasca.left`) and no longer shows the table nor moves in it; the
// other seat and the watchers (any number of windows) are not touched.
TEST(ServerRestart, TheNewestWindowOfALascaSeatLinkHoldsTheSeat) {
    auto server = Server::start((common::test::testDirectory() / "web.db").string());
    ASSERT_TRUE(server);
    Tab creator(server->port);
    creator.readState();
    creator.send({{"type", "lasca.create"}, {"clock", nullptr}});
    Json created;
    do created = creator.read();
    while (created.value("type", "") == "state");
    ASSERT_EQ(created.value("type", ""), "lasca.created") << created.dump();
    const std::string id = created["table"], white = created["seats"][0]["token"],
                      black = created["seats"][1]["token"], watch = created["watch"];
    Tab first(server->port), second(server->port), b(server->port), v1(server->port),
        v2(server->port);
    const std::vector<std::pair<Tab*, std::string>> joins = {
        {&first, white}, {&b, black}, {&v1, watch}, {&v2, watch}, {&second, white}};
    for (const auto& [tab, token] : joins) {
        tab->readState();
        tab->send({{"type", "lasca.join"}, {"table", id}, {"token", token}});
        ASSERT_TRUE(tab->readState().contains("seat"));
    }
    // The first window's replies come in order: the notice, then its answer to a look.
    first.send({{"type", "view"}, {"ply", 0}});
    std::vector<std::string> types;
    Json state;
    do {
        state = first.read();
        types.push_back(state.value("type", ""));
    } while (types.back() != "state");
    ASSERT_EQ(types.front(), "lasca.left") << state.dump();
    EXPECT_FALSE(state.contains("table")) << "the older window no longer shows the table";
    // Its move does not reach the table; the newest window's does, and everyone else sees it.
    first.send({{"type", "move"}, {"ply", 0}, {"move", state["legal"][0]["move"]}});
    second.send({{"type", "view"}, {"ply", 0}});
    Json held = second.readState();
    EXPECT_TRUE(held["moves"].empty());
    second.send({{"type", "move"}, {"ply", 0}, {"move", held["legal"][0]["move"]}});
    for (Tab* tab : {&second, &b, &v1, &v2}) {
        const Json seen = tab->readState();
        EXPECT_EQ(seen["moves"].size(), 1u);
        EXPECT_TRUE(seen.contains("seat"));
    }
}

// A timed two-person table through `kill -9` and a restart: the side to move is charged the
// time thought before the crash and while the server was down (the turn's start is kept), not
// given it back. The wait is a lower bound of the time charged, not a measure of speed.
TEST(ServerRestart, AClockRunsOnThroughACrash) {
    const std::string db = (common::test::testDirectory() / "web.db").string();
    constexpr std::int64_t kTime = 600000;
    constexpr auto kThought = std::chrono::milliseconds(1500);
    std::string id, black;
    {
        auto server = Server::start(db);
        ASSERT_TRUE(server);
        Tab w(server->port);
        w.readState();
        w.send({{"type", "lasca.create"}, {"clock", {{"time", kTime}, {"increment", 0}}}});
        Json created;
        do created = w.read();
        while (created.value("type", "") == "state");
        ASSERT_EQ(created.value("type", ""), "lasca.created") << created.dump();
        id = created["table"];
        black = created["seats"][1]["token"];
        w.send({{"type", "lasca.join"}, {"table", id}, {"token", created["seats"][0]["token"]}});
        const Json ws = w.readState();
        w.send({{"type", "move"}, {"ply", 0}, {"move", ws["legal"][0]["move"]}});
        const Json moved = w.readState();  // Black's turn began before this came
        ASSERT_EQ(moved["clock"].value("running", Json()), "black") << moved.dump();
        std::this_thread::sleep_for(kThought);
        server->process->kill();
    }
    auto server = Server::start(db);
    ASSERT_TRUE(server);
    Tab b(server->port);
    b.readState();
    b.send({{"type", "lasca.join"}, {"table", id}, {"token", black}});
    const Json bs = b.readState();
    ASSERT_TRUE(bs["clock"].is_object()) << bs.dump();
    EXPECT_EQ(bs["clock"].value("running", Json()), "black");
    EXPECT_LE(bs["clock"].value("black", kTime), kTime - kThought.count())
        << "the time thought before the crash was given back";
    EXPECT_EQ(bs["clock"].value("white", 0), kTime) << "White's first move is free";
}

// Every bad form of the two-person table's messages gets exactly one error and changes nothing:
// the tab can still create a table afterwards.
TEST(ServerRestart, BadTableMessagesGetOneErrorEach) {
    auto server = Server::start((common::test::testDirectory() / "web.db").string());
    ASSERT_TRUE(server);
    Tab tab(server->port);
    tab.readState();
    const std::vector<Json> bad = {
        {{"type", "lasca.create"}, {"clock", 5}},
        {{"type", "lasca.create"}, {"clock", {{"time", 999}, {"increment", 0}}}},
        {{"type", "lasca.create"}, {"clock", {{"time", 60000}, {"increment", -1}}}},
        {{"type", "lasca.create"}, {"clock", {{"time", 60000}, {"increment", 0}, {"x", 1}}}},
        {{"type", "lasca.create"}, {"clock", {{"time", 1e300}, {"increment", 0}}}},
        {{"type", "lasca.create"}, {"colour", "white"}},
        {{"type", "lasca.join"}, {"table", "nope"}, {"token", "nope"}},
        {{"type", "lasca.join"}, {"table", 7}, {"token", "nope"}},
        {{"type", "lasca.join"}, {"table", std::string(65, 'a')}, {"token", "x"}},
        {{"type", "lasca.join"}},
        {{"type", "resign"}},
        {{"type", "draw"}, {"offer", true}},
    };
    for (const auto& m : bad) {
        tab.send(m);
        const Json reply = tab.read();
        EXPECT_EQ(reply["type"], "error") << m.dump() << " -> " << reply.dump();
    }
    tab.send({{"type", "lasca.create"}, {"clock", nullptr}});
    Json created;
    do created = tab.read();
    while (created["type"] == "state");
    ASSERT_EQ(created["type"], "lasca.created");
    tab.send({{"type", "lasca.join"},
              {"table", created["table"]},
              {"token", created["seats"][0]["token"]}});
    tab.readState();
    for (const Json& m : std::vector<Json>{{{"type", "draw"}},
                                           {{"type", "draw"}, {"offer", "yes"}},
                                           {{"type", "draw"}, {"offer", false}},
                                           {{"type", "resign"}, {"now", true}},
                                           {{"type", "move"}, {"ply", 3}, {"move", "c3-d4"}},
                                           {{"type", "move"}, {"ply", 0}, {"move", "a1-h8"}},
                                           {{"type", "takeback"}},
                                           {{"type", "analyse"}, {"on", true}}}) {
        tab.send(m);
        const Json reply = tab.read();
        EXPECT_EQ(reply["type"], "error") << m.dump() << " -> " << reply.dump();
    }
}

// Garbled messages from a seat of a two-person table, through the WebSocket: every one is
// answered, the server keeps serving the table, and the seat's link still works afterwards.
TEST(ServerRestart, GarbledTableMessagesThroughTheSocket) {
    auto server = Server::start((common::test::testDirectory() / "web.db").string());
    ASSERT_TRUE(server);
    Tab tab(server->port);
    tab.readState();
    tab.send({{"type", "lasca.create"}, {"clock", {{"time", 600000}, {"increment", 0}}}});
    Json created;
    do created = tab.read();
    while (created["type"] == "state");
    ASSERT_EQ(created["type"], "lasca.created");
    const Json join = {{"type", "lasca.join"},
                       {"table", created["table"]},
                       {"token", created["seats"][0]["token"]}};
    tab.send(join);
    tab.readState();
    const std::vector<std::string> seeds = {
        join.dump(),
        R"({"type":"lasca.create","clock":{"time":60000,"increment":1000}})",
        R"({"type":"move","ply":0,"move":"c3-d4"})",
        R"({"type":"draw","offer":true})",
        R"({"type":"draw","offer":false})",
        R"({"type":"view","ply":0})",
        R"({"type":"line","moves":["c3-d4"]})",
        R"({"type":"delete","moves":["c3-d4"]})",
        R"({"type":"pdn.export"})",
    };
    std::mt19937_64 rng(20261203);
    const std::string alphabet = "{}[]\":,0123456789-.eE truefalsnul\\abcxyz";
    for (int i = 0; i < 400; ++i) {
        std::string text = seeds[rng() % seeds.size()];
        for (int edit = 0; edit < 1 + static_cast<int>(rng() % 3); ++edit) {
            const auto at = static_cast<std::size_t>(rng() % text.size());
            const char c = alphabet[static_cast<std::size_t>(rng() % alphabet.size())];
            if (rng() % 2)
                text[at] = c;
            else
                text.insert(at, 1, c);
        }
        tab.sendText(text);
        const Json reply = tab.read();  // at least one reply to every message
        ASSERT_TRUE(reply.contains("type")) << text;
    }
    Tab again(server->port);
    again.readState();
    again.send(join);
    Json state;
    do state = again.read();
    while (state["type"] != "state" || !state.contains("seat"));
    EXPECT_EQ(state["seat"], "white");
    EXPECT_EQ(state["table"], created["table"]);
}

TEST(ServerRestart, ABadOrHeldDatabaseStopsTheServerWithExitTwo) {
    const auto dir = common::test::testDirectory();
    common::test::writeText(dir / "notes.txt", std::string(4096, 'x'));
    auto notDb = common::ChildProcess::start(
        LASCA_WEB, {"--port", "0", "--db", (dir / "notes.txt").string()}, "");
    ASSERT_TRUE(notDb.ok());
    EXPECT_EQ(notDb.value()->wait(kHangGuard), 2);

    const std::string db = (dir / "web.db").string();
    auto first = Server::start(db);
    ASSERT_TRUE(first);
    auto second = common::ChildProcess::start(LASCA_WEB, {"--port", "0", "--db", db}, "");
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(second.value()->wait(kHangGuard), 2);
    Tab tab(first->port);  // the first goes on
    EXPECT_EQ(tab.readState()["type"], "state");
}

}  // namespace
}  // namespace web::server
