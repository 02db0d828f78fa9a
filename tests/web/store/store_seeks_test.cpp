// The lobby's seeks in the store: kept with their maker and parameters as given, listed oldest
// first, an id taken once (the second taker is told it is gone), emptied at once; a public
// table's watch token kept with the table.
#include <gtest/gtest.h>

#include <string>

#include "store_test_support.h"
#include "test_directory.h"
#include "web/store/store.h"

namespace web::store {
namespace {

using test::openOrFail;
using StoreSeeks = test::StoreTest;

TEST_F(StoreSeeks, AreKeptListedAndTakenOnce) {
    const auto path = place("seeks.db");
    {
        auto store = openOrFail(path);
        ASSERT_TRUE(store);
        const auto ana = store->createAccount("Ana", "ana", "h", 1);
        ASSERT_TRUE(ana.ok() && ana.value());
        const StoredSeek first{"s1",
                               "lasca",
                               ana.value()->id,
                               "Ana",
                               R"({"clock":{"time":180000,"increment":2000},"rated":true})",
                               10};
        const StoredSeek second{"s2", "torneio", 0, "", R"({"seats":3})", 20};
        ASSERT_TRUE(store->addSeek(second).ok());
        ASSERT_TRUE(store->addSeek(first).ok());
        EXPECT_FALSE(store->addSeek(first).ok()) << "an id is kept once";
        const auto listed = store->seeks();
        ASSERT_TRUE(listed.ok()) << listed.error();
        ASSERT_EQ(listed.value().size(), 2U);
        EXPECT_EQ(listed.value()[0], first);
        EXPECT_EQ(listed.value()[1], second);
    }
    auto store = openOrFail(path);  // kept across opens
    ASSERT_TRUE(store);
    EXPECT_EQ(store->seeks().value().size(), 2U);
    const auto taken = store->takeSeek("s1");
    ASSERT_TRUE(taken.ok());
    EXPECT_TRUE(taken.value());
    EXPECT_FALSE(store->takeSeek("s1").value()) << "a seek is taken once";
    EXPECT_FALSE(store->takeSeek("nothing").value());
    ASSERT_EQ(store->seeks().value().size(), 1U);
    ASSERT_TRUE(store->clearSeeks().ok());
    EXPECT_TRUE(store->seeks().value().empty());
}

TEST_F(StoreSeeks, APublicTablesWatchTokenIsKeptWithIt) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    StoredDuel duel;
    duel.id = "d1";
    duel.startLfen = "W:x";
    duel.whiteHash = "a";
    duel.blackHash = "b";
    duel.watchHash = "c";
    duel.publicWatch = "0123abcd";
    duel.created = duel.updated = 5;
    ASSERT_TRUE(store->saveDuel(duel).ok());
    const auto loaded = store->loadDuel("d1");
    ASSERT_TRUE(loaded.ok() && loaded.value());
    EXPECT_EQ(loaded.value()->publicWatch, "0123abcd");
    duel.id = "d2";
    duel.publicWatch.clear();
    ASSERT_TRUE(store->saveDuel(duel).ok());
    EXPECT_EQ(store->loadDuel("d2").value()->publicWatch, "");
}

}  // namespace
}  // namespace web::store
