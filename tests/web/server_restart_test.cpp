// lasca-web keeps every game through `kill -9` (issue 23): the real server on a database file is
// killed at random points of a game 100 times; after each start on the same file the game,
// joined by its id, goes on from exactly its last committed move (every move the page was shown
// is there; a move sent but not yet answered may or may not be), and SQLite's own check finds
// the file sound. Also: a file that is not a database, or one held by a running server, stops a
// second server at start with exit code 2.
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
#include "web/store.h"

namespace web {
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

    static std::optional<Server> start(const std::string& db) {
        auto started = common::ChildProcess::start(
            LASCA_WEB, {"--port", "0", "--db", db, "--engine", LASCA_ENGINE, "--log-level", "off"},
            "");
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
    explicit Tab(const std::string& port) : ws_(io_) {
        tcp::resolver resolver(io_);
        net::connect(ws_.next_layer(), resolver.resolve("127.0.0.1", port));
        ws_.handshake("127.0.0.1:" + port, "/ws");
    }
    void send(const Json& m) { ws_.write(net::buffer(m.dump())); }
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
}  // namespace web
