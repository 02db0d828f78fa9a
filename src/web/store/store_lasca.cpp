// The Lasca games and the two-person tables in the store: their rows and their move rows.

#include "store_internal.h"
#include "web/store/store.h"

namespace web::store {

void writeMoveRows(Connection& db, const MoveRowsTable& table, const std::string& id,
                   const MoveRowsChange& change) {
    Statement cut(db, table.cut);
    cut.bind(1, id);
    cut.bind(2, static_cast<std::int64_t>(change.from));
    cut.exec();
    Statement add(db, table.add);
    for (std::size_t i = 0; i < change.added.size(); ++i) {
        add.bind(1, id);
        add.bind(2, static_cast<std::int64_t>(change.from + i));
        add.bind(3, change.added[i]);
        add.exec();
        add.reset();
    }
}

common::Result<bool> Store::saveLascaGame(const StoredLascaGame& game, const MoveRowsChange& moves,
                                          TreeWrite tree) {
    std::lock_guard lock(mutex_);
    try {
        Transaction transaction(*db_);
        guardHome(homeKey("lasca", game.id));
        // The row updated, or made when there is none (an upsert whose failed insert would use
        // up a public number on PostgreSQL). ?9 (created) is only written by the insert, ?12
        // (whether the variations are written) only read by the update.
        const auto bindRow = [&](Statement& row) {
            row.bind(1, game.id);
            row.bind(2, game.startLfen);
            row.bind(3, game.engine);
            row.bind(4, game.level);
            row.bind(5, game.analysing ? 1 : 0);
            row.bind(6, game.multiPv);
            row.bind(7, game.result);
            row.bind(8, game.rule);
            row.bind(9, static_cast<std::int64_t>(game.created));
            row.bind(10, static_cast<std::int64_t>(game.updated));
            row.bind(11, game.tree);
        };
        Statement update(*db_,
                         "UPDATE lasca_games SET start_lfen = ?2, engine = ?3, level = ?4, "
                         "analysing = ?5, multipv = ?6, result = ?7, rule = ?8, updated = ?10, "
                         "tree = CASE WHEN ?12 <> 0 THEN ?11 ELSE tree END WHERE id = ?1");
        bindRow(update);
        update.bind(12, tree == TreeWrite::Write ? 1 : 0);
        if (update.exec() == 0) {
            Statement insert(*db_,
                             "INSERT INTO lasca_games (id, start_lfen, engine, level, analysing, "
                             "multipv, result, rule, created, updated, tree) "
                             "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
            bindRow(insert);
            insert.exec();
        }

        writeMoveRows(*db_, kLascaMoveRows, game.id, moves);
        transaction.commit();
        return true;
    } catch (const DbError& e) {
        return makeError(failure("saving game " + game.id, e));
    }
}

common::Result<bool> Store::saveLascaGame(const StoredLascaGame& game) {
    return saveLascaGame(game, MoveRowsChange{0, game.moves});
}

std::optional<StoredLascaGame> Store::readLascaGame(const std::string& id) {
    Statement row(*db_,
                  "SELECT start_lfen, engine, level, analysing, multipv, result, rule, "
                  "created, updated, tree FROM lasca_games WHERE id = ?");
    row.bind(1, id);
    if (!row.executeStep()) return std::nullopt;
    StoredLascaGame game;
    game.id = id;
    game.startLfen = row.getColumn(0).getString();
    game.engine = row.getColumn(1).getString();
    game.level = row.getColumn(2).getInt();
    game.analysing = row.getColumn(3).getInt() != 0;
    game.multiPv = row.getColumn(4).getInt();
    game.result = row.getColumn(5).getString();
    game.rule = row.getColumn(6).getString();
    game.created = row.getColumn(7).getInt64();
    game.updated = row.getColumn(8).getInt64();
    game.tree = row.getColumn(9).getString();
    Statement moves(*db_, "SELECT move FROM lasca_moves WHERE game = ? ORDER BY ply");
    moves.bind(1, id);
    while (moves.executeStep()) game.moves.push_back(moves.getColumn(0).getString());
    return game;
}

common::Result<std::optional<StoredLascaGame>> Store::loadLascaGame(const std::string& id) {
    std::lock_guard lock(mutex_);
    try {
        return readLascaGame(id);
    } catch (const DbError& e) {
        return makeError(failure("loading game " + id, e));
    }
}

common::Result<std::int64_t> Store::lascaGameCount() {
    std::lock_guard lock(mutex_);
    try {
        Statement count(*db_, "SELECT COUNT(*) FROM lasca_games");
        count.executeStep();
        return count.getColumn(0).getInt64();
    } catch (const DbError& e) {
        return makeError(failure("counting games", e));
    }
}

common::Result<std::vector<NumberedLascaGame>> Store::lascaGamesAfter(std::int64_t after,
                                                                      int limit) {
    std::lock_guard lock(mutex_);
    try {
        std::vector<std::pair<std::int64_t, std::string>> page;
        Statement select(
            *db_, "SELECT rowid, id FROM lasca_games WHERE rowid > ? ORDER BY rowid LIMIT ?");
        select.bind(1, static_cast<std::int64_t>(after));
        select.bind(2, limit);
        while (select.executeStep())
            page.emplace_back(select.getColumn(0).getInt64(), select.getColumn(1).getString());
        std::vector<NumberedLascaGame> games;
        for (const auto& [number, id] : page)
            if (auto game = readLascaGame(id)) games.push_back({number, std::move(*game)});
        return games;
    } catch (const DbError& e) {
        return makeError(failure("reading the games", e));
    }
}

common::Result<std::optional<StoredLascaGame>> Store::lascaGameByNumber(std::int64_t number) {
    std::lock_guard lock(mutex_);
    try {
        Statement find(*db_, "SELECT id FROM lasca_games WHERE rowid = ?");
        find.bind(1, static_cast<std::int64_t>(number));
        if (!find.executeStep()) return std::optional<StoredLascaGame>();
        return readLascaGame(find.getColumn(0).getString());
    } catch (const DbError& e) {
        return makeError(failure("loading game " + std::to_string(number), e));
    }
}

namespace {

// A two-person table's values bound at the same numbers in its update and its insert (?1 to ?18;
// ?19, the public watch token, is only written by the insert).
void bindDuel(Statement& row, const StoredDuel& duel) {
    row.bind(1, duel.id);
    row.bind(2, duel.startLfen);
    row.bind(3, duel.whiteHash);
    row.bind(4, duel.blackHash);
    row.bind(5, duel.watchHash);
    row.bind(6, static_cast<std::int64_t>(duel.clockTime));
    row.bind(7, static_cast<std::int64_t>(duel.clockIncrement));
    row.bind(8, static_cast<std::int64_t>(duel.whiteMs));
    row.bind(9, static_cast<std::int64_t>(duel.blackMs));
    row.bind(10, duel.drawOffer);
    row.bind(11, duel.result);
    row.bind(12, duel.rule);
    row.bind(13, static_cast<std::int64_t>(duel.created));
    row.bind(14, static_cast<std::int64_t>(duel.updated));
    row.bind(15, static_cast<std::int64_t>(duel.turnStarted));
    row.bind(16, duel.rated ? 1 : 0);
    if (duel.whiteAccount > 0)
        row.bind(17, static_cast<std::int64_t>(duel.whiteAccount));
    else
        row.bindNull(17);
    if (duel.blackAccount > 0)
        row.bind(18, static_cast<std::int64_t>(duel.blackAccount));
    else
        row.bindNull(18);
}

}  // namespace

void writeDuelRow(Connection& db, const StoredDuel& duel) {
    // Updated, or made when there is none (as saveLascaGame's row).
    Statement update(db,
                     "UPDATE lasca_duels SET white_ms = ?8, black_ms = ?9, draw_offer = ?10, "
                     "result = ?11, rule = ?12, updated = ?14, turn_started = ?15, "
                     "white_account = ?17, black_account = ?18 WHERE id = ?1");
    bindDuel(update, duel);
    if (update.exec() > 0) return;
    Statement insert(
        db,
        "INSERT INTO lasca_duels (id, start_lfen, white_hash, black_hash, watch_hash, "
        "clock_time, clock_increment, white_ms, black_ms, draw_offer, result, rule, created, "
        "updated, turn_started, rated, white_account, black_account, public_watch) VALUES (?1, "
        "?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)");
    bindDuel(insert, duel);
    insert.bind(19, duel.publicWatch);
    insert.exec();
}

common::Result<bool> Store::saveDuel(const StoredDuel& duel, const MoveRowsChange& moves) {
    std::lock_guard lock(mutex_);
    try {
        Transaction transaction(*db_);
        guardHome(homeKey("duel", duel.id));
        writeDuelRow(*db_, duel);
        writeMoveRows(*db_, kDuelMoveRows, duel.id, moves);
        transaction.commit();
        return true;
    } catch (const DbError& e) {
        return makeError(failure("saving table " + duel.id, e));
    }
}

common::Result<bool> Store::saveDuel(const StoredDuel& duel) {
    return saveDuel(duel, MoveRowsChange{0, duel.moves});
}

std::optional<StoredDuel> readDuel(Connection& db, const std::string& id, bool withMoves) {
    Statement row(
        db,
        "SELECT d.start_lfen, d.white_hash, d.black_hash, d.watch_hash, d.clock_time, "
        "d.clock_increment, d.white_ms, d.black_ms, d.draw_offer, d.result, d.rule, d.created, "
        "d.updated, d.turn_started, d.rated, COALESCE(d.white_account, 0), "
        "COALESCE(d.black_account, 0), COALESCE(w.name, ''), COALESCE(b.name, ''), d.public_watch "
        "FROM lasca_duels d "
        "LEFT JOIN accounts w ON w.id = d.white_account "
        "LEFT JOIN accounts b ON b.id = d.black_account WHERE d.id = ?");
    row.bind(1, id);
    if (!row.executeStep()) return std::nullopt;
    StoredDuel duel;
    duel.id = id;
    duel.startLfen = row.getColumn(0).getString();
    duel.whiteHash = row.getColumn(1).getString();
    duel.blackHash = row.getColumn(2).getString();
    duel.watchHash = row.getColumn(3).getString();
    duel.clockTime = row.getColumn(4).getInt64();
    duel.clockIncrement = row.getColumn(5).getInt64();
    duel.whiteMs = row.getColumn(6).getInt64();
    duel.blackMs = row.getColumn(7).getInt64();
    duel.drawOffer = row.getColumn(8).getString();
    duel.result = row.getColumn(9).getString();
    duel.rule = row.getColumn(10).getString();
    duel.created = row.getColumn(11).getInt64();
    duel.updated = row.getColumn(12).getInt64();
    duel.turnStarted = row.getColumn(13).getInt64();
    duel.rated = row.getColumn(14).getInt() != 0;
    duel.whiteAccount = row.getColumn(15).getInt64();
    duel.blackAccount = row.getColumn(16).getInt64();
    duel.whiteName = row.getColumn(17).getString();
    duel.blackName = row.getColumn(18).getString();
    duel.publicWatch = row.getColumn(19).getString();
    if (withMoves) {
        Statement moves(db, "SELECT move FROM lasca_duel_moves WHERE duel = ? ORDER BY ply");
        moves.bind(1, id);
        while (moves.executeStep()) duel.moves.push_back(moves.getColumn(0).getString());
    }
    return duel;
}

common::Result<std::optional<StoredDuel>> Store::loadDuel(const std::string& id) {
    std::lock_guard lock(mutex_);
    try {
        return readDuel(*db_, id, true);
    } catch (const DbError& e) {
        return makeError(failure("loading table " + id, e));
    }
}

common::Result<std::vector<NumberedDuel>> Store::finishedDuelsAfter(std::int64_t after, int limit) {
    std::vector<std::pair<std::int64_t, std::string>> page;
    {
        std::lock_guard lock(mutex_);
        try {
            Statement select(*db_,
                             "SELECT rowid, id FROM lasca_duels WHERE result != '*' AND "
                             "rowid > ? ORDER BY rowid LIMIT ?");
            select.bind(1, static_cast<std::int64_t>(after));
            select.bind(2, limit);
            while (select.executeStep())
                page.emplace_back(select.getColumn(0).getInt64(), select.getColumn(1).getString());
        } catch (const DbError& e) {
            return makeError(failure("reading the tables", e));
        }
    }
    std::vector<NumberedDuel> duels;
    for (const auto& [number, id] : page) {
        auto duel = loadDuel(id);
        if (!duel) return makeError(duel.error());
        if (duel.value()) duels.push_back({number, std::move(*duel.value())});
    }
    return duels;
}

common::Result<std::vector<NumberedDuel>> Store::publicRunningDuels(int limit) {
    std::lock_guard lock(mutex_);
    try {
        std::vector<std::pair<std::int64_t, std::string>> page;
        Statement select(*db_,
                         "SELECT rowid, id FROM lasca_duels WHERE result = '*' AND "
                         "public_watch <> '' ORDER BY updated DESC, rowid DESC LIMIT ?");
        select.bind(1, limit);
        while (select.executeStep())
            page.emplace_back(select.getColumn(0).getInt64(), select.getColumn(1).getString());
        std::vector<NumberedDuel> duels;
        for (const auto& [number, id] : page)
            if (auto duel = readDuel(*db_, id, false)) duels.push_back({number, std::move(*duel)});
        return duels;
    } catch (const DbError& e) {
        return makeError(failure("reading the public tables", e));
    }
}

common::Result<std::optional<StoredDuel>> Store::duelByNumber(std::int64_t number) {
    std::string id;
    {
        std::lock_guard lock(mutex_);
        try {
            Statement find(*db_, "SELECT id FROM lasca_duels WHERE rowid = ?");
            find.bind(1, static_cast<std::int64_t>(number));
            if (!find.executeStep()) return std::optional<StoredDuel>();
            id = find.getColumn(0).getString();
        } catch (const DbError& e) {
            return makeError(failure("loading table " + std::to_string(number), e));
        }
    }
    return loadDuel(id);
}

}  // namespace web::store
