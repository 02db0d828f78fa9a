// Ratings in the store: the end of a rated two-person table written with both players' new
// ratings and their history rows in one transaction, the end of a rated Torneio table likewise
// with every account's new Torneio rating, and an account's ratings, history and finished tables
// read back for its page.

#include <set>

#include "store_internal.h"
#include "web/store/store.h"

namespace web::store {

namespace {

std::optional<StoredRating> readRating(Connection& db, std::int64_t accountId,
                                       const std::string& category) {
    Statement find(db,
                   "SELECT rating, deviation, volatility, games, last_game FROM ratings "
                   "WHERE account_id = ? AND category = ?");
    find.bind(1, static_cast<std::int64_t>(accountId));
    find.bind(2, category);
    if (!find.executeStep()) return std::nullopt;
    StoredRating r;
    r.category = category;
    r.rating = {find.getColumn(0).getDouble(), find.getColumn(1).getDouble(),
                find.getColumn(2).getDouble()};
    r.games = find.getColumn(3).getInt64();
    r.lastGame = find.getColumn(4).getInt64();
    return r;
}

// The history tables: a two-person table's row in rating_history (its game a lasca_duels id),
// a Torneio table's in torneio_rating_history (its table a torneio_tables id, its category
// always kTorneioCategory).
enum class History { Duel, Torneio };

// An account's rating in `category` after game `game` (at `at`): its ratings row (made or
// updated, games + 1) and its history row.
void writeRating(Connection& db, std::int64_t accountId, const std::string& category,
                 const common::Rating& rating, const std::string& game, std::int64_t at,
                 History kind = History::Duel) {
    Statement row(
        db,
        "INSERT INTO ratings (account_id, category, rating, deviation, volatility, games, "
        "last_game) VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6) ON CONFLICT (account_id, category) DO "
        "UPDATE SET rating = ?3, deviation = ?4, volatility = ?5, games = ratings.games + 1, "
        "last_game = ?6");
    row.bind(1, static_cast<std::int64_t>(accountId));
    row.bind(2, category);
    row.bind(3, rating.rating);
    row.bind(4, rating.deviation);
    row.bind(5, rating.volatility);
    row.bind(6, static_cast<std::int64_t>(at));
    row.exec();
    if (kind == History::Torneio) {
        Statement history(db,
                          "INSERT INTO torneio_rating_history (account_id, tbl, rating, "
                          "deviation, at) VALUES (?, ?, ?, ?, ?)");
        history.bind(1, static_cast<std::int64_t>(accountId));
        history.bind(2, game);
        history.bind(3, rating.rating);
        history.bind(4, rating.deviation);
        history.bind(5, static_cast<std::int64_t>(at));
        history.exec();
        return;
    }
    Statement history(db,
                      "INSERT INTO rating_history (account_id, category, game, rating, "
                      "deviation, at) VALUES (?, ?, ?, ?, ?, ?)");
    history.bind(1, static_cast<std::int64_t>(accountId));
    history.bind(2, category);
    history.bind(3, game);
    history.bind(4, rating.rating);
    history.bind(5, rating.deviation);
    history.bind(6, static_cast<std::int64_t>(at));
    history.exec();
}

}  // namespace

common::Result<bool> Store::finishRatedDuel(const StoredDuel& duel, const MoveRowsChange& moves,
                                            const std::string& category, const RateGame& rate) {
    if (!duel.rated) return makeError("table " + duel.id + " is not rated");
    if (duel.result == "*") return makeError("table " + duel.id + " is not over");
    if (duel.whiteAccount <= 0 || duel.blackAccount <= 0 || duel.whiteAccount == duel.blackAccount)
        return makeError("table " + duel.id + " is not held by two accounts");
    std::lock_guard lock(mutex_);
    try {
        // Nothing is committed unless every step succeeds: the transaction rolls back when it
        // goes out of scope uncommitted.
        Transaction transaction(*db_, TransactionLock::Immediate);
        guardHome(homeKey("duel", duel.id));
        writeDuelRow(*db_, duel);
        writeMoveRows(*db_, kDuelMoveRows, duel.id, moves);
        const auto white = readRating(*db_, duel.whiteAccount, category);
        const auto black = readRating(*db_, duel.blackAccount, category);
        const auto after = rate(white, black);
        if (!after) return makeError("rating table " + duel.id + ": " + after.error());
        writeRating(*db_, duel.whiteAccount, category, after.value()[0], duel.id, duel.updated);
        writeRating(*db_, duel.blackAccount, category, after.value()[1], duel.id, duel.updated);
        transaction.commit();
        return true;
    } catch (const DbError& e) {
        return makeError(failure("finishing rated table " + duel.id, e));
    }
}

common::Result<bool> Store::finishRatedTorneioTable(const std::string& id,
                                                    const std::string& result,
                                                    const std::string& record, std::int64_t updated,
                                                    const RateTorneioTable& rate) {
    if (result.empty()) return makeError("table " + id + " is not over");
    std::lock_guard lock(mutex_);
    try {
        // Nothing is committed unless every step succeeds: the transaction rolls back when it
        // goes out of scope uncommitted.
        Transaction transaction(*db_, TransactionLock::Immediate);
        guardHome(homeKey("torneio", id));
        Statement rated(*db_, "SELECT rated FROM torneio_tables WHERE id = ?");
        rated.bind(1, id);
        if (!rated.executeStep()) return makeError("table " + id + ": no such table");
        if (rated.getColumn(0).getInt() == 0) return makeError("table " + id + " is not rated");
        std::vector<TorneioRatedSeat> seats;
        std::set<std::int64_t> accounts;
        Statement held(*db_,
                       "SELECT seat, account FROM torneio_seats WHERE tbl = ? AND "
                       "account IS NOT NULL ORDER BY seat");
        held.bind(1, id);
        while (held.executeStep()) {
            seats.push_back({held.getColumn(0).getInt(), held.getColumn(1).getInt64(), {}});
            accounts.insert(seats.back().account);
        }
        if (seats.size() < 2 || accounts.size() != seats.size())
            return makeError("table " + id + " is not held by two different accounts at least");
        Statement finish(
            *db_, "UPDATE torneio_tables SET result = ?, record = ?, updated = ? WHERE id = ?");
        finish.bind(1, result);
        finish.bind(2, record);
        finish.bind(3, static_cast<std::int64_t>(updated));
        finish.bind(4, id);
        finish.exec();
        for (auto& seat : seats) seat.before = readRating(*db_, seat.account, kTorneioCategory);
        const auto after = rate(seats);
        if (!after) return makeError("rating table " + id + ": " + after.error());
        if (after.value().size() != seats.size())
            return makeError("rating table " + id + ": not one rating per account");
        for (std::size_t i = 0; i < seats.size(); ++i)
            writeRating(*db_, seats[i].account, kTorneioCategory, after.value()[i], id, updated,
                        History::Torneio);
        transaction.commit();
        return true;
    } catch (const DbError& e) {
        return makeError(failure("finishing rated table " + id, e));
    }
}

common::Result<std::vector<StoredRating>> Store::ratingsOf(std::int64_t accountId) {
    std::lock_guard lock(mutex_);
    try {
        Statement select(*db_,
                         "SELECT category, rating, deviation, volatility, games, "
                         "last_game FROM ratings WHERE account_id = ? ORDER BY category");
        select.bind(1, static_cast<std::int64_t>(accountId));
        std::vector<StoredRating> ratings;
        while (select.executeStep()) {
            StoredRating r;
            r.category = select.getColumn(0).getString();
            r.rating = {select.getColumn(1).getDouble(), select.getColumn(2).getDouble(),
                        select.getColumn(3).getDouble()};
            r.games = select.getColumn(4).getInt64();
            r.lastGame = select.getColumn(5).getInt64();
            ratings.push_back(std::move(r));
        }
        return ratings;
    } catch (const DbError& e) {
        return makeError(failure("reading ratings", e));
    }
}

common::Result<std::vector<RatingPoint>> Store::ratingHistory(std::int64_t accountId) {
    std::lock_guard lock(mutex_);
    try {
        Statement select(
            *db_,
            "SELECT h.category, h.game, d.rowid, h.rating, h.deviation, h.at, 0, h.rowid "
            "FROM rating_history h JOIN lasca_duels d ON d.id = h.game WHERE h.account_id = ?1 "
            "UNION ALL "
            "SELECT ?2, h.tbl, t.rowid, h.rating, h.deviation, h.at, 1, h.rowid "
            "FROM torneio_rating_history h JOIN torneio_tables t ON t.id = h.tbl "
            "WHERE h.account_id = ?1 ORDER BY 6, 7, 8");
        select.bind(1, static_cast<std::int64_t>(accountId));
        select.bind(2, kTorneioCategory);
        std::vector<RatingPoint> points;
        while (select.executeStep())
            points.push_back({select.getColumn(0).getString(), select.getColumn(1).getString(),
                              select.getColumn(2).getInt64(), select.getColumn(3).getDouble(),
                              select.getColumn(4).getDouble(), select.getColumn(5).getInt64()});
        return points;
    } catch (const DbError& e) {
        return makeError(failure("reading rating history", e));
    }
}

common::Result<std::vector<NumberedDuel>> Store::duelsOf(std::int64_t accountId,
                                                         std::int64_t before, int limit,
                                                         bool running) {
    std::lock_guard lock(mutex_);
    try {
        std::vector<std::pair<std::int64_t, std::string>> page;
        Statement select(*db_,
                         "SELECT rowid, id FROM lasca_duels WHERE (?3 <> 0 OR result != '*') "
                         "AND (white_account = ?1 OR black_account = ?1) "
                         "AND (?2 <= 0 OR rowid < ?2) ORDER BY rowid DESC LIMIT ?4");
        select.bind(1, static_cast<std::int64_t>(accountId));
        select.bind(2, static_cast<std::int64_t>(before));
        select.bind(3, running ? 1 : 0);
        select.bind(4, limit);
        while (select.executeStep())
            page.emplace_back(select.getColumn(0).getInt64(), select.getColumn(1).getString());
        std::vector<NumberedDuel> duels;
        for (const auto& [number, id] : page)
            if (auto duel = readDuel(*db_, id, true)) duels.push_back({number, std::move(*duel)});
        return duels;
    } catch (const DbError& e) {
        return makeError(failure("reading an account's games", e));
    }
}

common::Result<std::vector<NumberedTorneioTable>> Store::finishedTorneioTablesOf(
    std::int64_t accountId, int limit) {
    std::lock_guard lock(mutex_);
    try {
        std::vector<std::pair<std::int64_t, std::string>> page;
        Statement select(*db_,
                         "SELECT t.rowid, t.id FROM torneio_tables t WHERE t.result != '' "
                         "AND EXISTS (SELECT 1 FROM torneio_seats s WHERE s.tbl = t.id "
                         "AND s.account = ?1) ORDER BY t.updated DESC, t.rowid DESC "
                         "LIMIT ?2");
        select.bind(1, static_cast<std::int64_t>(accountId));
        select.bind(2, limit);
        while (select.executeStep())
            page.emplace_back(select.getColumn(0).getInt64(), select.getColumn(1).getString());
        std::vector<NumberedTorneioTable> tables;
        for (const auto& [number, id] : page)
            if (auto table = readTorneioTable(id, false))
                tables.push_back({number, std::move(*table)});
        return tables;
    } catch (const std::exception& e) {  // the database's, or a seed that is not a number
        return makeError("reading an account's Torneio tables: " + std::string(e.what()));
    }
}

}  // namespace web::store
