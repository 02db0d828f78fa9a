// Rated two-person tables in the store (include/web/store/store.h, migration 7): a version-6 file
// migrated keeping its tables; a rated end written in ONE transaction (the table's end, both new
// ratings, their history rows), so that a failure in the middle (the rating step's error, or
// the database's) leaves neither half and a process killed (SIGKILL) right after it keeps both; the
// history growing game by game with each player's rating before handed to the rating step.
// The ratings here are the test's own numbers: the maths is web::ratings' (tested there), the
// server's use of it is tested in tests/web/server/ratings_server_test.cpp.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <string>

#include "store_test_support.h"
#include "test_directory.h"
#include "web/store/store.h"

namespace web::store {
namespace {

using test::account;
using test::openOrFail;
using StoreRatings = test::StoreTest;

// A rated table of `white` and `black` with a 3+2 clock (blitz), one move played, running.
StoredDuel ratedDuel(const std::string& id, std::int64_t white, std::int64_t black) {
    StoredDuel duel;
    duel.id = id;
    duel.startLfen = "W:start";
    duel.moves = {"c3-d4"};
    duel.whiteHash = "w" + id;
    duel.blackHash = "b" + id;
    duel.watchHash = "v" + id;
    duel.clockTime = 180000;
    duel.clockIncrement = 2000;
    duel.whiteMs = duel.blackMs = 180000;
    duel.created = 10;
    duel.updated = 20;
    duel.rated = true;
    duel.whiteAccount = white;
    duel.blackAccount = black;
    return duel;
}

StoredDuel ended(StoredDuel duel, const std::string& result, std::int64_t at) {
    duel.moves.push_back("e7-f6");
    duel.result = result;
    duel.rule = "resign";
    duel.updated = at;
    return duel;
}

const MoveRowsChange kSecondMove{1, {"e7-f6"}};

// A rating step giving fixed ratings, and keeping what it was given.
struct FixedRates {
    std::optional<StoredRating> white, black;
    int calls = 0;
    RateGame step(double w, double b) {
        return [this, w, b](const std::optional<StoredRating>& ws,
                            const std::optional<StoredRating>& bs)
                   -> common::Result<std::array<common::Rating, 2>> {
            white = ws;
            black = bs;
            ++calls;
            return std::array<common::Rating, 2>{common::Rating{w, 300, 0.09},
                                                 common::Rating{b, 310, 0.09}};
        };
    }
};

TEST_F(StoreRatings, MigratesAVersionSixFileKeepingItsTables) {
    const auto path = place("v6.db");
    ASSERT_TRUE(makeOld(
        path, 6,
        "CREATE TABLE lasca_duels (id TEXT PRIMARY KEY, start_lfen TEXT NOT NULL,"
        " white_hash TEXT NOT NULL, black_hash TEXT NOT NULL, watch_hash TEXT NOT NULL,"
        " clock_time INTEGER NOT NULL DEFAULT 0, clock_increment INTEGER NOT NULL DEFAULT 0,"
        " white_ms INTEGER NOT NULL DEFAULT 0, black_ms INTEGER NOT NULL DEFAULT 0,"
        " draw_offer TEXT NOT NULL DEFAULT '', result TEXT NOT NULL DEFAULT '*',"
        " rule TEXT NOT NULL DEFAULT '', created INTEGER NOT NULL, updated INTEGER NOT NULL,"
        " turn_started INTEGER NOT NULL DEFAULT 0);"
        "CREATE TABLE lasca_duel_moves (duel TEXT NOT NULL, ply INTEGER NOT NULL,"
        " move TEXT NOT NULL, PRIMARY KEY (duel, ply)) WITHOUT ROWID;"
        "CREATE TABLE accounts (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,"
        " name_key TEXT UNIQUE, password_hash TEXT NOT NULL, created_at INTEGER NOT NULL,"
        " deleted INTEGER NOT NULL DEFAULT 0);"
        "CREATE TABLE torneio_tables (id TEXT PRIMARY KEY, params TEXT NOT NULL,"
        " seed TEXT NOT NULL, result TEXT NOT NULL DEFAULT '', record TEXT NOT NULL DEFAULT '',"
        " created INTEGER NOT NULL, updated INTEGER NOT NULL);"
        "CREATE TABLE torneio_seats (tbl TEXT NOT NULL, seat INTEGER NOT NULL,"
        " kind TEXT NOT NULL, level INTEGER NOT NULL, token_hash TEXT NOT NULL,"
        " PRIMARY KEY (tbl, seat)) WITHOUT ROWID;",
        "INSERT INTO lasca_duels (id, start_lfen, white_hash, black_hash, watch_hash, result,"
        " rule, created, updated) VALUES ('old', 'W:x', 'a', 'b', 'c', '2-0', 'resign', 1, 2);"
        "INSERT INTO lasca_duel_moves VALUES ('old', 0, 'c3-d4');"));
    auto store = openOrFail(path);
    ASSERT_TRUE(store);
    EXPECT_EQ(store->schemaVersion(), Store::kSchemaVersion);
    const auto old = store->loadDuel("old");
    ASSERT_TRUE(old.ok() && old.value().has_value());
    EXPECT_FALSE(old.value()->rated);
    EXPECT_EQ(old.value()->whiteAccount, 0);
    EXPECT_EQ(old.value()->blackName, "");
    EXPECT_EQ(old.value()->moves, std::vector<std::string>{"c3-d4"});
    EXPECT_EQ(store->integrityCheck().value(), "ok");
}

TEST_F(StoreRatings, ARatedEndIsWrittenWithBothRatingsAndTheirHistory) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    const auto ana = account(*store, "ana"), bo = account(*store, "bo");
    const auto duel = ratedDuel("t1", ana, bo);
    ASSERT_TRUE(store->saveDuel(duel).ok());
    const auto loaded = store->loadDuel("t1");
    ASSERT_TRUE(loaded.ok() && loaded.value());
    EXPECT_TRUE(loaded.value()->rated);
    EXPECT_EQ(loaded.value()->whiteName, "ana");
    EXPECT_EQ(loaded.value()->blackName, "bo");
    FixedRates rates;
    const auto done = store->finishRatedDuel(ended(duel, "2-0", 5000), kSecondMove, "blitz",
                                             rates.step(1700, 1300));
    ASSERT_TRUE(done.ok()) << done.error();
    EXPECT_FALSE(rates.white) << "a first game starts from nothing stored";
    EXPECT_FALSE(rates.black);
    EXPECT_EQ(store->loadDuel("t1").value()->result, "2-0");
    EXPECT_EQ(store->loadDuel("t1").value()->moves.size(), 2u);
    const auto mine = store->ratingsOf(ana).value();
    ASSERT_EQ(mine.size(), 1u);
    EXPECT_EQ(mine[0].category, "blitz");
    EXPECT_EQ(mine[0].rating.rating, 1700);
    EXPECT_EQ(mine[0].games, 1);
    EXPECT_EQ(mine[0].lastGame, 5000);
    const auto history = store->ratingHistory(bo).value();
    ASSERT_EQ(history.size(), 1u);
    EXPECT_EQ(history[0].rating, 1300);
    EXPECT_EQ(history[0].deviation, 310);
    EXPECT_EQ(history[0].game, "t1");
    EXPECT_EQ(history[0].number, 1);
    EXPECT_EQ(history[0].at, 5000);
    // A second game, colours swapped: the step is given each player's stored rating, and the
    // history grows in order.
    const auto second = ratedDuel("t2", bo, ana);
    ASSERT_TRUE(store->saveDuel(second).ok());
    ASSERT_TRUE(store
                    ->finishRatedDuel(ended(second, "1-1", 9000), kSecondMove, "blitz",
                                      rates.step(1350, 1650))
                    .ok());
    ASSERT_TRUE(rates.white && rates.black);
    EXPECT_EQ(rates.white->rating.rating, 1300);  // Bo's, White now
    EXPECT_EQ(rates.black->rating.rating, 1700);
    EXPECT_EQ(rates.black->lastGame, 5000);
    const auto grown = store->ratingHistory(ana).value();
    ASSERT_EQ(grown.size(), 2u);
    EXPECT_EQ(grown[0].rating, 1700);
    EXPECT_EQ(grown[1].rating, 1650);
    EXPECT_EQ(store->ratingsOf(ana).value()[0].games, 2);
    const auto games = store->duelsOf(ana, 0, 10, false).value();
    ASSERT_EQ(games.size(), 2u);
    EXPECT_EQ(games[0].duel.id, "t2");  // newest first
    EXPECT_EQ(games[0].duel.blackName, "ana");
}

TEST_F(StoreRatings, AFailureInTheMiddleLeavesNeitherHalf) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    const auto ana = account(*store, "ana"), bo = account(*store, "bo");
    const auto duel = ratedDuel("t1", ana, bo);
    ASSERT_TRUE(store->saveDuel(duel).ok());
    // The rating step fails after the table's row was written in the transaction.
    const RateGame failing = [](const auto&,
                                const auto&) -> common::Result<std::array<common::Rating, 2>> {
        return common::makeError("no");
    };
    EXPECT_FALSE(
        store->finishRatedDuel(ended(duel, "2-0", 5000), kSecondMove, "blitz", failing).ok());
    EXPECT_EQ(store->loadDuel("t1").value()->result, "*");
    EXPECT_EQ(store->loadDuel("t1").value()->moves.size(), 1u);
    EXPECT_TRUE(store->ratingsOf(ana).value().empty());
    // SQLite fails after the ratings were written: the history row of a game rated already.
    FixedRates rates;
    ASSERT_TRUE(store
                    ->finishRatedDuel(ended(duel, "2-0", 5000), kSecondMove, "blitz",
                                      rates.step(1700, 1300))
                    .ok());
    auto again = ended(duel, "0-2", 6000);
    again.rule = "time";
    EXPECT_FALSE(store->finishRatedDuel(again, kSecondMove, "blitz", rates.step(1, 1)).ok());
    const auto kept = store->loadDuel("t1").value();
    EXPECT_EQ(kept->result, "2-0");
    EXPECT_EQ(kept->rule, "resign");
    EXPECT_EQ(store->ratingsOf(ana).value()[0].rating.rating, 1700);
    EXPECT_EQ(store->ratingsOf(ana).value()[0].games, 1);
    EXPECT_EQ(store->ratingHistory(ana).value().size(), 1u);
    // Not a rated end: refused before anything is written.
    auto casual = ended(duel, "2-0", 7000);
    casual.rated = false;
    EXPECT_FALSE(store->finishRatedDuel(casual, kSecondMove, "blitz", rates.step(1, 1)).ok());
    auto alone = ended(ratedDuel("t3", ana, ana), "2-0", 7000);
    EXPECT_FALSE(store->finishRatedDuel(alone, kSecondMove, "blitz", rates.step(1, 1)).ok());
}

TEST_F(StoreRatings, AProcessKilledRightAfterTheEndKeepsBothHalves) {
    const auto path = place("killed.db");
    std::int64_t ana = 0, bo = 0;
    {
        auto store = openOrFail(path);
        ASSERT_TRUE(store);
        ana = account(*store, "ana");
        bo = account(*store, "bo");
        ASSERT_TRUE(store->saveDuel(ratedDuel("t1", ana, bo)).ok());
    }
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {  // writes the end, then dies by SIGKILL without closing anything
        auto store = Store::open(path);
        if (!store.ok()) _exit(2);
        FixedRates rates;
        if (!store.value()
                 ->finishRatedDuel(ended(ratedDuel("t1", ana, bo), "0-2", 5000), kSecondMove,
                                   "blitz", rates.step(1300, 1700))
                 .ok())
            _exit(3);
        raise(SIGKILL);
        _exit(4);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "exit " << WEXITSTATUS(status);
    EXPECT_EQ(WTERMSIG(status), SIGKILL);
    auto store = openOrFail(path);
    ASSERT_TRUE(store);
    EXPECT_EQ(store->loadDuel("t1").value()->result, "0-2");
    ASSERT_EQ(store->ratingsOf(bo).value().size(), 1u);
    EXPECT_EQ(store->ratingsOf(bo).value()[0].rating.rating, 1700);
    EXPECT_EQ(store->ratingHistory(ana).value().size(), 1u);
    EXPECT_EQ(store->integrityCheck().value(), "ok");
}

}  // namespace
}  // namespace web::store
