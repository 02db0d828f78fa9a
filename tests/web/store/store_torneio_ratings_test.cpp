// Rated Torneio tables in the store (include/web/store/store.h, migration 9): a version-8 file
// migrated keeping its tables; seats bound to accounts and the rated flag kept and read back
// with the accounts' names; a rated end written in ONE transaction (the table's result and
// record, every account's new Torneio rating, their history rows), so that a failing rating step
// leaves the store as it was; the Torneio history shown beside the two-person tables' and the
// account's finished Torneio tables listed. The ratings here are the test's own numbers: the
// maths is web::ratings' (tested there), the room's use of it tests/web/server's.
#include <gtest/gtest.h>

#include <string>

#include "store_test_support.h"
#include "test_directory.h"
#include "web/store/store.h"

namespace web::store {
namespace {

using test::account;
using test::openOrFail;
using StoreTorneioRatings = test::StoreTest;

// A rated table of three seats: `a` and `b` people with accounts (seats 1 and 3), an AI between.
StoredTorneioTable ratedTable(const std::string& id, std::int64_t a, std::int64_t b) {
    StoredTorneioTable table;
    table.id = id;
    table.params = "seats 3";
    table.seed = 42;
    table.seats = {
        {"person", 1, "h1" + id, a, ""}, {"ai", 2, "", 0, ""}, {"person", 1, "h3" + id, b, ""}};
    table.decisions = {{0, "setup x"}};
    table.created = 10;
    table.updated = 20;
    table.rated = true;
    return table;
}

// A rating step giving fixed ratings (in the order of the seats given), keeping what it was given.
struct FixedRates {
    std::vector<TorneioRatedSeat> given;
    RateTorneioTable step(std::vector<double> after) {
        return [this, after](const std::vector<TorneioRatedSeat>& seats)
                   -> common::Result<std::vector<common::Rating>> {
            given = seats;
            std::vector<common::Rating> ratings;
            for (double r : after) ratings.push_back({r, 300, 0.09});
            return ratings;
        };
    }
};

TEST_F(StoreTorneioRatings, MigratesAVersionEightFileKeepingItsTables) {
    const auto path = place("v8.db");
    ASSERT_TRUE(makeOld(
        path, 8,
        "CREATE TABLE torneio_tables (id TEXT PRIMARY KEY, params TEXT NOT NULL,"
        " seed TEXT NOT NULL, result TEXT NOT NULL DEFAULT '', record TEXT NOT NULL DEFAULT '',"
        " created INTEGER NOT NULL, updated INTEGER NOT NULL);"
        "CREATE TABLE torneio_seats (tbl TEXT NOT NULL, seat INTEGER NOT NULL,"
        " kind TEXT NOT NULL, level INTEGER NOT NULL, token_hash TEXT NOT NULL,"
        " PRIMARY KEY (tbl, seat)) WITHOUT ROWID;"
        "CREATE TABLE torneio_decisions (tbl TEXT NOT NULL, n INTEGER NOT NULL,"
        " seat INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (tbl, n)) WITHOUT ROWID;"
        "CREATE TABLE accounts (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,"
        " name_key TEXT UNIQUE, password_hash TEXT NOT NULL, created_at INTEGER NOT NULL,"
        " deleted INTEGER NOT NULL DEFAULT 0);",
        "INSERT INTO torneio_tables (id, params, seed, result, record, created, updated)"
        " VALUES ('old', 'seats 2', '7', 'win 1', 'rec', 1, 2);"
        "INSERT INTO torneio_seats VALUES ('old', 0, 'person', 1, 'hash'),"
        " ('old', 1, 'ai', 2, '');"
        "INSERT INTO torneio_decisions VALUES ('old', 0, 0, 'setup x');"));
    auto store = openOrFail(path);
    ASSERT_TRUE(store);
    EXPECT_EQ(store->schemaVersion(), Store::kSchemaVersion);
    const auto old = store->loadTorneioTable("old");
    ASSERT_TRUE(old.ok() && old.value().has_value()) << (old.ok() ? "" : old.error());
    EXPECT_FALSE(old.value()->rated);
    ASSERT_EQ(old.value()->seats.size(), 2u);
    EXPECT_EQ(old.value()->seats[0].account, 0);
    EXPECT_EQ(old.value()->seats[0].name, "");
    EXPECT_EQ(old.value()->seats[0].tokenHash, "hash");
    EXPECT_EQ(old.value()->seats[1].level, 2);
    EXPECT_EQ(old.value()->result, "win 1");
    EXPECT_EQ(old.value()->decisions.size(), 1u);
    EXPECT_EQ(store->integrityCheck().value(), "ok");
}

TEST_F(StoreTorneioRatings, ARatedEndIsWrittenWithEveryAccountsRatingAndHistory) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    const auto ana = account(*store, "ana"), bo = account(*store, "bo");
    ASSERT_TRUE(store->createTorneioTable(ratedTable("t1", ana, bo)).ok());
    const auto loaded = store->loadTorneioTable("t1");
    ASSERT_TRUE(loaded.ok() && loaded.value());
    EXPECT_TRUE(loaded.value()->rated);
    EXPECT_EQ(loaded.value()->seats[0].account, ana);
    EXPECT_EQ(loaded.value()->seats[0].name, "ana");
    EXPECT_EQ(loaded.value()->seats[1].account, 0);
    EXPECT_EQ(loaded.value()->seats[2].name, "bo");
    FixedRates rates;
    const auto done =
        store->finishRatedTorneioTable("t1", "win 3", "record", 5000, rates.step({1400, 1600}));
    ASSERT_TRUE(done.ok()) << done.error();
    ASSERT_EQ(rates.given.size(), 2u);
    EXPECT_EQ(rates.given[0].seat, 0);
    EXPECT_EQ(rates.given[0].account, ana);
    EXPECT_FALSE(rates.given[0].before) << "a first game starts from nothing stored";
    EXPECT_EQ(rates.given[1].seat, 2);
    EXPECT_EQ(rates.given[1].account, bo);
    const auto finished = store->loadTorneioTable("t1").value();
    EXPECT_EQ(finished->result, "win 3");
    EXPECT_EQ(finished->record, "record");
    EXPECT_EQ(finished->updated, 5000);
    const auto mine = store->ratingsOf(bo).value();
    ASSERT_EQ(mine.size(), 1u);
    EXPECT_EQ(mine[0].category, kTorneioCategory);
    EXPECT_EQ(mine[0].rating.rating, 1600);
    EXPECT_EQ(mine[0].games, 1);
    EXPECT_EQ(mine[0].lastGame, 5000);
    // A second table: the step is given each account's stored rating; the history grows.
    ASSERT_TRUE(store->createTorneioTable(ratedTable("t2", bo, ana)).ok());
    ASSERT_TRUE(
        store->finishRatedTorneioTable("t2", "draw 1 3", "r2", 9000, rates.step({1610, 1390}))
            .ok());
    ASSERT_EQ(rates.given.size(), 2u);
    ASSERT_TRUE(rates.given[0].before && rates.given[1].before);
    EXPECT_EQ(rates.given[0].before->rating.rating, 1600);  // Bo's, seat 1 now
    EXPECT_EQ(rates.given[0].before->lastGame, 5000);
    EXPECT_EQ(rates.given[1].before->rating.rating, 1400);
    const auto history = store->ratingHistory(ana).value();
    ASSERT_EQ(history.size(), 2u);
    EXPECT_EQ(history[0].category, kTorneioCategory);
    EXPECT_EQ(history[0].game, "t1");
    EXPECT_EQ(history[0].number, 1);
    EXPECT_EQ(history[0].rating, 1400);
    EXPECT_EQ(history[1].game, "t2");
    EXPECT_EQ(history[1].number, 2);
    EXPECT_EQ(history[1].rating, 1390);
    EXPECT_EQ(history[1].at, 9000);
    // The account's finished tables, newest first, their seats and names, without their play.
    ASSERT_TRUE(store->createTorneioTable(ratedTable("t3", ana, bo)).ok());  // running: not shown
    const auto tables = store->finishedTorneioTablesOf(ana, 10).value();
    ASSERT_EQ(tables.size(), 2u);
    EXPECT_EQ(tables[0].number, 2);
    EXPECT_EQ(tables[0].table.id, "t2");
    EXPECT_EQ(tables[0].table.seats[2].name, "ana");
    EXPECT_EQ(tables[0].table.result, "draw 1 3");
    EXPECT_TRUE(tables[0].table.decisions.empty());
    EXPECT_EQ(tables[1].table.id, "t1");
    EXPECT_EQ(store->finishedTorneioTablesOf(ana, 1).value().size(), 1u);
}

TEST_F(StoreTorneioRatings, AFailingRatingStepLeavesTheStoreAsItWas) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    const auto ana = account(*store, "ana"), bo = account(*store, "bo");
    ASSERT_TRUE(store->createTorneioTable(ratedTable("t1", ana, bo)).ok());
    const RateTorneioTable failing =
        [](const std::vector<TorneioRatedSeat>&) -> common::Result<std::vector<common::Rating>> {
        return common::makeError("no");
    };
    EXPECT_FALSE(store->finishRatedTorneioTable("t1", "win 1", "record", 5000, failing).ok());
    FixedRates rates;
    EXPECT_FALSE(
        store->finishRatedTorneioTable("t1", "win 1", "record", 5000, rates.step({1500})).ok())
        << "one rating for two accounts";
    const auto kept = store->loadTorneioTable("t1").value();
    EXPECT_EQ(kept->result, "");
    EXPECT_EQ(kept->record, "");
    EXPECT_EQ(kept->updated, 20);
    EXPECT_TRUE(store->ratingsOf(ana).value().empty());
    EXPECT_TRUE(store->ratingHistory(bo).value().empty());
    EXPECT_TRUE(store->finishedTorneioTablesOf(ana, 10).value().empty());
    // Refused before anything is written: no such table, no result, not rated, one account.
    EXPECT_FALSE(store->finishRatedTorneioTable("none", "win 1", "r", 1, rates.step({1, 1})).ok());
    EXPECT_FALSE(store->finishRatedTorneioTable("t1", "", "r", 1, rates.step({1, 1})).ok());
    auto casual = ratedTable("t2", ana, bo);
    casual.rated = false;
    ASSERT_TRUE(store->createTorneioTable(casual).ok());
    EXPECT_FALSE(store->finishRatedTorneioTable("t2", "win 1", "r", 1, rates.step({1, 1})).ok());
    ASSERT_TRUE(store->createTorneioTable(ratedTable("t3", ana, 0)).ok());
    EXPECT_FALSE(store->finishRatedTorneioTable("t3", "win 1", "r", 1, rates.step({1})).ok());
    EXPECT_TRUE(store->ratingsOf(ana).value().empty());
    // The failed step changed nothing: the same end is then written whole.
    ASSERT_TRUE(
        store->finishRatedTorneioTable("t1", "win 1", "record", 5000, rates.step({1700, 1300}))
            .ok());
    EXPECT_EQ(store->ratingsOf(ana).value()[0].rating.rating, 1700);
    EXPECT_EQ(store->integrityCheck().value(), "ok");
}

}  // namespace
}  // namespace web::store
