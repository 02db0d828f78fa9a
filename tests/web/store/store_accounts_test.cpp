// Accounts and sessions in the store (include/web/store/store.h): a name taken without regard to
// case, found by its key; a session found while it lasts and its account lives; a new password
// ending the other sessions with it; a deleted account freeing its name; all kept across opens.
// The store keeps what it is given: the name rule and the hashes are web/accounts' (tested there).
#include <gtest/gtest.h>

#include <string>

#include "store_test_support.h"
#include "test_directory.h"
#include "web/store/store.h"

namespace web::store {
namespace {

using test::openOrFail;
using StoreAccounts = test::StoreTest;

constexpr std::int64_t kDay = 24 * 3600 * 1000;

StoredAccount create(Store& store, const std::string& name, const std::string& key) {
    auto made = store.createAccount(name, key, "hash-of-" + key, 1000);
    EXPECT_TRUE(made.ok()) << made.error();
    EXPECT_TRUE(made.ok() && made.value().has_value()) << name;
    return made.ok() && made.value() ? *made.value() : StoredAccount{};
}

StoredSession session(const std::string& hash, std::int64_t account, std::int64_t created) {
    return StoredSession{hash, account, created, created + 30 * kDay};
}

TEST_F(StoreAccounts, ANameIsTakenOnceWithoutRegardToCase) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    const auto ana = create(*store, "Ana", "ana");
    EXPECT_GT(ana.id, 0);
    EXPECT_EQ(ana.name, "Ana");
    const auto again = store->createAccount("ANA", "ana", "other", 2000);
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_FALSE(again.value().has_value());
    const auto found = store->findAccount("ana");
    ASSERT_TRUE(found.ok() && found.value().has_value());
    EXPECT_EQ(*found.value(), ana);
    EXPECT_EQ(found.value()->passwordHash, "hash-of-ana");
    EXPECT_FALSE(store->findAccount("ANA").value().has_value());  // the caller gives the key
    EXPECT_FALSE(store->findAccount("bob").value().has_value());
    const auto bob = create(*store, "bob", "bob");
    EXPECT_NE(bob.id, ana.id);
}

TEST_F(StoreAccounts, ASessionIsFoundWhileItLasts) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    const auto ana = create(*store, "Ana", "ana");
    ASSERT_TRUE(store->createSession(session("h1", ana.id, 10 * kDay)).ok());
    const auto found = store->findSession("h1", 11 * kDay);
    ASSERT_TRUE(found.ok() && found.value().has_value());
    EXPECT_EQ(found.value()->name, "Ana");
    EXPECT_FALSE(store->findSession("h2", 11 * kDay).value().has_value());  // a guessed one
    EXPECT_FALSE(store->findSession("h1", 40 * kDay).value().has_value());  // expired
    EXPECT_FALSE(store->findSession("h1", 41 * kDay).value().has_value());
    ASSERT_TRUE(store->deleteSession("h1").ok());
    EXPECT_FALSE(store->findSession("h1", 11 * kDay).value().has_value());  // signed out
    EXPECT_TRUE(store->deleteSession("h1").ok());                           // again: nothing
}

TEST_F(StoreAccounts, ExpiredSessionsGoWhenANewOneIsMade) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    const auto ana = create(*store, "Ana", "ana");
    ASSERT_TRUE(store->createSession(session("old", ana.id, 0)).ok());
    ASSERT_TRUE(store->createSession(session("new", ana.id, 31 * kDay)).ok());
    EXPECT_FALSE(store->findSession("old", 29 * kDay).value().has_value());  // deleted, not hidden
    EXPECT_TRUE(store->findSession("new", 32 * kDay).value().has_value());
}

TEST_F(StoreAccounts, ANewPasswordEndsTheOtherSessions) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    const auto ana = create(*store, "Ana", "ana");
    const auto bob = create(*store, "bob", "bob");
    for (const char* hash : {"a1", "a2", "a3"})
        ASSERT_TRUE(store->createSession(session(hash, ana.id, kDay)).ok());
    ASSERT_TRUE(store->createSession(session("b1", bob.id, kDay)).ok());
    const auto set = store->setPassword(ana.id, "new-hash", "a2");
    ASSERT_TRUE(set.ok() && set.value());
    EXPECT_EQ(store->findAccount("ana").value()->passwordHash, "new-hash");
    EXPECT_FALSE(store->findSession("a1", 2 * kDay).value().has_value());
    EXPECT_TRUE(store->findSession("a2", 2 * kDay).value().has_value());
    EXPECT_FALSE(store->findSession("a3", 2 * kDay).value().has_value());
    EXPECT_TRUE(store->findSession("b1", 2 * kDay).value().has_value());  // another's stays
    EXPECT_FALSE(store->setPassword(9999, "x", "").value());
}

TEST_F(StoreAccounts, ADeletedAccountFreesItsName) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    const auto ana = create(*store, "Ana", "ana");
    ASSERT_TRUE(store->createSession(session("a1", ana.id, kDay)).ok());
    const auto deleted = store->deleteAccount(ana.id);
    ASSERT_TRUE(deleted.ok() && deleted.value());
    EXPECT_FALSE(store->findAccount("ana").value().has_value());
    EXPECT_FALSE(store->findSession("a1", 2 * kDay).value().has_value());
    EXPECT_FALSE(store->deleteAccount(ana.id).value());  // once
    EXPECT_FALSE(store->setPassword(ana.id, "x", "").value());
    const auto anew = create(*store, "aNa", "ana");  // the name is free again: a new account
    EXPECT_NE(anew.id, ana.id);
    EXPECT_EQ(store->findAccount("ana").value()->name, "aNa");
}

TEST_F(StoreAccounts, KeptAcrossOpensAndInAMigratedFile) {
    const auto path = place("web.db");
    std::int64_t id = 0;
    {
        auto store = openOrFail(path);
        ASSERT_TRUE(store);
        id = create(*store, "Ana", "ana").id;
        ASSERT_TRUE(store->createSession(session("a1", id, kDay)).ok());
    }
    auto store = openOrFail(path);
    ASSERT_TRUE(store);
    EXPECT_EQ(store->schemaVersion(), Store::kSchemaVersion);
    EXPECT_EQ(store->findAccount("ana").value()->id, id);
    EXPECT_EQ(store->findSession("a1", 2 * kDay).value()->id, id);
    EXPECT_EQ(store->integrityCheck().value(), "ok");
}

// Text that looks like SQL or markup is kept as text (every statement is prepared).
TEST_F(StoreAccounts, TextIsKeptAsText) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    const std::string sql = "x'; DROP TABLE accounts;--";
    const auto made = store->createAccount(sql, sql, "<b>h</b>", 1);
    ASSERT_TRUE(made.ok() && made.value().has_value());
    EXPECT_EQ(store->findAccount(sql).value()->passwordHash, "<b>h</b>");
    EXPECT_TRUE(store->findAccount("ana").ok());  // the table is still there
}

}  // namespace
}  // namespace web::store
