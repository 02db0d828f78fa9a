// The SQLite driver of the store's connection (SQLiteCpp): SQLite's exceptions become DbError,
// their codes the kinds of failure the store names.
#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include "web/store/connection.h"

namespace web::store {

namespace {

DbError translate(const SQLite::Exception& e) {
    switch (e.getErrorCode()) {
        case SQLITE_NOTADB:
            return DbError(DbFailure::NotADatabase, e.what());
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
            return DbError(DbFailure::InUse, e.what());
        case SQLITE_READONLY:
        case SQLITE_CANTOPEN:
        case SQLITE_PERM:
            return DbError(DbFailure::ReadOnly, e.what());
        case SQLITE_FULL:
            return DbError(DbFailure::DiskFull, e.what());
        default:
            return DbError(DbFailure::Other, e.what());
    }
}

class SQLiteStatement final : public StatementDriver {
  public:
    SQLiteStatement(SQLite::Database& db, std::string_view sql) try
        : statement_(db, std::string(sql)) {
    } catch (const SQLite::Exception& e) {
        throw translate(e);
    }

    void bind(int index, std::int64_t value) override {
        guard([&] { statement_.bind(index, static_cast<std::int64_t>(value)); });
    }
    void bind(int index, double value) override {
        guard([&] { statement_.bind(index, value); });
    }
    void bind(int index, std::string_view value) override {
        guard([&] { statement_.bind(index, std::string(value)); });
    }
    void bindNull(int index) override {
        guard([&] { statement_.bind(index); });
    }
    bool step() override {
        bool row = false;
        guard([&] { row = statement_.executeStep(); });
        return row;
    }
    std::int64_t run() override {
        std::int64_t changed = 0;
        guard([&] { changed = statement_.exec(); });
        return changed;
    }
    void reset() override {
        guard([&] { statement_.reset(); });
    }
    bool isNull(int column) const override { return statement_.getColumn(column).isNull(); }
    std::int64_t int64(int column) const override {
        return statement_.getColumn(column).getInt64();
    }
    double real(int column) const override { return statement_.getColumn(column).getDouble(); }
    std::string text(int column) const override { return statement_.getColumn(column).getString(); }

  private:
    template <typename F>
    static void guard(F&& f) {
        try {
            f();
        } catch (const SQLite::Exception& e) {
            throw translate(e);
        }
    }

    SQLite::Statement statement_;
};

class SQLiteConnection final : public Connection {
  public:
    explicit SQLiteConnection(const std::string& path) try
        : db_(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE) {
    } catch (const SQLite::Exception& e) {
        throw translate(e);
    }

    Backend kind() const override { return Backend::SQLite; }
    std::unique_ptr<StatementDriver> prepare(std::string_view sql) override {
        return std::make_unique<SQLiteStatement>(db_, sql);
    }
    void exec(std::string_view sql) override {
        try {
            db_.exec(std::string(sql));
        } catch (const SQLite::Exception& e) {
            throw translate(e);
        }
    }
    void begin(TransactionLock lock) override {
        exec(lock == TransactionLock::Immediate ? "BEGIN IMMEDIATE" : "BEGIN");
    }
    void commit() override { exec("COMMIT"); }
    void rollback() override { exec("ROLLBACK"); }

  private:
    SQLite::Database db_;
};

}  // namespace

std::unique_ptr<Connection> openSQLite(const std::string& path) {
    return std::make_unique<SQLiteConnection>(path);
}

}  // namespace web::store
