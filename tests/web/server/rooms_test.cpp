// The server's rooms with fake connections (no sockets, no event loop run): each tab is a
// FakePeer with its own address, so the limits per address and in all are reached by count.
//   - Torneio (torneio_room.h): one address's tables are capped and refused with the limit named;
//     a table made and left does not block another address's new table; a kept table is
//     restored even when new tables filled the room, and counts against no address.
//   - Two-person tables (duel_room.h): tables whose people left are swept although their clocks
//     run, and restored with the time charged (a flag that fell meanwhile ends the game at once);
//     one address's tables are capped; a tab's analysis copy is keyed by nothing a link holds,
//     and a `join` of the old "table-<id>" key takes nothing.
//   - Lasca games (lasca_room.h): one address's new kept games are capped; beyond the cap a game
//     is played but not kept, and says so.
//   - What the rooms say (messages::Say): every refusal a person can reach at a Lasca table, a
//     two-person table and in the lobby carries a key both catalogues hold, with its English text
//     as "message", and its pt-BR text is another text with every placeholder filled.
#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <cctype>
#include <memory>
#include <string>
#include <vector>

#include "duel_room.h"
#include "fake_peer.h"
#include "lasca/core/position.h"
#include "lasca_room.h"
#include "lobby_room.h"
#include "torneio_room.h"
#include "web/i18n/i18n.h"
#include "web/lasca_tables/duel.h"
#include "web/lasca_tables/lasca_table.h"
#include "web/server/server.h"
#include "web/store/store.h"
#include "web/web_test_util.h"

namespace web::server {
namespace {

using fake::Conn;
using fake::FakePeer;

using lasca_tables::DuelClock;
using lasca_tables::DuelSeat;
using lasca_tables::LascaDuel;
using lasca_tables::LascaTable;

Json ofType(const std::vector<Json>& replies, const std::string& type) {
    return test::lastOfType(replies, type);
}

// A move, resignation or draw offer done: nothing to tell the person.
bool done(const std::optional<messages::Say>& refusal) {
    return !refusal;
}

std::string errorOf(const std::vector<Json>& replies) {
    const Json e = ofType(replies, "error");
    return e.is_null() ? std::string() : e.value("message", e.dump());
}

// ---- Torneio ----

struct TorneioRoomLimits : ::testing::Test {
    boost::asio::io_context io;
    std::unique_ptr<store::Store> db = std::move(store::Store::open("")).value();
    ServerConfig config = [] {
        ServerConfig c;
        c.maxTorneioTables = 3;
        c.maxTorneioTablesPerAddress = 2;
        return c;
    }();
    std::shared_ptr<TorneioRoom> room =
        std::make_shared<TorneioRoom>(config, *db, io.get_executor());
    ~TorneioRoomLimits() override { room->clear(); }

    // A new table of one person and one random player, made from `conn`: its id and the
    // person seat's token, or the error text in `error`.
    std::pair<std::string, std::string> create(Conn& conn, std::string* error = nullptr) {
        const auto replies =
            conn.say({{"type", "torneio.create"},
                      {"seats", Json::array({{{"kind", "person"}}, {{"kind", "random"}}})},
                      {"rounds", 1}});
        const Json made = ofType(replies, "torneio.created");
        if (error) *error = errorOf(replies);
        if (made.is_null()) return {};
        return {made["table"].get<std::string>(), made["seats"][0]["token"].get<std::string>()};
    }
    std::string join(Conn& conn, const std::pair<std::string, std::string>& table) {
        const auto replies =
            conn.say({{"type", "torneio.join"}, {"table", table.first}, {"token", table.second}});
        if (ofType(replies, "torneio.joined").is_null()) return "not joined: " + errorOf(replies);
        return "";
    }
};

TEST_F(TorneioRoomLimits, OneAddressHasAtMostItsLimitOfTablesOnTheServer) {
    Conn a1(*room, "10.0.0.1"), a2(*room, "10.0.0.1"), a3(*room, "10.0.0.1");
    const auto t1 = create(a1);
    ASSERT_FALSE(t1.first.empty());
    EXPECT_EQ(join(a1, t1), "");
    const auto t2 = create(a2);
    ASSERT_FALSE(t2.first.empty());
    EXPECT_EQ(join(a2, t2), "");
    std::string error;
    EXPECT_TRUE(create(a3, &error).first.empty());
    EXPECT_NE(error.find("already has 2 Torneio tables"), std::string::npos) << error;
    // Another address is not held back by it.
    Conn b(*room, "10.0.0.2");
    EXPECT_FALSE(create(b).first.empty());
}

TEST_F(TorneioRoomLimits, TablesMadeAndLeftDoNotBlockOthersAndKeptOnesAlwaysComeBack) {
    // One tab makes as many tables as the room holds, and leaves without showing any.
    Conn burst1(*room, "10.0.0.9"), burst2(*room, "10.0.0.8"), burst3(*room, "10.0.0.7");
    const auto left = create(burst1);
    ASSERT_FALSE(left.first.empty());
    ASSERT_FALSE(create(burst2).first.empty());
    ASSERT_FALSE(create(burst3).first.empty());
    burst1.close();
    burst2.close();
    burst3.close();
    // Three people make a table each and sit at it: the tables nobody shows make room.
    Conn p1(*room, "10.0.1.1"), p2(*room, "10.0.1.2"), p3(*room, "10.0.1.3");
    for (Conn* p : {&p1, &p2, &p3}) {
        std::string error;
        const auto table = create(*p, &error);
        ASSERT_FALSE(table.first.empty()) << error;
        EXPECT_EQ(join(*p, table), "");
    }
    // The room is full of shown tables: a new one is refused ...
    Conn late(*room, "10.0.1.4");
    std::string error;
    EXPECT_TRUE(create(late, &error).first.empty());
    EXPECT_NE(error.find("too many Torneio tables"), std::string::npos) << error;
    // ... but a kept table's link still brings its table back.
    Conn back(*room, "10.0.0.9");
    EXPECT_EQ(join(back, left), "");
    // A restored table counts against nobody: its maker's address may still make its two.
    Conn back2(*room, "10.0.0.9"), back3(*room, "10.0.0.9");
    p1.close();  // room for new tables again
    p2.close();
    p3.close();
    const auto again = create(back2);
    ASSERT_FALSE(again.first.empty());
    EXPECT_EQ(join(back2, again), "");
    EXPECT_FALSE(create(back3).first.empty()) << "the restored table is not counted";
}

// ---- Two-person tables ----

class FakeWatcher : public DuelWatcher {
  public:
    void duelChanged(const std::optional<messages::Say>&) override { ++changes; }
    void seatTakenElsewhere() override { ++taken; }
    void tableMoved() override { ++moved; }
    int changes = 0;
    int taken = 0;
    int moved = 0;
};

struct DuelRoomLimits : ::testing::Test {
    boost::asio::io_context io;
    std::unique_ptr<store::Store> db = std::move(store::Store::open("")).value();
    std::shared_ptr<DuelRoom> room = std::make_shared<DuelRoom>(io.get_executor(), *db, 3, 2);
    std::shared_ptr<test::FakeEngineLog> engineLog = std::make_shared<test::FakeEngineLog>();

    // One seat of a table shown in a tab of its own.
    struct Seat {
        std::shared_ptr<FakeWatcher> watcher = std::make_shared<FakeWatcher>();
        DuelBinding binding;
        std::unique_ptr<LascaTable> view;
        std::vector<Json> joined;
    };
    struct Made {
        std::string id;
        std::vector<std::string> tokens;  // white, black, watch
        std::string error;
    };
    Made create(const std::string& address, const Json& clock = nullptr) {
        const auto replies =
            room->create({{"type", "lasca.create"}, {"clock", clock}}, "", address);
        const Json made = ofType(replies, "lasca.created");
        if (made.is_null()) return {"", {}, errorOf(replies)};
        return {made["table"].get<std::string>(),
                {made["seats"][0]["token"].get<std::string>(),
                 made["seats"][1]["token"].get<std::string>(), made["watch"].get<std::string>()},
                ""};
    }
    std::unique_ptr<Seat> join(const std::string& id, const std::string& token) {
        auto seat = std::make_unique<Seat>();
        seat->view = std::make_unique<LascaTable>(test::fakeFactory(engineLog));
        seat->view->hello();
        seat->joined = room->join({{"type", "lasca.join"}, {"table", id}, {"token", token}},
                                  seat->watcher, seat->binding, *seat->view);
        return seat;
    }
};

const Json kDayClock = {{"time", 86400000}, {"increment", 0}};

TEST_F(DuelRoomLimits, TablesWhosePeopleLeftAreSweptThoughTheirClocksRun) {
    std::vector<Made> tables;
    for (int i = 0; i < 3; ++i) {
        tables.push_back(create("10.0.0." + std::to_string(i), kDayClock));
        ASSERT_EQ(tables.back().error, "");
        auto white = join(tables.back().id, tables.back().tokens[0]);
        ASSERT_FALSE(ofType(white->joined, "state").is_null()) << white->joined.back().dump();
        EXPECT_TRUE(room->handle({{"type", "move"}, {"ply", 0}, {"move", "c3-d4"}}, "move",
                                 white->binding, *white->view)
                        .empty());
    }  // every tab closed: three tables with a running clock, nobody there
    const auto made = create("10.0.1.1");
    EXPECT_EQ(made.error, "") << "a running clock kept an abandoned table on the server";
    // An abandoned table comes back from the store when its link joins, its move kept.
    auto back = join(tables[0].id, tables[0].tokens[1]);
    const Json state = ofType(back->joined, "state");
    ASSERT_FALSE(state.is_null()) << back->joined.back().dump();
    EXPECT_EQ(state["moves"].size(), 1u);
    EXPECT_EQ(state["clock"]["running"], "black");
}

TEST_F(DuelRoomLimits, ATableLetGoTellsItsTabsAndComesBackFromTheStore) {
    db->setHome("web1", 600000);  // one of several instances (store_homes_test: the leases)
    ASSERT_TRUE(db->renewHome().ok());
    const auto made = create("10.0.0.1", kDayClock);
    ASSERT_EQ(made.error, "");
    EXPECT_TRUE(db->holds(store::homeKey("duel", made.id)));
    auto white = join(made.id, made.tokens[0]);
    auto watcher = join(made.id, made.tokens[2]);
    EXPECT_TRUE(room->handle({{"type", "move"}, {"ply", 0}, {"move", "c3-d4"}}, "move",
                             white->binding, *white->view)
                    .empty());
    room->letGo(made.id);  // another instance holds it now
    EXPECT_EQ(white->watcher->moved, 1);
    EXPECT_EQ(watcher->watcher->moved, 1);
    EXPECT_EQ(room->size(), 0U);
    room->letGo("no-such-table");  // nothing to tell
    auto back = join(made.id, made.tokens[1]);
    const Json state = ofType(back->joined, "state");
    ASSERT_FALSE(state.is_null()) << back->joined.back().dump();
    EXPECT_EQ(state["moves"].size(), 1u);
    EXPECT_EQ(white->watcher->moved, 1) << "told once";
}

TEST_F(DuelRoomLimits, AFlagThatFellWhileTheTableWasAwayEndsTheGameWhenItComesBack) {
    const std::int64_t start = nowMilliseconds() - 600000;  // ten minutes ago
    auto duel = LascaDuel::create("awaytable", DuelClock{60000, 0}, start).value();
    const auto tokens = duel.takeTokens();
    ASSERT_TRUE(done(duel.move(DuelSeat::White, "c3-d4", start)));
    ASSERT_TRUE(db->saveDuel(duel.stored(start)).ok());
    auto white = join("awaytable", tokens[0]);
    const Json state = ofType(white->joined, "state");
    ASSERT_FALSE(state.is_null()) << white->joined.back().dump();
    EXPECT_EQ(state["status"]["over"], true) << state.dump();
    EXPECT_EQ(state["status"]["rule"], "time");
    EXPECT_EQ(state["status"]["result"], "2-0");
    EXPECT_EQ(db->loadDuel("awaytable").value()->result, "2-0") << "kept as it is shown";
}

TEST_F(DuelRoomLimits, OneAddressHasAtMostItsLimitOfTablesOnTheServer) {
    std::vector<std::unique_ptr<Seat>> seats;
    for (int i = 0; i < 2; ++i) {
        const auto made = create("10.0.0.1");
        ASSERT_EQ(made.error, "");
        seats.push_back(join(made.id, made.tokens[0]));
    }
    const auto refused = create("10.0.0.1");
    EXPECT_NE(refused.error.find("already has 2 two-person tables"), std::string::npos)
        << refused.error;
    EXPECT_EQ(create("10.0.0.2").error, "");
    seats.pop_back();  // one of its tabs closes: its table goes, and the address may make one
    EXPECT_EQ(create("10.0.0.1").error, "");
}

TEST_F(DuelRoomLimits, TheAnalysisCopyIsKeyedByNothingALinkHolds) {
    const auto made = create("10.0.0.1");
    auto white = join(made.id, made.tokens[0]);
    auto watcher = join(made.id, made.tokens[2]);
    for (const auto* seat : {white.get(), watcher.get()}) {
        const std::string copy = seat->view->gameId();
        EXPECT_EQ(copy, seat->binding.copyId);
        EXPECT_EQ(copy.find(made.id), std::string::npos) << copy;
        EXPECT_FALSE(copy.starts_with("table-")) << copy;
        for (const auto& r : seat->joined) EXPECT_FALSE(r.contains("gameId")) << r.dump();
    }
    EXPECT_NE(white->view->gameId(), watcher->view->gameId());
}

// ---- Lasca tabs ----

struct LascaRoomLimits : ::testing::Test {
    boost::asio::io_context io;
    std::unique_ptr<store::Store> db = std::move(store::Store::open("")).value();
    ServerConfig config = [] {
        ServerConfig c;
        c.enginePath = LASCA_ENGINE;
        c.maxGamesPerAddress = 2;
        return c;
    }();
    std::shared_ptr<DuelRoom> duels =
        std::make_shared<DuelRoom>(io.get_executor(), *db, 10, config.maxDuelsPerAddress);
    std::shared_ptr<LascaRoom> room =
        std::make_shared<LascaRoom>(config, *db, duels, io.get_executor());
    ~LascaRoomLimits() override { duels->clear(); }

    // A game of people both sides with its first move played (the game's first save).
    std::vector<Json> playOne(Conn& conn) {
        conn.say({{"type", "new"}, {"engine", "none"}});
        return conn.say({{"type", "move"}, {"ply", 0}, {"move", "c3-d4"}});
    }
    // The next move of the tab's game: the first legal one of the state it was last sent.
    std::vector<Json> playNext(Conn& conn) {
        const Json state = ofType(conn.peer->received, "state");
        return conn.say({{"type", "move"},
                         {"ply", state["moves"].size()},
                         {"move", state["legal"][0]["move"]}});
    }
};

TEST_F(LascaRoomLimits, OneAddressKeepsAtMostItsLimitOfNewGamesAnHour) {
    Conn a1(*room, "10.0.0.1"), a2(*room, "10.0.0.1"), a3(*room, "10.0.0.1");
    for (Conn* a : {&a1, &a2}) {
        const auto replies = playOne(*a);
        EXPECT_EQ(errorOf(replies), "");
        EXPECT_EQ(ofType(replies, "state")["kept"], true);
    }
    EXPECT_EQ(db->lascaGameCount().value(), 2);
    const auto third = playOne(a3);
    EXPECT_NE(errorOf(third).find("started 2 kept games within the hour"), std::string::npos)
        << errorOf(third);
    const Json state = ofType(third, "state");
    ASSERT_FALSE(state.is_null());
    EXPECT_EQ(state["kept"], false) << "the page leaves no link that would not come back";
    EXPECT_EQ(state["moves"].size(), 1u) << "the game is played";
    const auto more = playNext(a3);
    EXPECT_EQ(errorOf(more), "") << "told once";
    EXPECT_EQ(ofType(more, "state")["kept"], false);
    EXPECT_EQ(db->lascaGameCount().value(), 2) << "nothing of it is kept";
    // Kept games go on being saved; another address has its own count.
    const auto kept =
        ofType(a1.say({{"type", "view"}, {"ply", 1}}), "state")["gameId"].get<std::string>();
    EXPECT_EQ(errorOf(playNext(a1)), "");
    EXPECT_EQ(db->loadLascaGame(kept).value()->moves.size(), 2u);
    Conn b(*room, "10.0.0.2");
    EXPECT_EQ(errorOf(playOne(b)), "");
    EXPECT_EQ(db->lascaGameCount().value(), 3);
    // Rejoining a kept game takes nothing.
    Conn a4(*room, "10.0.0.1");
    const auto rejoined = a4.say({{"type", "join"}, {"gameId", kept}});
    EXPECT_EQ(errorOf(rejoined), "");
    EXPECT_EQ(ofType(rejoined, "state")["gameId"], kept);
}

TEST_F(LascaRoomLimits, PracticeGamesAreNeverKeptAndTakeNothing) {
    Conn a(*room, "10.0.0.1");
    const auto said = a.say({{"type", "keep"}, {"keep", false}});
    EXPECT_EQ(ofType(said, "keep")["keep"], false) << errorOf(said);
    for (int game = 0; game < 3; ++game) {  // more than the address's kept games
        const auto replies = playOne(a);
        EXPECT_EQ(errorOf(replies), "") << "a practice game is not over any limit";
        EXPECT_EQ(ofType(replies, "state")["kept"], false);
        EXPECT_EQ(ofType(replies, "state")["moves"].size(), 1u) << "and is played";
        EXPECT_EQ(errorOf(playNext(a)), "");
    }
    EXPECT_EQ(db->lascaGameCount().value(), 0) << "nothing of practice is kept";
    // The address's kept games are all still there to take.
    Conn b1(*room, "10.0.0.1"), b2(*room, "10.0.0.1");
    for (Conn* b : {&b1, &b2}) EXPECT_EQ(ofType(playOne(*b), "state")["kept"], true);
    // A kept game stays kept; bad values are refused with the setting unchanged.
    EXPECT_NE(errorOf(b1.say({{"type", "keep"}, {"keep", false}})).find("already kept"),
              std::string::npos);
    EXPECT_NE(errorOf(a.say({{"type", "keep"}, {"keep", "no"}})), "");
    EXPECT_NE(errorOf(a.say({{"type", "keep"}})), "");
    EXPECT_EQ(ofType(playOne(a), "state")["kept"], false);
    EXPECT_EQ(db->lascaGameCount().value(), 2);
}

TEST_F(LascaRoomLimits, AJoinOfATableKeyTakesNothing) {
    // A copy kept under the old key, "table-" and the table's id (which every link holds).
    store::StoredLascaGame copy;
    copy.id = "table-0123456789abcdef";
    copy.startLfen = lasca::Position::startPosition().toLfen();
    copy.moves = {"c3-d4"};
    copy.engine = "none";
    ASSERT_TRUE(db->saveLascaGame(copy).ok());
    Conn watcher(*room, "10.0.0.1");
    const auto replies = watcher.say({{"type", "join"}, {"gameId", copy.id}});
    EXPECT_NE(errorOf(replies).find("no game with id"), std::string::npos) << errorOf(replies);
    EXPECT_TRUE(ofType(replies, "state").is_null());
}

// ---- What the rooms say ----

// `said` ({"key","params","message"} or {..."text"}) is `key`: in both catalogues, the English
// text the one sent, and the pt-BR text another one with every placeholder filled.
// An account of the store (the rooms keep its games and seeks under its id).
Person account(store::Store& db, const std::string& name) {
    std::string key = name;
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto made = db.createAccount(name, key, "", 0);
    EXPECT_TRUE(made.ok() && made.value()) << name;
    return {made.ok() && made.value() ? made.value()->id : 0, name};
}

void expectSaid(const Json& said, const std::string& key) {
    SCOPED_TRACE(said.dump());
    ASSERT_TRUE(said.is_object());
    EXPECT_EQ(said.value("key", ""), key);
    const Json params = said.value("params", Json::object());
    web::test::expectSaidInBothLanguages(key, params, "said");
    EXPECT_EQ(said.value("message", said.value("text", "")),
              i18n::builtIn().text("en", key, params));
}

// The last error among `replies`, which must be `key`.
void expectRefused(const std::vector<Json>& replies, const std::string& key) {
    const Json error = ofType(replies, "error");
    ASSERT_FALSE(error.is_null()) << "no error for " << key;
    expectSaid(error, key);
}

TEST_F(LascaRoomLimits, EveryRefusalAtALascaTableIsSaidInBothLanguages) {
    Conn a(*room, "10.0.0.1");
    a.say({{"type", "new"}, {"engine", "none"}});
    expectRefused(a.say({{"type", "takeback"}}), "server.lasca.noTakeback");
    expectRefused(a.say({{"type", "annotate"}, {"nodes", 1000}}), "server.lasca.nothingToAnnotate");
    expectRefused(a.say({{"type", "annotate"}, {"cancel", true}}), "server.lasca.noAnnotation");
    expectRefused(a.say({{"type", "move"}, {"ply", 0}, {"move", "a1-b2"}}),
                  "server.lasca.move.illegal");
    expectRefused(a.say({{"type", "move"}, {"ply", 0}, {"move", "c3xd4"}}),
                  "server.lasca.move.stepWithX");
    expectRefused(a.say({{"type", "move"}, {"ply", 0}, {"move", "z9-d4"}}),
                  "server.lasca.move.unreadable");
    expectRefused(a.say({{"type", "preview"}, {"ply", 0}, {"moves", {"a1-b2"}}}),
                  "server.lasca.move.illegal");
    expectRefused(a.say({{"type", "line"}, {"moves", {"e3-f4"}}}), "server.lasca.lineGone");
    expectRefused(a.say({{"type", "delete"}, {"moves", Json::array()}}),
                  "server.lasca.deleteStart");
    expectRefused(a.say({{"type", "lfen"}, {"lfen", "not a position"}}), "server.lasca.badLfen");
    expectRefused(a.say({{"type", "pdn.import"}, {"pdn", "1. a1-b2 *"}}),
                  "server.lasca.pdn.badMove");
    expectRefused(a.say({{"type", "resign"}}), "server.lasca.notAtTable");
    expectRefused(a.say({{"type", "join"}, {"gameId", "0123456789abcdef"}}), "server.lasca.noGame");
    // The end of a game: its words in the status; a move after it refused.
    const auto ended = a.say(
        {{"type", "lfen"}, {"lfen", "-,-,-,-/-,-,-/-,-,-,-/-,b,-/-,-,-,-/-,-,-/-,-,-,- w 0 1"}});
    expectSaid(ofType(ended, "state")["status"], "server.lasca.end.blackWins");
    expectRefused(a.say({{"type", "move"}, {"ply", 0}, {"move", "c3-d4"}}),
                  "server.lasca.gameOver");
    // A program's malformed message: its English detail, under server.error.refused.
    expectRefused(a.say({{"type", "move"}, {"ply", "0"}}), "server.error.refused");
    // A kept game stays kept; beyond the address's kept games (the set position took the first
    // of its two) a game is played, not kept.
    Conn b(*room, "10.0.0.1"), c(*room, "10.0.0.1");
    playOne(b);
    expectRefused(b.say({{"type", "keep"}, {"keep", false}}), "server.lasca.alreadyKept");
    expectRefused(playOne(c), "server.lasca.notKept");
    // A game opened in another tab leaves the first one, which is told.
    const auto kept =
        ofType(b.say({{"type", "view"}, {"ply", 1}}), "state")["gameId"].get<std::string>();
    Conn d(*room, "10.0.0.1");
    d.say({{"type", "join"}, {"gameId", kept}});
    expectRefused(b.peer->received, "server.lasca.openedElsewhere");
}

TEST_F(DuelRoomLimits, EveryRefusalAtATwoPersonTableIsSaidInBothLanguages) {
    const auto made = create("10.0.0.1", kDayClock);
    auto white = join(made.id, made.tokens[0]);
    auto black = join(made.id, made.tokens[1]);
    auto watcher = join(made.id, made.tokens[2]);
    const auto act = [&](Seat& seat, const Json& m) {
        return room->handle(m, m["type"].get<std::string>(), seat.binding, *seat.view);
    };
    const Json first = {{"type", "move"}, {"ply", 0}, {"move", "c3-d4"}};
    expectRefused(act(*black, first), "server.duel.notYourTurn");
    expectRefused(act(*watcher, first), "server.duel.watcherMove");
    expectRefused(act(*watcher, {{"type", "resign"}}), "server.duel.watcherResign");
    expectRefused(act(*watcher, {{"type", "draw"}, {"offer", true}}), "server.duel.watcherDraw");
    expectRefused(act(*white, {{"type", "move"}, {"ply", 0}, {"move", "a1-b2"}}),
                  "server.lasca.move.illegal");
    expectRefused(act(*white, {{"type", "move"}, {"ply", 1}, {"move", "c3-d4"}}),
                  "server.duel.moveAtEnd");
    expectRefused(act(*white, {{"type", "draw"}, {"offer", false}}), "server.duel.noDrawOffer");
    EXPECT_TRUE(act(*white, {{"type", "draw"}, {"offer", true}}).empty());
    expectRefused(act(*white, {{"type", "draw"}, {"offer", true}}), "server.duel.drawOffered");
    expectRefused(act(*white, {{"type", "analyse"}, {"on", true}}), "server.duel.noAnalysisYet");
    expectRefused(act(*white, {{"type", "new"}}), "server.duel.tableTab");
    EXPECT_TRUE(act(*white, {{"type", "resign"}}).empty());
    expectRefused(act(*black, first), "server.lasca.gameOver");
    // The end's words in every state of the table.
    expectSaid(ofType(room->view(black->binding, *black->view, false), "state")["status"],
               "server.duel.end.whiteResigned");
    // Links that open nothing; a table no longer on the server.
    expectRefused(join(made.id, "0123456789abcdef0123456789abcdef")->joined, "server.duel.noSeat");
    expectRefused(join("0123456789abcdef", made.tokens[0])->joined, "server.duel.noTable");
    DuelBinding gone;
    gone.id = "0123456789abcdef";
    expectRefused(room->handle(first, "move", gone, *white->view), "server.duel.gone");
    // Rated tables: an account to make one or sit at one, a clock, both seats claimed to start.
    const Person ana = account(*db, "ana"), bo = account(*db, "bo");
    const Json rated = {{"type", "lasca.create"}, {"clock", kDayClock}, {"rated", true}};
    expectRefused(room->create(rated, "", "10.0.0.2"), "server.duel.signInToMakeRated");
    expectRefused(room->create({{"type", "lasca.create"}, {"clock", nullptr}, {"rated", true}}, "",
                               "10.0.0.2", ana),
                  "server.duel.ratedNeedsClock");
    const Json ratedTable = ofType(room->create(rated, "", "10.0.0.2", ana), "lasca.created");
    ASSERT_FALSE(ratedTable.is_null());
    const auto seatOf = [&](int i, const std::optional<Person>& person) {
        auto seat = std::make_unique<Seat>();
        seat->view = std::make_unique<LascaTable>(test::fakeFactory(engineLog));
        seat->view->hello();
        seat->joined =
            room->join({{"type", "lasca.join"},
                        {"table", ratedTable["table"]},
                        {"token", ratedTable["seats"][static_cast<std::size_t>(i)]["token"]}},
                       seat->watcher, seat->binding, *seat->view, person);
        return seat;
    };
    expectRefused(seatOf(0, std::nullopt)->joined, "server.duel.signInToPlayRated");
    auto anaWhite = seatOf(0, ana);
    EXPECT_TRUE(ofType(anaWhite->joined, "error").is_null()) << anaWhite->joined.back().dump();
    expectRefused(seatOf(0, bo)->joined, "server.duel.seatTaken");
    expectRefused(seatOf(1, ana)->joined, "server.duel.otherSeatYours");
    expectRefused(act(*anaWhite, first), "server.duel.ratedNotStarted");
    // One address's tables are capped (those shown in a tab stay).
    const auto second = create("10.0.0.1");
    auto shown = join(second.id, second.tokens[0]);
    expectRefused(room->create({{"type", "lasca.create"}}, "", "10.0.0.1"),
                  "server.duel.addressLimit");
}

TEST(LobbyRoomSays, EveryRefusalInTheLobbyIsSaidInBothLanguages) {
    boost::asio::io_context io;
    auto db = std::move(store::Store::open("")).value();
    auto duels = std::make_shared<DuelRoom>(io.get_executor(), *db, 10, 10);
    auto lobby = std::make_shared<LobbyRoom>(io.get_executor(), *db, duels, nullptr, 3);
    Conn guest(*lobby, "10.0.0.1");
    Conn ana(*lobby, "10.0.0.2", account(*db, "Ana"));
    Conn bo(*lobby, "10.0.0.3", account(*db, "Bo"));
    // The reasons to decline a challenge, each a text of both catalogues.
    const Json hello = ofType(ana.peer->received, "lobby.hello");
    ASSERT_EQ(hello["reasons"].size(), lobby::kDeclineReasons.size());
    for (const auto& r : hello["reasons"])
        expectSaid(r, "server.lobby.decline." + r.value("reason", ""));
    const Json blitz = {{"time", 180000}, {"increment", 2000}};
    expectRefused(guest.say({{"type", "seek.create"}, {"clock", blitz}, {"rated", true}}),
                  "server.lobby.signInToSeek");
    expectRefused(guest.say({{"type", "seek.accept"}, {"seek", "0123456789abcdef"}}),
                  "server.lobby.seekGone");
    expectRefused(guest.say({{"type", "seek.cancel"}, {"seek", "0123456789abcdef"}}),
                  "server.lobby.notYourSeek");
    ana.say({{"type", "seek.create"}, {"clock", blitz}, {"rated", true}});
    const Json seek = ofType(ana.peer->received, "lobby.seek")["seek"];
    ASSERT_FALSE(seek.is_null());
    expectRefused(ana.say({{"type", "seek.accept"}, {"seek", seek["id"]}}), "server.lobby.ownSeek");
    expectRefused(guest.say({{"type", "seek.accept"}, {"seek", seek["id"]}}),
                  "server.lobby.signInToAccept");
    // Challenges: an account to send one, a person in the lobby to receive it, and not oneself.
    const Json challenge = {{"type", "challenge.create"}, {"clock", blitz}, {"rated", false}};
    auto to = [&](const std::string& name) {
        Json m = challenge;
        m["to"] = name;
        return m;
    };
    expectRefused(guest.say(to("Ana")), "server.lobby.signInToChallenge");
    expectRefused(bo.say(to("Nobody")), "server.lobby.notInLobby");
    expectRefused(bo.say(to("bo")), "server.lobby.challengeSelf");
    expectRefused(bo.say({{"type", "challenge.accept"}, {"challenge", "0123456789abcdef"}}),
                  "server.lobby.challengeGone");
    EXPECT_TRUE(ofType(bo.say(to("Ana")), "error").is_null());
    const Json sent = ofType(bo.peer->received, "lobby.challenge")["challenge"];
    ASSERT_FALSE(sent.is_null());
    expectRefused(bo.say({{"type", "challenge.accept"}, {"challenge", sent["id"]}}),
                  "server.lobby.challengeNotYours");
    expectRefused(ana.say({{"type", "challenge.cancel"}, {"challenge", sent["id"]}}),
                  "server.lobby.notYourChallenge");
    ana.say({{"type", "challenge.decline"}, {"challenge", sent["id"]}, {"reason", "tooFast"}});
    const Json declined = ofType(bo.peer->received, "lobby.challengeGone");
    EXPECT_EQ(declined["reason"], "tooFast");
    expectSaid(declined, "server.lobby.decline.tooFast");
    // Torneio offers: a table that is gone, a seat not taken.
    expectRefused(guest.say({{"type", "torneio.sit"}, {"offer", "0123456789abcdef"}}),
                  "server.lobby.offerGone");
    // A program's malformed message: its English detail.
    expectRefused(guest.say({{"type", "seek.accept"}}), "server.error.refused");
}

}  // namespace
}  // namespace web::server
