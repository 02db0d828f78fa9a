// Two-person Lasca tables in the real lasca-web: two people and a watcher at one board, the
// newest window of a seat link, a clock that runs on through `kill -9`, and bad or garbled table
// messages, each answered with one error.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>
#include <tuple>

#include "live_server.h"
#include "test_directory.h"
#include "web/store/store.h"

namespace web::server {
using store::Store;

namespace {

using test::createTable;
using test::Json;
using test::kHangGuard;
using test::Server;
using test::Tab;

TEST(ServerRestart, TwoPeoplePlayAtOneBoardAndAWatcherSeesIt) {
    const std::string db = (common::test::testDirectory() / "web.db").string();
    std::string id, white, black, watch;
    std::vector<std::string> moves;
    {
        auto server = Server::start(db);
        ASSERT_TRUE(server);
        Tab creator(server->port);
        std::string unexpected;
        const auto created = createTable(creator, nullptr, &unexpected);
        ASSERT_TRUE(created) << unexpected;
        std::tie(id, white, black, watch) =
            std::tie(created->id, created->white, created->black, created->watch);
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
    std::string unexpected;
    const auto created = createTable(creator, nullptr, &unexpected);
    ASSERT_TRUE(created) << unexpected;
    const auto& [id, white, black, watch] = *created;
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
// given it back. Nothing waits: Black's turn began before its state came, and the clock is read
// after the join was sent, so the time between the two, the crash and the restart included, is a
// lower bound of what Black is charged (less a millisecond: the server counts whole ones).
TEST(ServerRestart, AClockRunsOnThroughACrash) {
    const std::string db = (common::test::testDirectory() / "web.db").string();
    constexpr std::int64_t kTime = 600000;
    std::string id, black;
    std::chrono::steady_clock::time_point turnSeen;
    {
        auto server = Server::start(db);
        ASSERT_TRUE(server);
        Tab w(server->port);
        std::string unexpected;
        const auto created = createTable(w, Json{{"time", kTime}, {"increment", 0}}, &unexpected);
        ASSERT_TRUE(created) << unexpected;
        id = created->id;
        black = created->black;
        w.send({{"type", "lasca.join"}, {"table", id}, {"token", created->white}});
        const Json ws = w.readState();
        w.send({{"type", "move"}, {"ply", 0}, {"move", ws["legal"][0]["move"]}});
        const Json moved = w.readState();  // Black's turn began before this came
        turnSeen = std::chrono::steady_clock::now();
        ASSERT_EQ(moved["clock"].value("running", Json()), "black") << moved.dump();
        server->process->kill();
    }
    auto server = Server::start(db);
    ASSERT_TRUE(server);
    Tab b(server->port);
    b.readState();
    const auto thought = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - turnSeen);
    b.send({{"type", "lasca.join"}, {"table", id}, {"token", black}});
    const Json bs = b.readState();
    ASSERT_TRUE(bs["clock"].is_object()) << bs.dump();
    EXPECT_EQ(bs["clock"].value("running", Json()), "black");
    EXPECT_LE(bs["clock"].value("black", kTime), kTime - thought.count() + 1)
        << "the time thought before the crash (at least " << thought.count()
        << " ms) was given back";
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

}  // namespace
}  // namespace web::server
