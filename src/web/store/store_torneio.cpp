// The Torneio tables in the store: their rows, seats (with the accounts holding them) and
// decisions. Their rated ends are store_ratings.cpp's.

#include "store_internal.h"
#include "web/store/store.h"

namespace web::store {

common::Result<bool> Store::createTorneioTable(const StoredTorneioTable& table) {
    std::lock_guard lock(mutex_);
    try {
        Transaction transaction(*db_);
        guardHome(homeKey("torneio", table.id));
        Statement row(*db_,
                      "INSERT INTO torneio_tables (id, params, seed, result, record, "
                      "created, updated, rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
        row.bind(1, table.id);
        row.bind(2, table.params);
        row.bind(3, std::to_string(table.seed));
        row.bind(4, table.result);
        row.bind(5, table.record);
        row.bind(6, static_cast<std::int64_t>(table.created));
        row.bind(7, static_cast<std::int64_t>(table.updated));
        row.bind(8, table.rated ? 1 : 0);
        row.exec();
        Statement seat(*db_,
                       "INSERT INTO torneio_seats (tbl, seat, kind, level, token_hash, "
                       "account) VALUES (?, ?, ?, ?, ?, ?)");
        for (std::size_t s = 0; s < table.seats.size(); ++s) {
            seat.bind(1, table.id);
            seat.bind(2, static_cast<std::int64_t>(s));
            seat.bind(3, table.seats[s].kind);
            seat.bind(4, table.seats[s].level);
            seat.bind(5, table.seats[s].tokenHash);
            if (table.seats[s].account > 0)
                seat.bind(6, static_cast<std::int64_t>(table.seats[s].account));
            else
                seat.bindNull(6);  // NULL: no account
            seat.exec();
            seat.reset();
        }
        Statement decision(
            *db_, "INSERT INTO torneio_decisions (tbl, n, seat, action) VALUES (?, ?, ?, ?)");
        for (std::size_t n = 0; n < table.decisions.size(); ++n) {
            decision.bind(1, table.id);
            decision.bind(2, static_cast<std::int64_t>(n));
            decision.bind(3, table.decisions[n].seat);
            decision.bind(4, table.decisions[n].action);
            decision.exec();
            decision.reset();
        }
        transaction.commit();
        return true;
    } catch (const DbError& e) {
        return makeError(failure("saving table " + table.id, e));
    }
}

common::Result<bool> Store::addTorneioDecision(const std::string& id, std::size_t index,
                                               const StoredTorneioDecision& decision,
                                               std::int64_t updated) {
    std::lock_guard lock(mutex_);
    try {
        Transaction transaction(*db_);
        guardHome(homeKey("torneio", id));
        Statement add(*db_,
                      "INSERT INTO torneio_decisions (tbl, n, seat, action) VALUES (?, ?, ?, ?)");
        add.bind(1, id);
        add.bind(2, static_cast<std::int64_t>(index));
        add.bind(3, decision.seat);
        add.bind(4, decision.action);
        add.exec();
        Statement touch(*db_, "UPDATE torneio_tables SET updated = ? WHERE id = ?");
        touch.bind(1, static_cast<std::int64_t>(updated));
        touch.bind(2, id);
        touch.exec();
        transaction.commit();
        return true;
    } catch (const DbError& e) {
        return makeError(failure("saving a decision of table " + id, e));
    }
}

common::Result<bool> Store::finishTorneioTable(const std::string& id, const std::string& result,
                                               const std::string& record, std::int64_t updated) {
    std::lock_guard lock(mutex_);
    try {
        Transaction transaction(*db_);
        guardHome(homeKey("torneio", id));
        Statement finish(
            *db_, "UPDATE torneio_tables SET result = ?, record = ?, updated = ? WHERE id = ?");
        finish.bind(1, result);
        finish.bind(2, record);
        finish.bind(3, static_cast<std::int64_t>(updated));
        finish.bind(4, id);
        if (finish.exec() != 1)
            return makeError("saving the end of table " + id + ": no such table");
        transaction.commit();
        return true;
    } catch (const DbError& e) {
        return makeError(failure("saving the end of table " + id, e));
    }
}

std::optional<StoredTorneioTable> Store::readTorneioTable(const std::string& id, bool withPlay) {
    Statement row(*db_,
                  "SELECT params, seed, result, CASE WHEN ?2 <> 0 THEN record ELSE '' END, "
                  "created, updated, rated FROM torneio_tables WHERE id = ?1");
    row.bind(1, id);
    row.bind(2, withPlay ? 1 : 0);
    if (!row.executeStep()) return std::nullopt;
    StoredTorneioTable table;
    table.id = id;
    table.params = row.getColumn(0).getString();
    table.seed = std::stoull(row.getColumn(1).getString());
    table.result = row.getColumn(2).getString();
    table.record = row.getColumn(3).getString();
    table.created = row.getColumn(4).getInt64();
    table.updated = row.getColumn(5).getInt64();
    table.rated = row.getColumn(6).getInt() != 0;
    Statement seats(*db_,
                    "SELECT s.kind, s.level, s.token_hash, COALESCE(s.account, 0), "
                    "COALESCE(a.name, '') FROM torneio_seats s "
                    "LEFT JOIN accounts a ON a.id = s.account WHERE s.tbl = ? "
                    "ORDER BY s.seat");
    seats.bind(1, id);
    while (seats.executeStep())
        table.seats.push_back({seats.getColumn(0).getString(), seats.getColumn(1).getInt(),
                               seats.getColumn(2).getString(), seats.getColumn(3).getInt64(),
                               seats.getColumn(4).getString()});
    if (!withPlay) return table;
    Statement decisions(*db_,
                        "SELECT seat, action FROM torneio_decisions WHERE tbl = ? ORDER BY n");
    decisions.bind(1, id);
    while (decisions.executeStep())
        table.decisions.push_back(
            {decisions.getColumn(0).getInt(), decisions.getColumn(1).getString()});
    return table;
}

common::Result<std::optional<StoredTorneioTable>> Store::loadTorneioTable(const std::string& id) {
    std::lock_guard lock(mutex_);
    try {
        return readTorneioTable(id);
    } catch (const std::exception& e) {  // the database's, or a seed that is not a number
        return makeError("loading table " + id + ": " + e.what());
    }
}

common::Result<std::optional<StoredTorneioTable>> Store::torneioTableByNumber(std::int64_t number) {
    std::lock_guard lock(mutex_);
    try {
        Statement find(*db_, "SELECT id FROM torneio_tables WHERE rowid = ?");
        find.bind(1, static_cast<std::int64_t>(number));
        if (!find.executeStep()) return std::optional<StoredTorneioTable>();
        return readTorneioTable(find.getColumn(0).getString());
    } catch (const std::exception& e) {
        return makeError("loading table " + std::to_string(number) + ": " + e.what());
    }
}

common::Result<std::int64_t> Store::torneioTableCount() {
    std::lock_guard lock(mutex_);
    try {
        Statement count(*db_, "SELECT COUNT(*) FROM torneio_tables");
        count.executeStep();
        return count.getColumn(0).getInt64();
    } catch (const DbError& e) {
        return makeError(failure("counting tables", e));
    }
}

}  // namespace web::store
