// The web server's database alone (include/web/store/store.h), on either back end: games saved and
// loaded whole, moves kept as rows (a taken-back or changed tail replaced), Torneio tables with
// their seats and decisions as they grow, the games list (nothing secret in it), the schema
// version and the migrations from an empty database and from version 1, and every bad database
// refused at open with one line: not a database, a newer schema, held by another server,
// unwritable; on PostgreSQL no such database, no server, a password never shown; a lost link made
// again.
#include "web/store/store.h"
#include "store_test_support.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "test_directory.h"

namespace web::store {
namespace {

using test::openOrFail;
using StoreGames = test::StoreTest;

StoredLascaGame sampleGame(const std::string& id, std::vector<std::string> moves) {
    StoredLascaGame game;
    game.id = id;
    game.startLfen = "W:a1";  // the store keeps text; the table checks it on restore
    game.moves = std::move(moves);
    game.engine = "white";
    game.level = 5;
    game.analysing = true;
    game.multiPv = 3;
    game.created = 1700000000000;
    game.updated = 1700000000500;
    game.tree = R"({"moves":["c3-d4"],"comments":[],"variations":[]})";
    return game;
}

TEST_F(StoreGames, AGameIsSavedAndLoadedWhole) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    EXPECT_EQ(store->schemaVersion(), Store::kSchemaVersion);
    const auto game = sampleGame("g1", {"c3-d4", "d6-c5", "b2-c3"});
    ASSERT_TRUE(store->saveLascaGame(game).ok());
    auto loaded = store->loadLascaGame("g1");
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    ASSERT_TRUE(loaded.value().has_value());
    EXPECT_EQ(*loaded.value(), game);
    auto missing = store->loadLascaGame("nope");
    ASSERT_TRUE(missing.ok());
    EXPECT_FALSE(missing.value().has_value());
    EXPECT_EQ(store->lascaGameCount().value(), 1);
}

// Saving again keeps the agreeing moves and replaces the rest: a move added, a takeback, a
// different move at a ply, a new game under the same id.
TEST_F(StoreGames, SavingAgainFollowsTheGame) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    auto game = sampleGame("g", {"c3-d4"});
    for (const std::vector<std::string>& moves : std::vector<std::vector<std::string>>{
             {"c3-d4", "d6-c5"}, {"c3-d4"}, {"c3-b4", "b6-a5", "a3-b4"}, {"c3-b4", "b6-c5"}, {}}) {
        game.moves = moves;
        game.result = moves.empty() ? "*" : "2-0";
        ASSERT_TRUE(store->saveLascaGame(game).ok());
        EXPECT_EQ(store->loadLascaGame("g").value()->moves, moves);
        EXPECT_EQ(store->loadLascaGame("g").value()->result, game.result);
    }
    EXPECT_EQ(store->lascaGameCount().value(), 1);
}

// A file keeps its games across a close and an open, carries the schema version, and its own
// check finds it sound.
TEST_F(StoreGames, AFileKeepsItsGamesAcrossOpens) {
    const auto path = place("web.db");
    {
        auto store = openOrFail(path);
        ASSERT_TRUE(store);
        ASSERT_TRUE(store->saveLascaGame(sampleGame("a", {"c3-d4"})).ok());
        ASSERT_TRUE(store->saveLascaGame(sampleGame("b", {})).ok());
    }
    auto store = openOrFail(path);
    ASSERT_TRUE(store);
    EXPECT_EQ(store->lascaGameCount().value(), 2);
    EXPECT_EQ(store->loadLascaGame("a").value()->moves, std::vector<std::string>{"c3-d4"});
    EXPECT_EQ(store->integrityCheck().value(), "ok");
}

// An empty database of version 0 (a table of someone else's in it) is migrated; a database of
// a newer schema is refused, left as it was.
TEST_F(StoreGames, MigratesFromVersionZeroAndRefusesANewerSchema) {
    const auto fresh = place("fresh.db");
    ASSERT_TRUE(execRaw(fresh, "CREATE TABLE unrelated (x INTEGER)"));
    {
        auto store = openOrFail(fresh);
        ASSERT_TRUE(store);
        EXPECT_EQ(store->schemaVersion(), Store::kSchemaVersion);
        EXPECT_TRUE(store->saveLascaGame(sampleGame("m", {"c3-d4"})).ok());
    }
    const auto newer = place("newer.db");
    ASSERT_TRUE(setVersion(newer, 99));
    auto refused = Store::open(newer);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().find("newer schema (version 99"), std::string::npos)
        << refused.error();
}

// SQLite: a file that is not a database, a missing folder, a file another server holds, an
// unwritable folder. PostgreSQL: a database that does not exist, a server that is not there,
// and a password that never shows in the message.
TEST_F(StoreGames, BadFilesAreRefusedWithOneLine) {
    const auto dir = common::test::testDirectory();
    if constexpr (backend() == Backend::PostgreSQL) {
        const auto there = place("there");
        const auto host = there.substr(there.find("host="));  // host=<folder>&user=postgres
        auto missing = Store::open("postgresql:///no_such_db?" + host);
        ASSERT_FALSE(missing.ok());
        EXPECT_NE(missing.error().find("cannot open"), std::string::npos) << missing.error();
        EXPECT_NE(missing.error().find("no_such_db"), std::string::npos) << missing.error();
        EXPECT_EQ(missing.error().find('\n'), std::string::npos) << missing.error();

        auto nobody = Store::open("postgresql:///x?host=" + dir.string());  // no server there
        ASSERT_FALSE(nobody.ok());
        EXPECT_NE(nobody.error().find("cannot be reached"), std::string::npos) << nobody.error();

        auto secret = Store::open("postgresql://postgres:sesame@/x?host=" + dir.string() +
                                  "&password=sesame");
        ASSERT_FALSE(secret.ok());
        EXPECT_EQ(secret.error().find("sesame"), std::string::npos) << secret.error();
        EXPECT_NE(secret.error().find("***"), std::string::npos) << secret.error();
        return;
    }
    const auto text = dir / "notes.txt";
    common::test::writeText(text, std::string(4096, 'x'));
    auto notDb = Store::open(text.string());
    ASSERT_FALSE(notDb.ok());
    EXPECT_NE(notDb.error().find("not a database"), std::string::npos) << notDb.error();
    EXPECT_EQ(common::test::readText(text), std::string(4096, 'x'));  // left alone

    auto noFolder = Store::open((dir / "missing" / "web.db").string());
    EXPECT_FALSE(noFolder.ok());

    const auto held = (dir / "held.db").string();
    auto first = openOrFail(held);
    ASSERT_TRUE(first);
    auto second = Store::open(held);
    ASSERT_FALSE(second.ok());
    EXPECT_NE(second.error().find("in use by another server"), std::string::npos) << second.error();
    EXPECT_TRUE(first->saveLascaGame(sampleGame("x", {})).ok());  // the first goes on

    if (::geteuid() != 0) {  // root writes anyway
        const auto locked = dir / "ro";
        std::filesystem::create_directories(locked);
        ::chmod(locked.c_str(), 0500);
        EXPECT_FALSE(Store::open((locked / "web.db").string()).ok());
        ::chmod(locked.c_str(), 0700);
    }
}

// PostgreSQL: a link the server drops (its backend ended, as a restart of the server ends it) is
// made again by the next call, whose first statement (a BEGIN, a read) is sent again on the new
// link: a write and a read after it both succeed, and nothing committed is lost. (SQLite has no
// link to lose: the test runs there as a close and an open.)
TEST_F(StoreGames, ALostLinkIsMadeAgainByTheNextCall) {
    const auto where = place("link");
    auto store = openOrFail(where);
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->saveLascaGame(sampleGame("kept", {"c3-d4"})).ok());
    if constexpr (backend() == Backend::PostgreSQL) {
        const std::string scheme = "postgresql:///";
        const auto db = where.substr(scheme.size(), where.find('?') - scheme.size());
        const std::string endLinks =
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + db +
            "' AND pid <> pg_backend_pid()";
        ASSERT_TRUE(execRaw(where, endLinks));
        const auto written = store->saveLascaGame(sampleGame("first", {"c3-d4"}));
        EXPECT_TRUE(written.ok()) << written.error();
        ASSERT_TRUE(execRaw(where, endLinks));
        const auto count = store->lascaGameCount();
        ASSERT_TRUE(count.ok()) << count.error();
        EXPECT_EQ(count.value(), 2);
    } else {
        store.reset();
        store = openOrFail(where);
        ASSERT_TRUE(store);
    }
    const auto again = store->loadLascaGame("kept");
    ASSERT_TRUE(again.ok()) << again.error();
    ASSERT_TRUE(again.value().has_value());
    EXPECT_EQ(again.value()->moves, std::vector<std::string>{"c3-d4"});
    EXPECT_TRUE(store->saveLascaGame(sampleGame("after", {})).ok());
}

// Errors while saving are values; the store keeps answering afterwards.
TEST_F(StoreGames, ASaveThatFailsIsAnErrorAndChangesNothing) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    auto game = sampleGame("g", {"c3-d4"});
    ASSERT_TRUE(store->saveLascaGame(game).ok());
    auto bad = game;
    bad.engine = "purple";  // refused by the schema's check
    bad.moves = {"c3-d4", "d6-c5"};
    auto saved = store->saveLascaGame(bad);
    ASSERT_FALSE(saved.ok());
    EXPECT_EQ(*store->loadLascaGame("g").value(), game);
}

StoredTorneioTable sampleTable(const std::string& id) {
    StoredTorneioTable table;
    table.id = id;
    table.params = "seats 2 board 8 depth 3 trim 0 strength 10 minstrength 1 rounds 60 pass 1";
    table.seed = 18446744073709551557ULL;  // beyond 2^63: kept exactly
    table.seats = {{"person", 1, std::string(64, 'a'), 0, ""}, {"ai", 2, "", 0, ""}};
    table.created = 1700000000000;
    table.updated = 1700000000000;
    return table;
}

TEST_F(StoreGames, ATorneioTableGrowsDecisionByDecisionAndEnds) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    auto table = sampleTable("t1");
    ASSERT_TRUE(store->createTorneioTable(table).ok());
    EXPECT_EQ(*store->loadTorneioTable("t1").value(), table);
    const std::vector<StoredTorneioDecision> decisions = {
        {1, "setup king c8 warriors a8:3 e8:3 g8:4"},
        {0, "setup king c1 warriors a1:3 e1:3 g1:4"},
        {0, "move 1 b2"}};
    for (std::size_t n = 0; n < decisions.size(); ++n) {
        ASSERT_TRUE(store->addTorneioDecision("t1", n, decisions[n], 1700000001000 + 1).ok());
        table.decisions.push_back(decisions[n]);
    }
    table.updated = 1700000001001;
    EXPECT_EQ(*store->loadTorneioTable("t1").value(), table);
    // A decision number taken already is refused and changes nothing.
    EXPECT_FALSE(store->addTorneioDecision("t1", 1, {1, "move 2 c3"}, 1700000009999).ok());
    EXPECT_FALSE(store->addTorneioDecision("nope", 0, {1, "move 2 c3"}, 1).ok());
    EXPECT_EQ(*store->loadTorneioTable("t1").value(), table);
    ASSERT_TRUE(
        store->finishTorneioTable("t1", "win 1", "{\"type\":\"header\"}\n", 1700000002000).ok());
    table.result = "win 1";
    table.record = "{\"type\":\"header\"}\n";
    table.updated = 1700000002000;
    EXPECT_EQ(*store->loadTorneioTable("t1").value(), table);
    EXPECT_FALSE(store->finishTorneioTable("nope", "win 1", "", 1).ok());
    EXPECT_FALSE(store->loadTorneioTable("nope").value().has_value());
    EXPECT_EQ(store->torneioTableCount().value(), 1);
    EXPECT_FALSE(store->createTorneioTable(sampleTable("t1")).ok());  // one table per id
}

// The games list: both kinds, newest first, by public number; nothing secret in it.
TEST_F(StoreGames, TheGamesListShowsBothKindsWithoutSecrets) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    auto lasca = sampleGame("secretgameid", {"c3-d4", "d6-c5"});
    lasca.updated = 10;
    ASSERT_TRUE(store->saveLascaGame(lasca).ok());
    auto table = sampleTable("secrettableid");
    table.updated = 20;
    table.decisions = {{0, "setup king c1 warriors a1:3 e1:3 g1:4"}};
    ASSERT_TRUE(store->createTorneioTable(table).ok());
    const auto games = store->recentGames(10);
    ASSERT_TRUE(games.ok()) << games.error();
    ASSERT_EQ(games.value().size(), 2u);
    EXPECT_EQ(games.value()[0].kind, "torneio");
    EXPECT_EQ(games.value()[0].players, "person, ai 3");
    EXPECT_EQ(games.value()[0].plies, 1);
    EXPECT_EQ(games.value()[1].kind, "lasca");
    EXPECT_EQ(games.value()[1].plies, 2);
    EXPECT_EQ(games.value()[1].players, "white");
    EXPECT_EQ(games.value()[1].level, 5);
    for (const auto& g : games.value()) {
        EXPECT_EQ(g.players.find("secret"), std::string::npos);
        EXPECT_EQ(g.players.find("aaaa"), std::string::npos);
    }
    EXPECT_EQ(store->recentGames(1).value().size(), 1u);
    const auto byNumber = store->lascaGameByNumber(games.value()[1].number);
    ASSERT_TRUE(byNumber.ok() && byNumber.value().has_value());
    EXPECT_EQ(*byNumber.value(), lasca);
    EXPECT_FALSE(store->lascaGameByNumber(999).value().has_value());
    EXPECT_EQ(store->torneioTableByNumber(games.value()[0].number).value()->id, "secrettableid");
    const auto all = store->lascaGamesAfter(0, 100);
    ASSERT_TRUE(all.ok());
    ASSERT_EQ(all.value().size(), 1u);
    EXPECT_EQ(all.value()[0].game, lasca);
    EXPECT_EQ(all.value()[0].number, games.value()[1].number);
}

// A file of version 1 (Lasca games only, as the first release wrote it) is brought to the
// current version and keeps its games.
TEST_F(StoreGames, MigratesAVersionOneFileKeepingItsGames) {
    const auto path = place("v1.db");
    ASSERT_TRUE(makeOld(path, 1,
                        "CREATE TABLE lasca_games (id TEXT PRIMARY KEY, start_lfen TEXT NOT NULL,"
                        " engine TEXT NOT NULL CHECK (engine IN ('white', 'black', 'none')),"
                        " level INTEGER NOT NULL, analysing INTEGER NOT NULL DEFAULT 0,"
                        " multipv INTEGER NOT NULL DEFAULT 1, result TEXT NOT NULL DEFAULT '*',"
                        " rule TEXT NOT NULL DEFAULT '', created INTEGER NOT NULL,"
                        " updated INTEGER NOT NULL);"
                        "CREATE TABLE lasca_moves (game TEXT NOT NULL REFERENCES lasca_games (id)"
                        " ON DELETE CASCADE, ply INTEGER NOT NULL CHECK (ply >= 0),"
                        " move TEXT NOT NULL, PRIMARY KEY (game, ply)) WITHOUT ROWID;",
                        "INSERT INTO lasca_games (id, start_lfen, engine, level, analysing,"
                        " multipv, result, rule, created, updated)"
                        " VALUES ('old', 'W:a1', 'black', 2, 0, 1, '*', '', 5, 6);"
                        "INSERT INTO lasca_moves VALUES ('old', 0, 'c3-d4');"));
    auto store = openOrFail(path);
    ASSERT_TRUE(store);
    EXPECT_EQ(store->schemaVersion(), Store::kSchemaVersion);
    const auto old = store->loadLascaGame("old");
    ASSERT_TRUE(old.ok() && old.value().has_value());
    EXPECT_EQ(old.value()->moves, std::vector<std::string>{"c3-d4"});
    EXPECT_EQ(old.value()->tree, "");  // version 4 added the variations, none for an old game
    EXPECT_TRUE(store->createTorneioTable(sampleTable("t")).ok());
    EXPECT_EQ(store->integrityCheck().value(), "ok");
}

}  // namespace
}  // namespace web::store
