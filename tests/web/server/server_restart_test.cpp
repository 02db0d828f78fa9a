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

#include <filesystem>

#include <random>
#include <regex>
#include <thread>

#include "live_server.h"
#include "test_directory.h"
#include "torneio/rules/record.h"
#include "web/store/store.h"

namespace web::server {

using store::Store;

namespace {

using test::Json;
using test::kHangGuard;
using test::Server;
using test::Tab;

TEST(ServerRestart, EveryCommittedMoveSurvivesKillNine) {
    const std::string db = (common::test::testDirectory() / "web.db").string();
    std::mt19937 random(20261202);
    std::string gameId;
    std::vector<std::string> committed;   // the moves the page was shown
    std::optional<std::string> inFlight;  // a move sent when the server was killed
    int restarts = 0, joined = 0, inFlightKept = 0, neverKept = 0;
    for (int round = 0; round < 100; ++round) {
        auto server = Server::start(db);
        ASSERT_TRUE(server) << "round " << round;
        ++restarts;
        Tab tab(server->port);
        Json state = tab.readState();
        Json answer;
        if (!gameId.empty()) {
            tab.send({{"type", "join"}, {"gameId", gameId}});
            answer = tab.read();
            if (answer["type"] == "error" && committed.empty()) {
                // A new game whose first move was in flight when the server was killed and
                // never committed: it was never kept, so it is unknown now.
                ASSERT_TRUE(inFlight) << "round " << round;
                EXPECT_EQ(answer["message"], "no game with id '" + gameId + "'");
                gameId.clear();
                ++joined;
                ++neverKept;
            }
        }
        if (!gameId.empty()) {
            ASSERT_EQ(answer["type"], "state") << "round " << round << ": " << answer.dump();
            state = answer;
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
    std::cout << "in-flight moves found after the restart: " << inFlightKept
              << "; new games whose first move was lost: " << neverKept << "\n";
    auto store = Store::open(db);
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_EQ(store.value()->integrityCheck().value(), "ok");
    const auto kept = store.value()->loadLascaGame(gameId).value();
    if (committed.empty() && !kept) return;  // a new game's first move was in flight
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
        // Each table draws its seed anew: a game that a king found early ends within the eight
        // turns is played again at a new table (ten games all ending so soon would be a fault).
        bool over = true;
        for (int attempt = 0; attempt < 10 && over; ++attempt) {
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
            over = page.over;
            shown = page.lines;
        }
        ASSERT_FALSE(over) << "ten games ended within eight turns: none to replay";
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

// An endgame tables folder that does not open stops the server at start (exit code 2), before
// anyone plays: a missing folder, and one with a corrupted table.
TEST(ServerRestart, ABadEgtbFolderStopsTheServerWithExitTwo) {
    const auto dir = common::test::testDirectory();
    auto missing = common::ChildProcess::start(
        LASCA_WEB, {"--port", "0", "--db", "", "--egtb", (dir / "missing").string()}, "");
    ASSERT_TRUE(missing.ok());
    EXPECT_EQ(missing.value()->wait(kHangGuard), 2);
    std::filesystem::create_directories(dir / "tables");
    common::test::writeText(dir / "tables" / "lasca-1v1-3.egtb", "LASCATB1 not a table");
    auto corrupted = common::ChildProcess::start(
        LASCA_WEB, {"--port", "0", "--db", "", "--egtb", (dir / "tables").string()}, "");
    ASSERT_TRUE(corrupted.ok());
    EXPECT_EQ(corrupted.value()->wait(kHangGuard), 2);
}

// A bad instance name or lease life stops the server at start (exit code 2).
TEST(ServerRestart, ABadInstanceNameOrLeaseStopsTheServerWithExitTwo) {
    for (const std::vector<std::string>& bad : {std::vector<std::string>{"--instance", ""},
                                                {"--instance", "web 1"},
                                                {"--instance", "web1/../x"},
                                                {"--instance", std::string(33, 'w')},
                                                {"--instance", "web1", "--lease-ms", "999"},
                                                {"--instance", "web1", "--lease-ms", "600001"}}) {
        std::vector<std::string> args = {"--port", "0", "--db", ""};
        args.insert(args.end(), bad.begin(), bad.end());
        auto server = common::ChildProcess::start(LASCA_WEB, args, "");
        ASSERT_TRUE(server.ok());
        EXPECT_EQ(server.value()->wait(kHangGuard), 2) << bad.back();
    }
}

}  // namespace
}  // namespace web::server
