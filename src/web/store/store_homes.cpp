// Homes: which instance holds each table, under a lease renewed through the instance's row
// (Store::setHome in store.h). The lease's number fences writes: each takeover adds one, and a
// write checks, inside its own transaction, the number this instance took. On PostgreSQL the
// check reads the row FOR SHARE and a takeover changes it FOR UPDATE, so a takeover waits for a
// write in flight and every write after it sees the new number.

#include <utility>

#include "store_internal.h"
#include "web/store/store.h"

namespace web::store {

namespace {

// Whether the database holds the table of key `kind:id` (homeKey): a game against the engine or
// on the analysis board ("lasca"), a two-person table ("duel"), a Torneio table ("torneio").
bool tableExists(Connection& db, const std::string& key) {
    const auto colon = key.find(':');
    const std::string kind = key.substr(0, colon);
    const char* sql = kind == "lasca"     ? "SELECT 1 FROM lasca_games WHERE id = ?"
                      : kind == "duel"    ? "SELECT 1 FROM lasca_duels WHERE id = ?"
                      : kind == "torneio" ? "SELECT 1 FROM torneio_tables WHERE id = ?"
                                          : nullptr;
    if (!sql || colon == std::string::npos) return false;
    Statement row(db, sql);
    row.bind(1, key.substr(colon + 1));
    return row.executeStep();
}

}  // namespace

void Store::setHome(const std::string& name, std::int64_t ttlMs) {
    std::lock_guard lock(mutex_);
    home_ = name;
    ttlMs_ = ttlMs;
}

bool Store::holds(const std::string& key) const {
    std::lock_guard lock(mutex_);
    return home_.empty() || held_.contains(key);
}

HomeStats Store::homeStats() const {
    std::lock_guard lock(mutex_);
    HomeStats stats{home_, held_.size(), takeovers_, staleWrites_, renewals_, -1, ttlMs_};
    if (renewals_ > 0)
        stats.sinceRenewalMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::steady_clock::now() - lastRenewal_)
                                   .count();
    return stats;
}

void Store::guardHome(const std::string& key) {
    if (home_.empty()) return;
    Statement row(*db_, dialect(db_->kind(),
                                "SELECT home, lease FROM table_homes WHERE id = ?"
                                "{for_share}"));
    row.bind(1, key);
    const auto it = held_.find(key);
    if (!row.executeStep()) {  // a new table: this instance's from its first write
        Statement add(*db_, "INSERT INTO table_homes (id, home, lease) VALUES (?, ?, 1)");
        add.bind(1, key);
        add.bind(2, home_);
        add.exec();
        held_[key] = 1;
        return;
    }
    const std::string home = row.getColumn(0).getString();
    const std::int64_t lease = row.getColumn(1).getInt64();
    if (it != held_.end() && home == home_ && lease == it->second) return;
    ++staleWrites_;
    if (it != held_.end()) {
        held_.erase(it);
        movedAway_.push_back(key);
    }
    throw DbError(DbFailure::Moved, "table " + key + " is held by instance " + home +
                                        " under lease " + std::to_string(lease));
}

common::Result<TableHome> Store::takeTable(const std::string& key) {
    std::lock_guard lock(mutex_);
    if (home_.empty()) return TableHome{true, true, "", 0};
    try {
        Transaction transaction(*db_);
        if (!tableExists(*db_, key)) return TableHome{false, false, "", 0};
        Statement add(*db_,
                      "INSERT INTO table_homes (id, home, lease) VALUES (?, ?, 1) "
                      "ON CONFLICT (id) DO NOTHING");
        add.bind(1, key);
        add.bind(2, home_);
        if (add.exec() == 1) {
            transaction.commit();
            held_[key] = 1;
            return TableHome{true, true, home_, 1};
        }
        Statement row(*db_, dialect(db_->kind(),
                                    "SELECT home, lease FROM table_homes "
                                    "WHERE id = ?{for_update}"));
        row.bind(1, key);
        if (!row.executeStep()) return makeError("taking table " + key + ": its row is gone");
        const std::string home = row.getColumn(0).getString();
        const std::int64_t lease = row.getColumn(1).getInt64();
        const auto it = held_.find(key);
        if (home == home_ && it != held_.end() && it->second == lease) {
            transaction.commit();
            return TableHome{true, true, home_, lease};
        }
        if (home != home_) {
            Statement renewed(*db_, dialect(db_->kind(),
                                            "SELECT {now_ms} - renewed_at FROM "
                                            "instances WHERE name = ?"));
            renewed.bind(1, home);
            if (renewed.executeStep() && renewed.getColumn(0).getInt64() < ttlMs_) {
                transaction.commit();
                return TableHome{true, false, home, lease};
            }
        }
        // Taken: from an instance that stopped renewing, or from this instance's own earlier
        // life (a restart), which may still be writing: the number goes up either way.
        Statement take(*db_, "UPDATE table_homes SET home = ?, lease = ? WHERE id = ?");
        take.bind(1, home_);
        take.bind(2, lease + 1);
        take.bind(3, key);
        take.exec();
        transaction.commit();
        held_[key] = lease + 1;
        if (home != home_) ++takeovers_;
        return TableHome{true, true, home_, lease + 1};
    } catch (const DbError& e) {
        return makeError(failure("taking table " + key, e));
    }
}

common::Result<std::optional<std::string>> Store::whereIs(const std::string& key) {
    std::lock_guard lock(mutex_);
    if (home_.empty() || held_.contains(key)) return std::optional<std::string>();
    try {
        Statement row(*db_, dialect(db_->kind(),
                                    "SELECT h.home, {now_ms} - i.renewed_at FROM table_homes h "
                                    "JOIN instances i ON i.name = h.home WHERE h.id = ?"));
        row.bind(1, key);
        if (row.executeStep() && row.getColumn(0).getString() != home_ &&
            row.getColumn(1).getInt64() < ttlMs_)
            return std::optional<std::string>(row.getColumn(0).getString());
        return std::optional<std::string>();
    } catch (const DbError& e) {
        return makeError(failure("finding table " + key, e));
    }
}

common::Result<bool> Store::notify(const std::string& channel, const std::string& message) {
    if (message.size() > 1000) return makeError("a bus message is at most 1000 bytes");
    std::lock_guard lock(mutex_);
    if (db_->kind() != Backend::PostgreSQL) return false;
    try {
        Statement send(*db_, "SELECT pg_notify(?, ?)");
        send.bind(1, channel);
        send.bind(2, message);
        send.executeStep();
        return true;
    } catch (const DbError& e) {
        return makeError(failure("telling the other instances", e));
    }
}

common::Result<std::vector<std::string>> Store::renewHome() {
    std::lock_guard lock(mutex_);
    if (home_.empty()) return std::vector<std::string>{};
    try {
        Statement renew(*db_, dialect(db_->kind(),
                                      "INSERT INTO instances (name, renewed_at, started) "
                                      "VALUES (?, {now_ms}, {now_ms}) ON CONFLICT (name) "
                                      "DO UPDATE SET renewed_at = excluded.renewed_at"));
        renew.bind(1, home_);
        renew.exec();
        const auto now = std::chrono::steady_clock::now();
        // Later than a lease's life since the last renewal (the process was stopped, or the
        // database out of reach): another instance may have taken any table, so each is checked.
        const bool late = renewals_ == 0 || now - lastRenewal_ >= std::chrono::milliseconds(ttlMs_);
        if (late && !held_.empty()) {
            Statement row(*db_, "SELECT home, lease FROM table_homes WHERE id = ?");
            for (auto it = held_.begin(); it != held_.end();) {
                row.bind(1, it->first);
                const bool mine = row.executeStep() && row.getColumn(0).getString() == home_ &&
                                  row.getColumn(1).getInt64() == it->second;
                row.reset();
                if (mine) {
                    ++it;
                } else {
                    movedAway_.push_back(it->first);
                    it = held_.erase(it);
                }
            }
        }
        ++renewals_;
        lastRenewal_ = now;
        return std::exchange(movedAway_, {});
    } catch (const DbError& e) {
        return makeError(failure("renewing the leases of instance " + home_, e));
    }
}

}  // namespace web::store
