// Homes (Store::setHome): a table lives on one instance under a lease; a living home keeps its
// tables, one that stopped renewing loses them to the instance that asks, and the old home's
// writes after that are refused, counted and written nowhere. Two instances share one database
// only on PostgreSQL (SQLite's file is one server's): those tests run on web.pg.store. An
// instance "stops renewing" by its row being made old in the database, never by waiting.
#include <gtest/gtest.h>
#include <poll.h>

#include <string>

#include "store_test_support.h"
#include "web/store/bus.h"
#include "web/store/store.h"

namespace web::store {
namespace {

using test::openOrFail;
using StoreHomes = test::StoreTest;

constexpr std::int64_t kLease = 600000;  // ten minutes: no test waits for one to run out

StoredDuel duel(const std::string& id, std::vector<std::string> moves = {}) {
    StoredDuel d;
    d.id = id;
    d.startLfen = "W:x";
    d.whiteHash = "w";
    d.blackHash = "b";
    d.watchHash = "v";
    d.moves = std::move(moves);
    return d;
}

TEST_F(StoreHomes, WithoutANameEverythingIsHeldAndNothingIsWritten) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    const auto home = store->takeTable("duel:d1");
    ASSERT_TRUE(home.ok()) << home.error();
    EXPECT_TRUE(home.value().here);
    EXPECT_TRUE(store->holds("duel:anything"));
    ASSERT_TRUE(store->saveDuel(duel("d1", {"a3-b4"})).ok());
    EXPECT_TRUE(store->renewHome().value().empty());
    EXPECT_TRUE(store->homeStats().name.empty());
}

TEST_F(StoreHomes, OneInstanceHoldsWhatItMakesAndTakes) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    store->setHome("web1", kLease);
    ASSERT_TRUE(store->renewHome().ok());
    EXPECT_FALSE(store->holds("duel:d1"));
    ASSERT_TRUE(store->saveDuel(duel("d1")).ok());  // made by its first write
    EXPECT_TRUE(store->holds("duel:d1"));
    const auto again = store->takeTable("duel:d1");
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_TRUE(again.value().here);
    EXPECT_EQ(again.value().lease, 1);
    // A table the database does not hold is nobody's: no row is made for a made-up id.
    const auto none = store->takeTable("torneio:t1");
    ASSERT_TRUE(none.ok());
    EXPECT_FALSE(none.value().found);
    EXPECT_FALSE(none.value().here);
    EXPECT_FALSE(store->holds("torneio:t1"));
    EXPECT_FALSE(store->takeTable("nothing:t1").value().found);
    const auto stats = store->homeStats();
    EXPECT_EQ(stats.name, "web1");
    EXPECT_EQ(stats.held, 1U);
    EXPECT_EQ(stats.takeovers, 0);
    EXPECT_EQ(stats.staleWrites, 0);
    EXPECT_EQ(stats.renewals, 1);
    EXPECT_GE(stats.sinceRenewalMs, 0);
}

#ifdef LASCA_STORE_TESTS_POSTGRESQL

// Two instances, web1 and web2, on one new database (db), neither renewed yet.
struct TwoInstances : test::StoreTest {
    void SetUp() override {
        db = fresh();
        a = openOrFail(db);
        b = openOrFail(db);
        ASSERT_TRUE(a && b);
        a->setHome("web1", kLease);
        b->setHome("web2", kLease);
    }
    std::string db;
    std::unique_ptr<Store> a, b;
};

TEST_F(TwoInstances, ALivingHomeKeepsItsTablesAndAStoppedOneLosesThem) {
    ASSERT_TRUE(a->renewHome().ok());
    ASSERT_TRUE(b->renewHome().ok());
    ASSERT_TRUE(a->saveDuel(duel("d1", {"a3-b4"})).ok());

    // web1 renews: web2 is sent to it.
    const auto refused = b->takeTable("duel:d1");
    ASSERT_TRUE(refused.ok()) << refused.error();
    EXPECT_FALSE(refused.value().here);
    EXPECT_EQ(refused.value().home, "web1");
    EXPECT_EQ(b->whereIs("duel:d1").value(), std::optional<std::string>("web1"));
    EXPECT_FALSE(b->saveDuel(duel("d1", {"c3-d4"})).ok()) << "a write of a table not held";
    EXPECT_EQ(b->homeStats().staleWrites, 1);

    // web1 stops renewing: web2 takes the table, the lease's number up by one.
    ASSERT_TRUE(test::StoreTest::execRaw(
        db, "UPDATE instances SET renewed_at = renewed_at - 3600000 WHERE name = 'web1'"));
    EXPECT_FALSE(b->whereIs("duel:d1").value().has_value());
    const auto taken = b->takeTable("duel:d1");
    ASSERT_TRUE(taken.ok()) << taken.error();
    EXPECT_TRUE(taken.value().here);
    EXPECT_EQ(taken.value().lease, 2);
    EXPECT_EQ(b->homeStats().takeovers, 1);

    // web1 comes back late: its write is refused, counted and written nowhere; its next renewal
    // names the table it lost.
    const auto stale = a->saveDuel(duel("d1", {"a3-b4", "b6-a5"}));
    ASSERT_FALSE(stale.ok());
    EXPECT_NE(stale.error().find("web2"), std::string::npos) << stale.error();
    EXPECT_EQ(a->homeStats().staleWrites, 1);
    EXPECT_FALSE(a->holds("duel:d1"));
    EXPECT_EQ(a->loadDuel("d1").value()->moves, std::vector<std::string>{"a3-b4"});
    EXPECT_EQ(a->renewHome().value(), std::vector<std::string>{"duel:d1"});
    EXPECT_TRUE(a->renewHome().value().empty()) << "told once";

    // The new home writes; the old one, asked again, is sent there.
    ASSERT_TRUE(b->saveDuel(duel("d1", {"a3-b4", "c5-d4"})).ok());
    EXPECT_EQ(a->loadDuel("d1").value()->moves, (std::vector<std::string>{"a3-b4", "c5-d4"}));
    const auto sent = a->takeTable("duel:d1");
    ASSERT_TRUE(sent.ok());
    EXPECT_FALSE(sent.value().here);
    EXPECT_EQ(sent.value().home, "web2");
}

TEST_F(TwoInstances, ALateRenewalFindsTheTablesTakenMeanwhile) {
    // web1 makes two tables before its first renewal (its row is not there: not living).
    ASSERT_TRUE(a->saveDuel(duel("t1")).ok());
    ASSERT_TRUE(a->saveDuel(duel("g1")).ok());
    ASSERT_TRUE(b->takeTable("duel:g1").value().here) << "web1 never renewed";
    // Its first renewal checks every table it holds: g1 went to web2, t1 stays.
    EXPECT_EQ(a->renewHome().value(), std::vector<std::string>{"duel:g1"});
    EXPECT_TRUE(a->holds("duel:t1"));
    EXPECT_FALSE(a->holds("duel:g1"));
}

TEST_F(StoreHomes, AnInstanceStartedAgainTakesItsOwnTablesUnderANewLease) {
    const auto db = fresh();
    auto first = openOrFail(db);
    ASSERT_TRUE(first);
    first->setHome("web1", kLease);
    ASSERT_TRUE(first->renewHome().ok());
    StoredTorneioTable table;
    table.id = "t1";
    table.params = "{}";
    table.seed = 7;
    table.seats = {{"person", 0, "h0", 0, ""}, {"ai", 0, "h1", 0, ""}};
    ASSERT_TRUE(first->createTorneioTable(table).ok());
    ASSERT_TRUE(first->addTorneioDecision("t1", 0, {0, "pass"}, 2).ok());

    // The same name started again (its earlier life not known to be gone): a new lease, and
    // the earlier life's writes refused.
    auto second = openOrFail(db);
    ASSERT_TRUE(second);
    second->setHome("web1", kLease);
    ASSERT_TRUE(second->renewHome().ok());
    const auto taken = second->takeTable("torneio:t1");
    ASSERT_TRUE(taken.ok()) << taken.error();
    EXPECT_TRUE(taken.value().here);
    EXPECT_EQ(taken.value().lease, 2);
    EXPECT_EQ(second->homeStats().takeovers, 0) << "its own table, not another's";
    EXPECT_FALSE(first->addTorneioDecision("t1", 1, {1, "pass"}, 3).ok());
    EXPECT_FALSE(first->finishTorneioTable("t1", "1-0", "r", 4).ok());
    EXPECT_EQ(first->homeStats().staleWrites, 2);
    ASSERT_TRUE(second->addTorneioDecision("t1", 1, {1, "pass"}, 3).ok());
    EXPECT_EQ(second->loadTorneioTable("t1").value()->decisions.size(), 2U);
}

TEST_F(TwoInstances, EachInstanceEmptiesOnlyItsOwnSeeks) {
    ASSERT_TRUE(a->addSeek(test::seekRow("s1", "lasca", 0, "", "{}", 1)).ok());
    ASSERT_TRUE(b->addSeek(test::seekRow("s2", "lasca", 0, "", "{}", 2)).ok());
    ASSERT_TRUE(b->clearSeeks().ok());  // web2 starts again
    const auto left = a->seeks();
    ASSERT_TRUE(left.ok());
    ASSERT_EQ(left.value().size(), 1U);
    EXPECT_EQ(left.value()[0].id, "s1");
}

TEST_F(TwoInstances, OneLobbyIsSharedAndALostInstancesOffersAreDropped) {
    ASSERT_TRUE(a->renewHome().ok());
    ASSERT_TRUE(b->renewHome().ok());
    StoredSeek seek = test::seekRow("s1", "lasca", 0, "", "{}", 1);
    seek.tab = 4;
    seek.tokenHash = "maker-hash";
    ASSERT_TRUE(a->addSeek(seek).ok());
    StoredSeek offer = test::seekRow("t1", "torneio", 0, "", "{}", 2);
    offer.sitters.push_back({1, "", 5, 0, "", "h1"});
    ASSERT_TRUE(b->addSeek(offer).ok());
    // web1's tab sits at web2's offer; web2 reads the seek web1 made, with its home and tab.
    EXPECT_EQ(a->sitDown("t1", {0, "", 4, 0, "", "h2"}, 3).value().place, 2);
    const auto read = b->seek("s1");
    ASSERT_TRUE(read.ok() && read.value());
    EXPECT_EQ(read.value()->home, "web1");
    EXPECT_EQ(read.value()->tab, 4);
    EXPECT_EQ(read.value()->tokenHash, "maker-hash");
    EXPECT_EQ(b->seek("t1").value()->sitters.at(1).home, "web1");
    EXPECT_FALSE(b->dropLostLobbies().value()) << "web1 renews";
    // web1 stops renewing: web2 drops its seek and its place at web2's offer.
    ASSERT_TRUE(test::StoreTest::execRaw(
        db, "UPDATE instances SET renewed_at = renewed_at - 3600000 WHERE name = 'web1'"));
    EXPECT_TRUE(b->dropLostLobbies().value());
    EXPECT_FALSE(b->seek("s1").value().has_value());
    EXPECT_EQ(b->seek("t1").value()->sitters.size(), 1U);
    EXPECT_FALSE(b->dropLostLobbies().value()) << "nothing left to drop";
}

TEST_F(StoreHomes, ABusHearsWhatAnyInstanceSends) {
    const auto db = fresh();
    EXPECT_FALSE(Bus::open(db, "no; DROP TABLE seeks").ok()) << "a channel is a plain name";
    auto bus = Bus::open(db, "lasca_lobby");
    ASSERT_TRUE(bus.ok()) << bus.error();
    auto other = openOrFail(db);
    ASSERT_TRUE(other);
    EXPECT_TRUE(bus.value()->drain().value().empty()) << "nothing sent yet";
    ASSERT_TRUE(other->notify("lasca_lobby", "ended t1").value());
    ASSERT_TRUE(other->notify("elsewhere", "not heard").value());
    ASSERT_TRUE(other->notify("lasca_lobby", "ended t2").value());
    EXPECT_FALSE(other->notify("lasca_lobby", std::string(1001, 'x')).ok());
    std::vector<std::string> heard;
    for (int tries = 0; tries < 100 && heard.size() < 2; ++tries) {
        pollfd wait{bus.value()->socket(), POLLIN, 0};
        ::poll(&wait, 1, 100);  // a hang guard: 10 s in all
        const auto got = bus.value()->drain();
        ASSERT_TRUE(got.ok()) << got.error();
        heard.insert(heard.end(), got.value().begin(), got.value().end());
    }
    EXPECT_EQ(heard, (std::vector<std::string>{"ended t1", "ended t2"}));
}

#else

TEST_F(StoreHomes, OnSQLiteNothingIsSent) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    const auto sent = store->notify("lasca_lobby", "ended t1");
    ASSERT_TRUE(sent.ok());
    EXPECT_FALSE(sent.value());
    EXPECT_FALSE(Bus::open("/tmp/x.db", "lasca_lobby").ok());
}

#endif

}  // namespace
}  // namespace web::store
