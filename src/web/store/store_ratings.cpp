// Ratings in the store: the end of a rated two-person table written with both players' new
// ratings and their history rows in one transaction, and an account's ratings, history and
// finished tables read back for its page.
#include <SQLiteCpp/SQLiteCpp.h>

#include "store_internal.h"
#include "web/store/store.h"

namespace web::store {

namespace {

std::optional<StoredRating> readRating(SQLite::Database& db, std::int64_t accountId,
                                       const std::string& category) {
    SQLite::Statement find(db,
                           "SELECT rating, deviation, volatility, games, last_game FROM ratings "
                           "WHERE account_id = ? AND category = ?");
    find.bind(1, static_cast<int64_t>(accountId));
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

void writeRating(SQLite::Database& db, std::int64_t accountId, const std::string& category,
                 const common::Rating& rating, const std::string& game, std::int64_t at) {
    SQLite::Statement row(
        db,
        "INSERT INTO ratings (account_id, category, rating, deviation, volatility, games, "
        "last_game) VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6) ON CONFLICT (account_id, category) DO "
        "UPDATE SET rating = ?3, deviation = ?4, volatility = ?5, games = games + 1, "
        "last_game = ?6");
    row.bind(1, static_cast<int64_t>(accountId));
    row.bind(2, category);
    row.bind(3, rating.rating);
    row.bind(4, rating.deviation);
    row.bind(5, rating.volatility);
    row.bind(6, static_cast<int64_t>(at));
    row.exec();
    SQLite::Statement history(db,
                              "INSERT INTO rating_history (account_id, category, game, rating, "
                              "deviation, at) VALUES (?, ?, ?, ?, ?, ?)");
    history.bind(1, static_cast<int64_t>(accountId));
    history.bind(2, category);
    history.bind(3, game);
    history.bind(4, rating.rating);
    history.bind(5, rating.deviation);
    history.bind(6, static_cast<int64_t>(at));
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
        SQLite::Transaction transaction(*db_, SQLite::TransactionBehavior::IMMEDIATE);
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
    } catch (const SQLite::Exception& e) {
        return makeError(failure("finishing rated table " + duel.id, e));
    }
}

common::Result<std::vector<StoredRating>> Store::ratingsOf(std::int64_t accountId) {
    std::lock_guard lock(mutex_);
    try {
        SQLite::Statement select(*db_,
                                 "SELECT category, rating, deviation, volatility, games, "
                                 "last_game FROM ratings WHERE account_id = ? ORDER BY category");
        select.bind(1, static_cast<int64_t>(accountId));
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
    } catch (const SQLite::Exception& e) {
        return makeError(failure("reading ratings", e));
    }
}

common::Result<std::vector<RatingPoint>> Store::ratingHistory(std::int64_t accountId) {
    std::lock_guard lock(mutex_);
    try {
        SQLite::Statement select(*db_,
                                 "SELECT h.category, h.game, d.rowid, h.rating, h.deviation, h.at "
                                 "FROM rating_history h JOIN lasca_duels d ON d.id = h.game "
                                 "WHERE h.account_id = ? ORDER BY h.at, h.rowid");
        select.bind(1, static_cast<int64_t>(accountId));
        std::vector<RatingPoint> points;
        while (select.executeStep())
            points.push_back({select.getColumn(0).getString(), select.getColumn(1).getString(),
                              select.getColumn(2).getInt64(), select.getColumn(3).getDouble(),
                              select.getColumn(4).getDouble(), select.getColumn(5).getInt64()});
        return points;
    } catch (const SQLite::Exception& e) {
        return makeError(failure("reading rating history", e));
    }
}

common::Result<std::vector<NumberedDuel>> Store::finishedDuelsOf(std::int64_t accountId,
                                                                 int limit) {
    std::lock_guard lock(mutex_);
    try {
        std::vector<std::pair<std::int64_t, std::string>> page;
        SQLite::Statement select(*db_,
                                 "SELECT rowid, id FROM lasca_duels WHERE result != '*' AND "
                                 "(white_account = ?1 OR black_account = ?1) "
                                 "ORDER BY updated DESC, rowid DESC LIMIT ?2");
        select.bind(1, static_cast<int64_t>(accountId));
        select.bind(2, limit);
        while (select.executeStep())
            page.emplace_back(select.getColumn(0).getInt64(), select.getColumn(1).getString());
        std::vector<NumberedDuel> duels;
        for (const auto& [number, id] : page)
            if (auto duel = readDuel(*db_, id, true)) duels.push_back({number, std::move(*duel)});
        return duels;
    } catch (const SQLite::Exception& e) {
        return makeError(failure("reading an account's games", e));
    }
}

}  // namespace web::store
