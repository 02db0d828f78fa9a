// What the store's tests share: a store opened or the test failed, raw SQL on a file (to make
// files of older schemas), and an account made with a name of its own.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <string>

#include "web/store/store.h"

namespace web::store::test {

// The store on `path` ("" for one in memory), or nothing and the test failed.
inline std::unique_ptr<Store> openOrFail(const std::string& path) {
    auto store = Store::open(path);
    EXPECT_TRUE(store.ok()) << store.error();
    return store.ok() ? std::move(store).value() : nullptr;
}

// Runs `sql` on the file at `path` with SQLite itself (not the store); false when it fails.
inline bool execRaw(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    const bool ok = sqlite3_open(path.c_str(), &db) == SQLITE_OK &&
                    sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(db);
    return ok;
}

// A new account named `name` (its key the same): its id, 0 when it could not be made.
inline std::int64_t account(Store& store, const std::string& name) {
    auto made = store.createAccount(name, name, "hash", 1000);
    EXPECT_TRUE(made.ok() && made.value().has_value());
    return made.ok() && made.value() ? made.value()->id : 0;
}

}  // namespace web::store::test
