// What the store's tests share: the back end they run on, a store opened or the test failed, raw
// SQL on a database (to make databases of older schemas), and an account made with a name of its
// own.
//
// Every store test runs on both back ends: the same sources are built twice, as web_store_tests
// (SQLite) and as web_store_pg_tests (LASCA_STORE_TESTS_POSTGRESQL: PostgreSQL, on the program's
// throwaway cluster, tests/web/pg_cluster.h, each test with databases of its own). A test names
// places, not files: fresh() is a new empty database, place(name) one that a test opens, closes
// and opens again.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "test_directory.h"
#include "web/store/connection.h"
#include "web/store/store.h"

#ifdef LASCA_STORE_TESTS_POSTGRESQL
#include <libpq-fe.h>

#include "../pg_cluster.h"
#endif

namespace web::store::test {

// A lobby offer's row with its first fields given (the others empty).
inline StoredSeek seekRow(std::string id, std::string kind, std::int64_t makerAccount,
                          std::string makerName, std::string params, std::int64_t created) {
    StoredSeek seek;
    seek.id = std::move(id);
    seek.kind = std::move(kind);
    seek.makerAccount = makerAccount;
    seek.makerName = std::move(makerName);
    seek.params = std::move(params);
    seek.created = created;
    return seek;
}

#ifdef LASCA_STORE_TESTS_POSTGRESQL
inline constexpr Backend kBackend = Backend::PostgreSQL;
#else
inline constexpr Backend kBackend = Backend::SQLite;
#endif

// The store on `location`, or nothing and the test failed.
inline std::unique_ptr<Store> openOrFail(const std::string& location) {
    auto store = Store::open(location);
    EXPECT_TRUE(store.ok()) << store.error();
    return store.ok() ? std::move(store).value() : nullptr;
}

// A new account named `name` (its key the same): its id, 0 when it could not be made.
inline std::int64_t account(Store& store, const std::string& name) {
    auto made = store.createAccount(name, name, "hash", 1000);
    EXPECT_TRUE(made.ok() && made.value().has_value());
    return made.ok() && made.value() ? made.value()->id : 0;
}

// StoreTest: the fixture of every store test, on the program's back end.
class StoreTest : public ::testing::Test {
  protected:
    static constexpr Backend backend() { return kBackend; }

    // A new, empty database: SQLite in memory (""), or a new database of the cluster.
    std::string fresh() {
        if constexpr (kBackend == Backend::SQLite) {
            return "";
        } else {
            return newDatabase();
        }
    }
    std::unique_ptr<Store> openFresh() { return openOrFail(fresh()); }

    // A database kept across opens, the same for the same name within the test: a file in the
    // test's directory, or a new database of the cluster.
    std::string place(const std::string& name) {
        auto& location = places_[name];
        if (location.empty())
            location = kBackend == Backend::SQLite ? (common::test::testDirectory() / name).string()
                                                   : newDatabase();
        return location;
    }

    // Runs `sql` on `location` with the back end's own library (not the store); false when it
    // fails.
    static bool execRaw(const std::string& location, const std::string& sql) {
#ifdef LASCA_STORE_TESTS_POSTGRESQL
        PGconn* conn = PQconnectdb(location.c_str());
        bool ok = PQstatus(conn) == CONNECTION_OK;
        if (ok) {
            PGresult* result = PQexec(conn, sql.c_str());
            ok = PQresultStatus(result) == PGRES_COMMAND_OK ||
                 PQresultStatus(result) == PGRES_TUPLES_OK;
            if (!ok) ADD_FAILURE() << PQresultErrorMessage(result);
            PQclear(result);
        }
        PQfinish(conn);
        return ok;
#else
        sqlite3* db = nullptr;
        const bool ok = sqlite3_open(location.c_str(), &db) == SQLITE_OK &&
                        sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
        sqlite3_close(db);
        return ok;
#endif
    }

    // A database of schema `version` holding `rows` (SQL both back ends run). On SQLite its
    // tables are `sqliteSchema`, as the release of that version made them; on PostgreSQL,
    // which no release of an older version wrote, the store's own migrations up to `version`.
    static bool makeOld(const std::string& location, int version, const std::string& sqliteSchema,
                        const std::string& rows) {
        if constexpr (kBackend == Backend::SQLite) {
            return execRaw(location, sqliteSchema + rows +
                                         "PRAGMA user_version = " + std::to_string(version) + ";");
        } else {
            const auto migrated = Store::migrateTo(location, version);
            EXPECT_TRUE(migrated.ok()) << migrated.error();
            return migrated.ok() && (rows.empty() || execRaw(location, rows));
        }
    }

    // Marks the database at `location` as of schema `version` (beyond the store's, say).
    static bool setVersion(const std::string& location, int version) {
        if constexpr (kBackend == Backend::SQLite) {
            return execRaw(location, "PRAGMA user_version = " + std::to_string(version));
        } else {
            return Store::migrateTo(location, 0).ok() &&
                   execRaw(location,
                           "UPDATE lasca_schema SET version = " + std::to_string(version));
        }
    }

  private:
    static std::string newDatabase() {
#ifdef LASCA_STORE_TESTS_POSTGRESQL
        static int made = 0;
        const auto& cluster = web::test::PgClusterEnvironment::cluster();
        if (!cluster.running()) {
            ADD_FAILURE() << "no PostgreSQL cluster: "
                          << web::test::PgClusterEnvironment::startError();
            return "postgresql:///none?host=/nonexistent";
        }
        std::string error;
        auto url = cluster.createDatabase("store_" + std::to_string(++made), error);
        if (url.empty()) ADD_FAILURE() << "cannot make a database: " << error;
        return url;
#else
        return "";
#endif
    }

    std::map<std::string, std::string> places_;
};

}  // namespace web::store::test
