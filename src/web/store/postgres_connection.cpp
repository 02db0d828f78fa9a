// The PostgreSQL driver of the store's connection (libpq's C API). One connection per store,
// behind the store's mutex. Each statement runs with PQexecParams (parse, bind and execute in
// one round trip), its values sent as text with their types named (int8, float8, text), its
// rows read as text. The store's `?` placeholders become `$N` here.
//
// Nothing waits for ever: the connection is made with connect_timeout (10 s unless the URL sets
// another) and every statement runs under statement_timeout. A failure is a DbError naming what
// the server said; a link found broken outside a transaction is made again (PQreset) before the
// next statement, and a BEGIN or a read that found it broken is sent once more on the new link,
// so that a restarted server is used again without restarting lasca-web and without an error.
#include <libpq-fe.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>
#include <vector>

#include "store_internal.h"
#include "web/store/connection.h"

namespace web::store {

namespace {

// The types the store binds (pg_type's oids, fixed since PostgreSQL's first releases).
constexpr Oid kInt8 = 20;
constexpr Oid kText = 25;
constexpr Oid kFloat8 = 701;

constexpr const char* kStatementTimeout = "SET statement_timeout = '15s'";
// The advisory lock every Immediate transaction takes (any fixed number: lasca's own).
constexpr const char* kImmediateLock = "SELECT pg_advisory_xact_lock(5827226)";

// `?` and `?N` outside quotes and comments turned into `$N`, as SQLite numbers them; `count`
// receives the highest number.
std::string numberPlaceholders(std::string_view sql, int& count) {
    std::string out;
    out.reserve(sql.size() + 16);
    count = 0;
    for (std::size_t i = 0; i < sql.size(); ++i) {
        const char c = sql[i];
        if (c == '\'' || c == '"') {  // a quoted literal or name, copied whole
            const auto end = sql.find(c, i + 1);
            const auto stop = end == std::string_view::npos ? sql.size() : end + 1;
            out.append(sql.substr(i, stop - i));
            i = stop - 1;
            continue;
        }
        if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {  // a comment to the line's end
            const auto end = sql.find('\n', i);
            const auto stop = end == std::string_view::npos ? sql.size() : end;
            out.append(sql.substr(i, stop - i));
            i = stop - 1;
            continue;
        }
        if (c != '?') {
            out += c;
            continue;
        }
        std::size_t digits = i + 1;
        while (digits < sql.size() && sql[digits] >= '0' && sql[digits] <= '9') ++digits;
        int number = count + 1;
        if (digits > i + 1) std::from_chars(sql.data() + i + 1, sql.data() + digits, number);
        if (number > count) count = number;
        out += '$';
        out += std::to_string(number);
        i = digits - 1;
    }
    return out;
}

DbFailure failureOf(const PGresult* result, const PGconn* conn) {
    if (PQstatus(conn) != CONNECTION_OK) return DbFailure::Unreachable;
    const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
    if (!state) return DbFailure::Other;
    const std::string_view code(state);
    if (code == "53100") return DbFailure::DiskFull;
    if (code == "25006" || code == "42501") return DbFailure::ReadOnly;
    if (code == "57014") return DbFailure::Timeout;
    if (code == "55P03" || code == "40P01" || code == "40001") return DbFailure::InUse;
    if (code.substr(0, 2) == "08" || code.substr(0, 3) == "57P") return DbFailure::Unreachable;
    return DbFailure::Other;
}

// A result freed with its owner.
struct ResultDeleter {
    void operator()(PGresult* result) const { PQclear(result); }
};
using Result = std::unique_ptr<PGresult, ResultDeleter>;

class PgConnection;

class PgStatement final : public StatementDriver {
  public:
    PgStatement(PgConnection& db, std::string_view sql);

    void bind(int index, std::int64_t value) override { set(index, std::to_string(value), kInt8); }
    void bind(int index, double value) override {
        char buffer[32];
        const auto written = std::to_chars(buffer, buffer + sizeof buffer, value);
        set(index, std::string(buffer, written.ptr), kFloat8);
    }
    void bind(int index, std::string_view value) override { set(index, std::string(value), kText); }
    void bindNull(int index) override {
        slot(index);
        values_[static_cast<std::size_t>(index - 1)].reset();
        types_[static_cast<std::size_t>(index - 1)] = 0;
    }
    bool step() override {
        if (!result_) execute();
        ++row_;
        return row_ < PQntuples(result_.get());
    }
    std::int64_t run() override {
        if (!result_) execute();
        std::int64_t changed = 0;
        const char* tuples = PQcmdTuples(result_.get());
        std::from_chars(tuples, tuples + std::strlen(tuples), changed);
        return changed;
    }
    void reset() override {
        result_.reset();
        row_ = -1;
    }
    bool isNull(int column) const override { return PQgetisnull(result_.get(), row_, column) != 0; }
    std::int64_t int64(int column) const override {
        const char* value = PQgetvalue(result_.get(), row_, column);
        std::int64_t number = 0;
        const auto end = value + std::strlen(value);
        if (std::from_chars(value, end, number).ptr != end && end != value)
            throw DbError(DbFailure::Other, std::string("not an integer: ") + value);
        return number;
    }
    double real(int column) const override {
        const char* value = PQgetvalue(result_.get(), row_, column);
        double number = 0;
        std::from_chars(value, value + std::strlen(value), number);
        return number;
    }
    std::string text(int column) const override {
        return std::string(PQgetvalue(result_.get(), row_, column),
                           static_cast<std::size_t>(PQgetlength(result_.get(), row_, column)));
    }

  private:
    void slot(int index) {
        if (index < 1 || index > count_)
            throw DbError(DbFailure::Other, "no parameter " + std::to_string(index));
    }
    void set(int index, std::string value, Oid type) {
        slot(index);
        values_[static_cast<std::size_t>(index - 1)] = std::move(value);
        types_[static_cast<std::size_t>(index - 1)] = type;
    }
    void execute();

    PgConnection& db_;
    int count_ = 0;  // before sql_: numberPlaceholders sets it
    std::string sql_;
    std::vector<std::optional<std::string>> values_;
    std::vector<Oid> types_;
    Result result_;
    int row_ = -1;
};

class PgConnection final : public Connection {
  public:
    explicit PgConnection(const std::string& url) : where_(withoutPassword(url)) {
        conn_ = connectPostgreSQL(url, "lasca-web");
        if (!conn_) throw DbError(DbFailure::Unreachable, "libpq cannot make a connection");
        if (PQstatus(conn_) != CONNECTION_OK) {
            const std::string why = firstLine(PQerrorMessage(conn_));
            PQfinish(conn_);
            conn_ = nullptr;
            throw DbError(DbFailure::Unreachable, why);
        }
        settle();
    }
    ~PgConnection() override { PQfinish(conn_); }
    PgConnection(const PgConnection&) = delete;
    PgConnection& operator=(const PgConnection&) = delete;

    Backend kind() const override { return Backend::PostgreSQL; }
    std::unique_ptr<StatementDriver> prepare(std::string_view sql) override {
        return std::make_unique<PgStatement>(*this, sql);
    }
    void exec(std::string_view sql) override {
        const std::string text(sql);
        run([&] { return PQexec(conn_, text.c_str()); }, startsWith(sql, "BEGIN"));
    }
    void begin(TransactionLock lock) override {
        exec(lock == TransactionLock::Immediate ? std::string("BEGIN; ") + kImmediateLock
                                                : std::string("BEGIN"));
        inTransaction_ = true;
    }
    void commit() override {
        inTransaction_ = false;
        exec("COMMIT");
    }
    void rollback() override {
        inTransaction_ = false;
        if (PQstatus(conn_) == CONNECTION_OK) exec("ROLLBACK");
    }

    // The link checked before a statement: made again when it broke outside a transaction;
    // inside one the transaction is lost, which is the statement's failure.
    void ready() {
        if (PQstatus(conn_) == CONNECTION_OK) return;
        if (inTransaction_)
            throw DbError(DbFailure::Unreachable, "the link to " + where_ + " was lost");
        PQreset(conn_);
        if (PQstatus(conn_) != CONNECTION_OK)
            throw DbError(DbFailure::Unreachable, "the link to " + where_ +
                                                      " was lost and cannot be made again: " +
                                                      firstLine(PQerrorMessage(conn_)));
        settle();
    }
    // Runs `send` (a libpq call that returns a result) on a ready link. A statement that changes
    // nothing (`harmless`: a BEGIN, a SELECT) which finds the link broken outside a transaction
    // (a restarted server ends every connection) is sent once more on a link made again, so the
    // call after a restart is not the one that fails; a write is never sent twice, as it may
    // have been committed before the link broke.
    template <typename Send>
    Result run(const Send& send, bool harmless) {
        ready();
        Result result(send());
        const bool failed = !result || (PQresultStatus(result.get()) != PGRES_COMMAND_OK &&
                                        PQresultStatus(result.get()) != PGRES_TUPLES_OK);
        if (failed && harmless && !inTransaction_ && PQstatus(conn_) != CONNECTION_OK) {
            ready();
            result = Result(send());
        }
        return check(std::move(result));
    }
    static bool startsWith(std::string_view sql, std::string_view word) {
        const auto start = sql.find_first_not_of(" \n\t");
        return start != std::string_view::npos && sql.substr(start, word.size()) == word;
    }

    // A result that is not a success thrown as a DbError.
    Result check(Result result) {
        const auto status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
        if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return result;
        const DbFailure failure = failureOf(result.get(), conn_);
        std::string message =
            result ? firstLine(PQresultErrorField(result.get(), PG_DIAG_MESSAGE_PRIMARY))
                   : firstLine(PQerrorMessage(conn_));
        if (failure == DbFailure::Unreachable && PQstatus(conn_) != CONNECTION_OK)
            message = "the link to " + where_ + " was lost: " + firstLine(PQerrorMessage(conn_));
        throw DbError(failure, message);
    }
    PGconn* handle() { return conn_; }

  private:
    // The session's settings, and the server's notices (NOTICE, WARNING) not printed.
    void settle() {
        PQsetNoticeProcessor(
            conn_, [](void*, const char*) {}, nullptr);
        check(Result(PQexec(conn_, kStatementTimeout)));
    }

    PGconn* conn_ = nullptr;
    std::string where_;
    bool inTransaction_ = false;
};

PgStatement::PgStatement(PgConnection& db, std::string_view sql)
    : db_(db), count_(0), sql_(numberPlaceholders(sql, count_)) {
    values_.resize(static_cast<std::size_t>(count_));
    types_.resize(static_cast<std::size_t>(count_), 0);
}

void PgStatement::execute() {
    std::vector<const char*> values(values_.size());
    for (std::size_t i = 0; i < values_.size(); ++i)
        values[i] = values_[i] ? values_[i]->c_str() : nullptr;
    result_ = db_.run(
        [&] {
            return PQexecParams(db_.handle(), sql_.c_str(), count_, types_.data(), values.data(),
                                nullptr, nullptr, 0);
        },
        PgConnection::startsWith(sql_, "SELECT"));
    row_ = -1;
}

}  // namespace

std::string firstLine(const char* message) {
    std::string text = message ? message : "";
    const auto end = text.find('\n');
    if (end != std::string::npos) text.resize(end);
    return text.empty() ? "no message from the server" : text;
}

pg_conn* connectPostgreSQL(const std::string& url, const char* application) {
    // Later entries override earlier ones: the URL's own settings win over these defaults.
    const char* keys[] = {"connect_timeout", "client_encoding", "application_name", "dbname",
                          nullptr};
    const char* values[] = {"10", "UTF8", application, url.c_str(), nullptr};
    return PQconnectdbParams(keys, values, 1);
}

std::unique_ptr<Connection> openPostgreSQL(const std::string& url) {
    return std::make_unique<PgConnection>(url);
}

bool isPostgreSQLUrl(std::string_view location) {
    return location.rfind("postgresql://", 0) == 0 || location.rfind("postgres://", 0) == 0;
}

std::string withoutPassword(std::string_view url) {
    std::string out(url);
    // postgresql://user:password@host/...: the text between the user's ':' and the '@'.
    const auto scheme = out.find("://");
    if (scheme != std::string::npos) {
        const auto start = scheme + 3;
        const auto at = out.find('@', start);
        const auto slash = out.find('/', start);
        if (at != std::string::npos && (slash == std::string::npos || at < slash)) {
            const auto colon = out.find(':', start);
            if (colon != std::string::npos && colon < at)
                out.replace(colon + 1, at - colon - 1, "***");
        }
    }
    // ...?password=secret&...: the value up to the next '&'.
    for (auto key = out.find("password="); key != std::string::npos;
         key = out.find("password=", key + 1)) {
        const auto start = key + std::strlen("password=");
        const auto end = std::min(out.find('&', start), out.size());
        out.replace(start, end - start, "***");
    }
    return out;
}

}  // namespace web::store
