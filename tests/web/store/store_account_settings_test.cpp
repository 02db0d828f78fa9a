// An account's settings in the store (include/web/store/store.h, migration 10): its language and
// the lessons of /learn it completed; a version-9 file migrated keeping its accounts and their
// sessions (no language, no lesson); both kept across opens and gone with a deleted account.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "store_test_support.h"
#include "test_directory.h"
#include "web/store/store.h"

namespace web::store {
namespace {

using test::account;
using test::openOrFail;
using StoreAccountSettings = test::StoreTest;

TEST_F(StoreAccountSettings, AVersionNineFileKeepsItsAccountsWithNoLanguageAndNoLesson) {
    const auto path = place("v9.db");
    ASSERT_TRUE(
        makeOld(path, 9,
                "CREATE TABLE accounts (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,"
                " name_key TEXT UNIQUE, password_hash TEXT NOT NULL, created_at INTEGER NOT NULL,"
                " deleted INTEGER NOT NULL DEFAULT 0);"
                "CREATE TABLE sessions (token_hash TEXT PRIMARY KEY, account_id INTEGER NOT NULL,"
                " created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID;",
                "INSERT INTO accounts (name, name_key, password_hash, created_at)"
                " VALUES ('Ana', 'ana', 'hash-a', 1000);"
                "INSERT INTO sessions VALUES ('tok', 1, 1000, 999999);"));
    {
        auto store = openOrFail(path);
        ASSERT_TRUE(store);
        EXPECT_EQ(store->schemaVersion(), Store::kSchemaVersion);
        const auto ana = store->findAccount("ana");
        ASSERT_TRUE(ana.ok() && ana.value().has_value()) << (ana.ok() ? "" : ana.error());
        EXPECT_EQ(ana.value()->name, "Ana");
        EXPECT_EQ(ana.value()->passwordHash, "hash-a");
        EXPECT_EQ(ana.value()->created, 1000);
        EXPECT_EQ(ana.value()->lang, "");
        const auto session = store->findSession("tok", 2000);
        ASSERT_TRUE(session.ok() && session.value().has_value());
        EXPECT_EQ(session.value()->id, ana.value()->id);
        const auto lessons = store->learnProgress(ana.value()->id);
        ASSERT_TRUE(lessons.ok()) << lessons.error();
        EXPECT_TRUE(lessons.value().empty());
        ASSERT_TRUE(store->setAccountLanguage(ana.value()->id, "pt-BR").value());
        ASSERT_TRUE(store->setLearnProgress(ana.value()->id, {"first-move", "capture-2"}).value());
        EXPECT_EQ(store->integrityCheck().value(), "ok");
    }
    auto again = openOrFail(path);
    ASSERT_TRUE(again);
    const auto ana = again->findAccount("ana");
    ASSERT_TRUE(ana.ok() && ana.value().has_value());
    EXPECT_EQ(ana.value()->lang, "pt-BR");
    EXPECT_EQ(again->findSession("tok", 2000).value()->lang, "pt-BR");
    EXPECT_EQ(again->learnProgress(ana.value()->id).value(),
              (std::vector<std::string>{"first-move", "capture-2"}));
}

TEST_F(StoreAccountSettings, LanguageAndLessonsAreEachAccountsOwnAndReplacedWhole) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    const auto ana = account(*store, "ana"), bo = account(*store, "bo");
    ASSERT_TRUE(store->setAccountLanguage(ana, "pt-BR").value());
    ASSERT_TRUE(store->setLearnProgress(ana, {"a", "b", "c"}).value());
    EXPECT_EQ(store->findAccount("bo").value()->lang, "");
    EXPECT_TRUE(store->learnProgress(bo).value().empty());
    ASSERT_TRUE(store->setLearnProgress(ana, {"c"}).value());
    EXPECT_EQ(store->learnProgress(ana).value(), std::vector<std::string>{"c"});
    ASSERT_TRUE(store->setLearnProgress(ana, {}).value());
    EXPECT_TRUE(store->learnProgress(ana).value().empty());
    ASSERT_TRUE(store->setAccountLanguage(ana, "").value());
    EXPECT_EQ(store->findAccount("ana").value()->lang, "");
}

TEST_F(StoreAccountSettings, ADeletedOrUnknownAccountTakesNoSetting) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    const auto ana = account(*store, "ana");
    ASSERT_TRUE(store->deleteAccount(ana).value());
    EXPECT_FALSE(store->setAccountLanguage(ana, "pt-BR").value());
    EXPECT_FALSE(store->setLearnProgress(ana, {"a"}).value());
    EXPECT_FALSE(store->setAccountLanguage(ana + 100, "en").value());
    EXPECT_TRUE(store->learnProgress(ana).value().empty());
}

}  // namespace
}  // namespace web::store
