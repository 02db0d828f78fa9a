// The store's link to its database: one small interface that the store's SQL is written against
// once, and two drivers behind it, SQLite (SQLiteCpp, a file or memory) and PostgreSQL (libpq, a
// server reached by a `postgresql://` URL).
//
// SQL is written once for both: parameters are `?` (numbered as SQLite numbers them: the n-th
// `?` is n, `?N` is N), which the PostgreSQL driver turns into `$N`; values bound are 64-bit
// integers, doubles, text or NULL, and columns read back as the same. A statement prepares on
// construction and runs on its first step(); reset() lets it run again with new values. What
// differs between the two dialects (types of the schema, the schema version's place) is the
// store's table of fragments (store.cpp), not the drivers'.
//
// Failures are thrown as DbError inside the store only: each public Store call catches them and
// returns a one-line error value. A driver never prints.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace web::store {

// The two back ends.
enum class Backend : std::uint8_t { SQLite, PostgreSQL };

// What kind of failure a DbError is, for the one line the store writes.
enum class DbFailure : std::uint8_t {
    Other,
    NotADatabase,  // the file is not a database
    InUse,         // held by another server (SQLite's lock), or a lock not granted in time
    ReadOnly,      // the database cannot be written
    DiskFull,
    Unreachable,  // the database server cannot be reached, refused us, or the link was lost
    Timeout,      // the server did not answer within the statement timeout
    Moved,        // the table's lease moved on to another instance (Store::setHome)
};

class DbError : public std::runtime_error {
  public:
    DbError(DbFailure failure, const std::string& what)
        : std::runtime_error(what), failure_(failure) {}
    DbFailure failure() const { return failure_; }

  private:
    DbFailure failure_;
};

// A driver's statement: one SQL statement, its bound values and, once run, its rows. Bind
// indexes are 1-based, columns 0-based.
class StatementDriver {
  public:
    virtual ~StatementDriver() = default;
    virtual void bind(int index, std::int64_t value) = 0;
    virtual void bind(int index, double value) = 0;
    virtual void bind(int index, std::string_view value) = 0;
    virtual void bindNull(int index) = 0;
    // Runs the statement on the first call; true while there is a row to read.
    virtual bool step() = 0;
    // Runs the statement to its end; the number of rows it changed.
    virtual std::int64_t run() = 0;
    // Ready to run again; the values bound stay bound.
    virtual void reset() = 0;
    virtual bool isNull(int column) const = 0;
    virtual std::int64_t int64(int column) const = 0;
    virtual double real(int column) const = 0;
    virtual std::string text(int column) const = 0;
};

// How a transaction begins. Immediate: it waits for every other Immediate transaction of the
// database (SQLite's BEGIN IMMEDIATE takes the write lock; on PostgreSQL one advisory lock that
// every Immediate transaction takes), for the read-then-write steps of the rated ends.
enum class TransactionLock : std::uint8_t { Deferred, Immediate };

// One open database. Not thread-safe: the store's mutex guards it.
class Connection {
  public:
    virtual ~Connection() = default;
    virtual Backend kind() const = 0;
    virtual std::unique_ptr<StatementDriver> prepare(std::string_view sql) = 0;
    // Runs SQL without parameters: one statement or several separated by ';'.
    virtual void exec(std::string_view sql) = 0;
    virtual void begin(TransactionLock lock) = 0;
    virtual void commit() = 0;
    virtual void rollback() = 0;
};

// Opens the SQLite file at `path` (":memory:" for a database in memory), creating it if needed.
std::unique_ptr<Connection> openSQLite(const std::string& path);
// Connects to the PostgreSQL database of `url` (a libpq URL, postgresql://...): connect_timeout
// 10 s unless the URL sets it, statement_timeout 15 s, UTF-8, and the server's notices dropped.
std::unique_ptr<Connection> openPostgreSQL(const std::string& url);
// Whether `location` names a PostgreSQL database (postgresql:// or postgres://) rather than a
// file.
bool isPostgreSQLUrl(std::string_view location);
// `url` with any password in it replaced by "***", for messages.
std::string withoutPassword(std::string_view url);

// A statement as the store's code uses it (the SQLiteCpp shape): prepared on construction,
// bound, stepped, its columns read.
class Statement {
  public:
    Statement(Connection& db, std::string_view sql) : driver_(db.prepare(sql)) {}
    void bind(int index, std::int64_t value) { driver_->bind(index, value); }
    void bind(int index, int value) { driver_->bind(index, static_cast<std::int64_t>(value)); }
    void bind(int index, double value) { driver_->bind(index, value); }
    void bind(int index, std::string_view value) { driver_->bind(index, value); }
    void bind(int index, const std::string& value) {
        driver_->bind(index, std::string_view(value));
    }
    void bind(int index, const char* value) { driver_->bind(index, std::string_view(value)); }
    void bindNull(int index) { driver_->bindNull(index); }
    bool executeStep() { return driver_->step(); }
    std::int64_t exec() { return driver_->run(); }
    void reset() { driver_->reset(); }

    // One column of the current row.
    class Column {
      public:
        Column(const StatementDriver& statement, int index) : s_(statement), i_(index) {}
        bool isNull() const { return s_.isNull(i_); }
        std::int64_t getInt64() const { return s_.int64(i_); }
        int getInt() const { return static_cast<int>(s_.int64(i_)); }
        double getDouble() const { return s_.real(i_); }
        std::string getString() const { return s_.text(i_); }

      private:
        const StatementDriver& s_;
        int i_;
    };
    Column getColumn(int index) const { return Column(*driver_, index); }

  private:
    std::unique_ptr<StatementDriver> driver_;
};

// A transaction that rolls back when it goes out of scope uncommitted.
class Transaction {
  public:
    explicit Transaction(Connection& db, TransactionLock lock = TransactionLock::Deferred)
        : db_(db) {
        db_.begin(lock);
    }
    ~Transaction() {
        if (open_) {
            try {
                db_.rollback();
            } catch (const DbError&) {  // a lost link: the server has dropped it already
            }
        }
    }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit() {
        db_.commit();
        open_ = false;
    }

  private:
    Connection& db_;
    bool open_ = true;
};

}  // namespace web::store
