#include "web/store/store.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <string_view>

namespace web {
namespace {

using common::makeError;

// The migrations, in order: migration i takes a file from version i to i + 1.
constexpr std::array<std::string_view, Store::kSchemaVersion> kMigrations = {
    // 0 -> 1: Lasca games and their moves.
    R"sql(
    CREATE TABLE lasca_games (
        id         TEXT PRIMARY KEY,
        start_lfen TEXT NOT NULL,
        engine     TEXT NOT NULL CHECK (engine IN ('white', 'black', 'none')),
        level      INTEGER NOT NULL,
        analysing  INTEGER NOT NULL DEFAULT 0,
        multipv    INTEGER NOT NULL DEFAULT 1,
        result     TEXT NOT NULL DEFAULT '*',
        rule       TEXT NOT NULL DEFAULT '',
        created    INTEGER NOT NULL,
        updated    INTEGER NOT NULL
    );
    CREATE TABLE lasca_moves (
        game TEXT NOT NULL REFERENCES lasca_games (id) ON DELETE CASCADE,
        ply  INTEGER NOT NULL CHECK (ply >= 0),
        move TEXT NOT NULL,
        PRIMARY KEY (game, ply)
    ) WITHOUT ROWID;
    )sql",
    // 1 -> 2: Torneio tables, their seats and their decisions.
    R"sql(
    CREATE TABLE torneio_tables (
        id      TEXT PRIMARY KEY,
        params  TEXT NOT NULL,
        seed    TEXT NOT NULL,
        result  TEXT NOT NULL DEFAULT '',
        record  TEXT NOT NULL DEFAULT '',
        created INTEGER NOT NULL,
        updated INTEGER NOT NULL
    );
    CREATE TABLE torneio_seats (
        tbl        TEXT NOT NULL REFERENCES torneio_tables (id) ON DELETE CASCADE,
        seat       INTEGER NOT NULL CHECK (seat >= 0 AND seat < 4),
        kind       TEXT NOT NULL,
        level      INTEGER NOT NULL,
        token_hash TEXT NOT NULL,
        PRIMARY KEY (tbl, seat)
    ) WITHOUT ROWID;
    CREATE TABLE torneio_decisions (
        tbl    TEXT NOT NULL REFERENCES torneio_tables (id) ON DELETE CASCADE,
        n      INTEGER NOT NULL CHECK (n >= 0),
        seat   INTEGER NOT NULL CHECK (seat >= 0 AND seat < 4),
        action TEXT NOT NULL,
        PRIMARY KEY (tbl, n)
    ) WITHOUT ROWID;
    CREATE INDEX lasca_games_updated ON lasca_games (updated);
    CREATE INDEX torneio_tables_updated ON torneio_tables (updated);
    )sql",
    // 2 -> 3: Lasca tables for two people and their moves.
    R"sql(
    CREATE TABLE lasca_duels (
        id              TEXT PRIMARY KEY,
        start_lfen      TEXT NOT NULL,
        white_hash      TEXT NOT NULL,
        black_hash      TEXT NOT NULL,
        watch_hash      TEXT NOT NULL,
        clock_time      INTEGER NOT NULL DEFAULT 0,
        clock_increment INTEGER NOT NULL DEFAULT 0,
        white_ms        INTEGER NOT NULL DEFAULT 0,
        black_ms        INTEGER NOT NULL DEFAULT 0,
        draw_offer      TEXT NOT NULL DEFAULT '' CHECK (draw_offer IN ('', 'white', 'black')),
        result          TEXT NOT NULL DEFAULT '*',
        rule            TEXT NOT NULL DEFAULT '',
        created         INTEGER NOT NULL,
        updated         INTEGER NOT NULL
    );
    CREATE TABLE lasca_duel_moves (
        duel TEXT NOT NULL REFERENCES lasca_duels (id) ON DELETE CASCADE,
        ply  INTEGER NOT NULL CHECK (ply >= 0),
        move TEXT NOT NULL,
        PRIMARY KEY (duel, ply)
    ) WITHOUT ROWID;
    )sql",
    // 3 -> 4: the variations of a game on the analysis board.
    R"sql(
    ALTER TABLE lasca_games ADD COLUMN tree TEXT NOT NULL DEFAULT '';
    )sql",
};

// One line for a failure of SQLite, naming what was being done.
std::string failure(std::string_view doing, const SQLite::Exception& e) {
    switch (e.getErrorCode()) {
        case SQLITE_NOTADB:
            return std::string(doing) + ": the file is not a database";
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
            return std::string(doing) + ": the database is in use by another server";
        case SQLITE_READONLY:
        case SQLITE_CANTOPEN:
        case SQLITE_PERM:
            return std::string(doing) + ": the database cannot be written (" + e.what() + ")";
        case SQLITE_FULL:
            return std::string(doing) + ": the disk is full";
        default:
            return std::string(doing) + ": " + e.what();
    }
}

int userVersion(SQLite::Database& db) {
    return db.execAndGet("PRAGMA user_version").getInt();
}

// Brings the file to kSchemaVersion, one migration per transaction.
void migrate(SQLite::Database& db) {
    for (int version = userVersion(db); version < Store::kSchemaVersion; ++version) {
        SQLite::Transaction transaction(db);
        db.exec(std::string(kMigrations[static_cast<std::size_t>(version)]));
        db.exec("PRAGMA user_version = " + std::to_string(version + 1));
        transaction.commit();
    }
}

}  // namespace

Store::Store(std::unique_ptr<SQLite::Database> db) : db_(std::move(db)) {
}

Store::~Store() = default;

common::Result<std::unique_ptr<Store>> Store::open(const std::string& path) {
    const std::string name = path.empty() ? ":memory:" : path;
    std::unique_ptr<SQLite::Database> db;
    try {
        db = std::make_unique<SQLite::Database>(name, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    } catch (const SQLite::Exception& e) {
        return makeError(failure("cannot open " + name, e));
    }
    try {
        // Held from the first read to the close: a second server on the file gets SQLITE_BUSY.
        db->exec("PRAGMA locking_mode = EXCLUSIVE");
        const int version = userVersion(*db);
        if (version > kSchemaVersion)
            return makeError(name + " is of a newer schema (version " + std::to_string(version) +
                             ", this server knows " + std::to_string(kSchemaVersion) +
                             "): use a newer lasca-web");
        if (!path.empty()) {
            const std::string mode = db->execAndGet("PRAGMA journal_mode = WAL").getString();
            if (mode != "wal") return makeError(name + ": cannot use write-ahead logging");
        }
        db->exec("PRAGMA synchronous = NORMAL");
        db->exec("PRAGMA foreign_keys = ON");
        migrate(*db);
        // A write now, so that an unwritable file or a held lock shows at start.
        SQLite::Transaction probe(*db, SQLite::TransactionBehavior::IMMEDIATE);
        probe.commit();
    } catch (const SQLite::Exception& e) {
        return makeError(failure(name, e));
    }
    return std::unique_ptr<Store>(new Store(std::move(db)));
}

int Store::schemaVersion() const {
    std::lock_guard lock(mutex_);
    try {
        return userVersion(*db_);
    } catch (const SQLite::Exception&) {
        return -1;
    }
}

common::Result<std::string> Store::integrityCheck() {
    std::lock_guard lock(mutex_);
    try {
        return db_->execAndGet("PRAGMA integrity_check").getString();
    } catch (const SQLite::Exception& e) {
        return makeError(failure("integrity check", e));
    }
}

common::Result<bool> Store::saveLascaGame(const StoredLascaGame& game) {
    std::lock_guard lock(mutex_);
    try {
        SQLite::Transaction transaction(*db_);
        SQLite::Statement row(*db_,
                              "INSERT INTO lasca_games (id, start_lfen, engine, level, analysing, "
                              "multipv, result, rule, created, updated, tree) "
                              "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) "
                              "ON CONFLICT (id) DO UPDATE SET start_lfen = ?2, engine = ?3, "
                              "level = ?4, analysing = ?5, multipv = ?6, result = ?7, rule = ?8, "
                              "updated = ?10, tree = ?11");
        row.bind(1, game.id);
        row.bind(2, game.startLfen);
        row.bind(3, game.engine);
        row.bind(4, game.level);
        row.bind(5, game.analysing ? 1 : 0);
        row.bind(6, game.multiPv);
        row.bind(7, game.result);
        row.bind(8, game.rule);
        row.bind(9, static_cast<int64_t>(game.created));
        row.bind(10, static_cast<int64_t>(game.updated));
        row.bind(11, game.tree);
        row.exec();

        // The stored moves that still agree with the game stay; the rest is replaced.
        SQLite::Statement stored(*db_,
                                 "SELECT ply, move FROM lasca_moves WHERE game = ? ORDER BY ply");
        stored.bind(1, game.id);
        std::size_t agree = 0;
        while (stored.executeStep()) {
            const auto ply = static_cast<std::size_t>(stored.getColumn(0).getInt64());
            if (ply != agree || ply >= game.moves.size() ||
                stored.getColumn(1).getString() != game.moves[ply])
                break;
            ++agree;
        }
        stored.reset();
        SQLite::Statement cut(*db_, "DELETE FROM lasca_moves WHERE game = ? AND ply >= ?");
        cut.bind(1, game.id);
        cut.bind(2, static_cast<int64_t>(agree));
        cut.exec();
        SQLite::Statement add(*db_, "INSERT INTO lasca_moves (game, ply, move) VALUES (?, ?, ?)");
        for (std::size_t ply = agree; ply < game.moves.size(); ++ply) {
            add.bind(1, game.id);
            add.bind(2, static_cast<int64_t>(ply));
            add.bind(3, game.moves[ply]);
            add.exec();
            add.reset();
        }
        transaction.commit();
        return true;
    } catch (const SQLite::Exception& e) {
        return makeError(failure("saving game " + game.id, e));
    }
}

std::optional<StoredLascaGame> Store::readLascaGame(const std::string& id) {
    SQLite::Statement row(*db_,
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
    SQLite::Statement moves(*db_, "SELECT move FROM lasca_moves WHERE game = ? ORDER BY ply");
    moves.bind(1, id);
    while (moves.executeStep()) game.moves.push_back(moves.getColumn(0).getString());
    return game;
}

common::Result<std::optional<StoredLascaGame>> Store::loadLascaGame(const std::string& id) {
    std::lock_guard lock(mutex_);
    try {
        return readLascaGame(id);
    } catch (const SQLite::Exception& e) {
        return makeError(failure("loading game " + id, e));
    }
}

common::Result<std::int64_t> Store::lascaGameCount() {
    std::lock_guard lock(mutex_);
    try {
        return db_->execAndGet("SELECT COUNT(*) FROM lasca_games").getInt64();
    } catch (const SQLite::Exception& e) {
        return makeError(failure("counting games", e));
    }
}

common::Result<std::vector<StoredLascaGame>> Store::lascaGames() {
    std::lock_guard lock(mutex_);
    try {
        std::vector<std::string> ids;
        SQLite::Statement all(*db_, "SELECT id FROM lasca_games ORDER BY rowid");
        while (all.executeStep()) ids.push_back(all.getColumn(0).getString());
        std::vector<StoredLascaGame> games;
        for (const auto& id : ids)
            if (auto game = readLascaGame(id)) games.push_back(std::move(*game));
        return games;
    } catch (const SQLite::Exception& e) {
        return makeError(failure("reading the games", e));
    }
}

common::Result<std::optional<StoredLascaGame>> Store::lascaGameByNumber(std::int64_t number) {
    std::lock_guard lock(mutex_);
    try {
        SQLite::Statement find(*db_, "SELECT id FROM lasca_games WHERE rowid = ?");
        find.bind(1, static_cast<int64_t>(number));
        if (!find.executeStep()) return std::optional<StoredLascaGame>();
        return readLascaGame(find.getColumn(0).getString());
    } catch (const SQLite::Exception& e) {
        return makeError(failure("loading game " + std::to_string(number), e));
    }
}

common::Result<bool> Store::createTorneioTable(const StoredTorneioTable& table) {
    std::lock_guard lock(mutex_);
    try {
        SQLite::Transaction transaction(*db_);
        SQLite::Statement row(*db_,
                              "INSERT INTO torneio_tables (id, params, seed, result, record, "
                              "created, updated) VALUES (?, ?, ?, ?, ?, ?, ?)");
        row.bind(1, table.id);
        row.bind(2, table.params);
        row.bind(3, std::to_string(table.seed));
        row.bind(4, table.result);
        row.bind(5, table.record);
        row.bind(6, static_cast<int64_t>(table.created));
        row.bind(7, static_cast<int64_t>(table.updated));
        row.exec();
        SQLite::Statement seat(*db_,
                               "INSERT INTO torneio_seats (tbl, seat, kind, level, token_hash) "
                               "VALUES (?, ?, ?, ?, ?)");
        for (std::size_t s = 0; s < table.seats.size(); ++s) {
            seat.bind(1, table.id);
            seat.bind(2, static_cast<int64_t>(s));
            seat.bind(3, table.seats[s].kind);
            seat.bind(4, table.seats[s].level);
            seat.bind(5, table.seats[s].tokenHash);
            seat.exec();
            seat.reset();
        }
        SQLite::Statement decision(
            *db_, "INSERT INTO torneio_decisions (tbl, n, seat, action) VALUES (?, ?, ?, ?)");
        for (std::size_t n = 0; n < table.decisions.size(); ++n) {
            decision.bind(1, table.id);
            decision.bind(2, static_cast<int64_t>(n));
            decision.bind(3, table.decisions[n].seat);
            decision.bind(4, table.decisions[n].action);
            decision.exec();
            decision.reset();
        }
        transaction.commit();
        return true;
    } catch (const SQLite::Exception& e) {
        return makeError(failure("saving table " + table.id, e));
    }
}

common::Result<bool> Store::addTorneioDecision(const std::string& id, std::size_t index,
                                               const StoredTorneioDecision& decision,
                                               std::int64_t updated) {
    std::lock_guard lock(mutex_);
    try {
        SQLite::Transaction transaction(*db_);
        SQLite::Statement add(
            *db_, "INSERT INTO torneio_decisions (tbl, n, seat, action) VALUES (?, ?, ?, ?)");
        add.bind(1, id);
        add.bind(2, static_cast<int64_t>(index));
        add.bind(3, decision.seat);
        add.bind(4, decision.action);
        add.exec();
        SQLite::Statement touch(*db_, "UPDATE torneio_tables SET updated = ? WHERE id = ?");
        touch.bind(1, static_cast<int64_t>(updated));
        touch.bind(2, id);
        touch.exec();
        transaction.commit();
        return true;
    } catch (const SQLite::Exception& e) {
        return makeError(failure("saving a decision of table " + id, e));
    }
}

common::Result<bool> Store::finishTorneioTable(const std::string& id, const std::string& result,
                                               const std::string& record, std::int64_t updated) {
    std::lock_guard lock(mutex_);
    try {
        SQLite::Statement finish(
            *db_, "UPDATE torneio_tables SET result = ?, record = ?, updated = ? WHERE id = ?");
        finish.bind(1, result);
        finish.bind(2, record);
        finish.bind(3, static_cast<int64_t>(updated));
        finish.bind(4, id);
        if (finish.exec() != 1)
            return makeError("saving the end of table " + id + ": no such table");
        return true;
    } catch (const SQLite::Exception& e) {
        return makeError(failure("saving the end of table " + id, e));
    }
}

std::optional<StoredTorneioTable> Store::readTorneioTable(const std::string& id) {
    SQLite::Statement row(*db_,
                          "SELECT params, seed, result, record, created, updated "
                          "FROM torneio_tables WHERE id = ?");
    row.bind(1, id);
    if (!row.executeStep()) return std::nullopt;
    StoredTorneioTable table;
    table.id = id;
    table.params = row.getColumn(0).getString();
    table.seed = std::stoull(row.getColumn(1).getString());
    table.result = row.getColumn(2).getString();
    table.record = row.getColumn(3).getString();
    table.created = row.getColumn(4).getInt64();
    table.updated = row.getColumn(5).getInt64();
    SQLite::Statement seats(
        *db_, "SELECT kind, level, token_hash FROM torneio_seats WHERE tbl = ? ORDER BY seat");
    seats.bind(1, id);
    while (seats.executeStep())
        table.seats.push_back({seats.getColumn(0).getString(), seats.getColumn(1).getInt(),
                               seats.getColumn(2).getString()});
    SQLite::Statement decisions(
        *db_, "SELECT seat, action FROM torneio_decisions WHERE tbl = ? ORDER BY n");
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
    } catch (const std::exception& e) {  // SQLite's, or a seed that is not a number
        return makeError("loading table " + id + ": " + e.what());
    }
}

common::Result<std::optional<StoredTorneioTable>> Store::torneioTableByNumber(std::int64_t number) {
    std::lock_guard lock(mutex_);
    try {
        SQLite::Statement find(*db_, "SELECT id FROM torneio_tables WHERE rowid = ?");
        find.bind(1, static_cast<int64_t>(number));
        if (!find.executeStep()) return std::optional<StoredTorneioTable>();
        return readTorneioTable(find.getColumn(0).getString());
    } catch (const std::exception& e) {
        return makeError("loading table " + std::to_string(number) + ": " + e.what());
    }
}

common::Result<std::int64_t> Store::torneioTableCount() {
    std::lock_guard lock(mutex_);
    try {
        return db_->execAndGet("SELECT COUNT(*) FROM torneio_tables").getInt64();
    } catch (const SQLite::Exception& e) {
        return makeError(failure("counting tables", e));
    }
}

common::Result<std::vector<GameSummary>> Store::recentGames(int limit) {
    std::lock_guard lock(mutex_);
    try {
        SQLite::Statement recent(
            *db_,
            "SELECT 'lasca', g.rowid, g.engine, g.level, "
            "  (SELECT COUNT(*) FROM lasca_moves m WHERE m.game = g.id), g.result, g.rule, "
            "  g.updated FROM lasca_games g "
            "UNION ALL "
            "SELECT 'torneio', t.rowid, "
            "  (SELECT group_concat(CASE WHEN s.kind = 'ai' THEN 'ai ' || (s.level + 1) "
            "          ELSE s.kind END, ', ') FROM "
            "     (SELECT kind, level FROM torneio_seats WHERE tbl = t.id ORDER BY seat) s), 0, "
            "  (SELECT COUNT(*) FROM torneio_decisions d WHERE d.tbl = t.id), t.result, '', "
            "  t.updated FROM torneio_tables t "
            "UNION ALL "
            "SELECT 'duel', d.rowid, d.clock_time || '/' || d.clock_increment, 0, "
            "  (SELECT COUNT(*) FROM lasca_duel_moves m WHERE m.duel = d.id), d.result, d.rule, "
            "  d.updated FROM lasca_duels d "
            "ORDER BY 8 DESC LIMIT ?");
        recent.bind(1, limit);
        std::vector<GameSummary> games;
        while (recent.executeStep()) {
            GameSummary game;
            game.kind = recent.getColumn(0).getString();
            game.number = recent.getColumn(1).getInt64();
            game.players = recent.getColumn(2).getString();
            game.level = recent.getColumn(3).getInt();
            game.plies = recent.getColumn(4).getInt64();
            game.result = recent.getColumn(5).getString();
            game.rule = recent.getColumn(6).getString();
            game.updated = recent.getColumn(7).getInt64();
            games.push_back(std::move(game));
        }
        return games;
    } catch (const SQLite::Exception& e) {
        return makeError(failure("listing games", e));
    }
}

common::Result<bool> Store::saveDuel(const StoredDuel& duel) {
    std::lock_guard lock(mutex_);
    try {
        SQLite::Transaction transaction(*db_);
        SQLite::Statement row(
            *db_,
            "INSERT INTO lasca_duels (id, start_lfen, white_hash, black_hash, watch_hash, "
            "clock_time, clock_increment, white_ms, black_ms, draw_offer, result, rule, created, "
            "updated) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14) "
            "ON CONFLICT (id) DO UPDATE SET white_ms = ?8, black_ms = ?9, draw_offer = ?10, "
            "result = ?11, rule = ?12, updated = ?14");
        row.bind(1, duel.id);
        row.bind(2, duel.startLfen);
        row.bind(3, duel.whiteHash);
        row.bind(4, duel.blackHash);
        row.bind(5, duel.watchHash);
        row.bind(6, static_cast<int64_t>(duel.clockTime));
        row.bind(7, static_cast<int64_t>(duel.clockIncrement));
        row.bind(8, static_cast<int64_t>(duel.whiteMs));
        row.bind(9, static_cast<int64_t>(duel.blackMs));
        row.bind(10, duel.drawOffer);
        row.bind(11, duel.result);
        row.bind(12, duel.rule);
        row.bind(13, static_cast<int64_t>(duel.created));
        row.bind(14, static_cast<int64_t>(duel.updated));
        row.exec();
        SQLite::Statement count(*db_, "SELECT COUNT(*) FROM lasca_duel_moves WHERE duel = ?");
        count.bind(1, duel.id);
        count.executeStep();
        const auto stored = static_cast<std::size_t>(count.getColumn(0).getInt64());
        count.reset();
        if (stored > duel.moves.size()) {  // never happens in play: moves are only added
            SQLite::Statement cut(*db_, "DELETE FROM lasca_duel_moves WHERE duel = ? AND ply >= ?");
            cut.bind(1, duel.id);
            cut.bind(2, static_cast<int64_t>(duel.moves.size()));
            cut.exec();
        }
        SQLite::Statement add(*db_,
                              "INSERT INTO lasca_duel_moves (duel, ply, move) VALUES (?, ?, ?)");
        for (std::size_t ply = std::min(stored, duel.moves.size()); ply < duel.moves.size();
             ++ply) {
            add.bind(1, duel.id);
            add.bind(2, static_cast<int64_t>(ply));
            add.bind(3, duel.moves[ply]);
            add.exec();
            add.reset();
        }
        transaction.commit();
        return true;
    } catch (const SQLite::Exception& e) {
        return makeError(failure("saving table " + duel.id, e));
    }
}

common::Result<std::optional<StoredDuel>> Store::loadDuel(const std::string& id) {
    std::lock_guard lock(mutex_);
    try {
        SQLite::Statement row(*db_,
                              "SELECT start_lfen, white_hash, black_hash, watch_hash, clock_time, "
                              "clock_increment, white_ms, black_ms, draw_offer, result, rule, "
                              "created, updated FROM lasca_duels WHERE id = ?");
        row.bind(1, id);
        if (!row.executeStep()) return std::optional<StoredDuel>();
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
        SQLite::Statement moves(*db_,
                                "SELECT move FROM lasca_duel_moves WHERE duel = ? ORDER BY ply");
        moves.bind(1, id);
        while (moves.executeStep()) duel.moves.push_back(moves.getColumn(0).getString());
        return std::optional<StoredDuel>(std::move(duel));
    } catch (const SQLite::Exception& e) {
        return makeError(failure("loading table " + id, e));
    }
}

common::Result<std::vector<StoredDuel>> Store::finishedDuels() {
    std::vector<std::string> ids;
    {
        std::lock_guard lock(mutex_);
        try {
            SQLite::Statement all(*db_,
                                  "SELECT id FROM lasca_duels WHERE result != '*' ORDER BY rowid");
            while (all.executeStep()) ids.push_back(all.getColumn(0).getString());
        } catch (const SQLite::Exception& e) {
            return makeError(failure("reading the tables", e));
        }
    }
    std::vector<StoredDuel> duels;
    for (const auto& id : ids) {
        auto duel = loadDuel(id);
        if (!duel) return makeError(duel.error());
        if (duel.value()) duels.push_back(std::move(*duel.value()));
    }
    return duels;
}

common::Result<std::optional<StoredDuel>> Store::duelByNumber(std::int64_t number) {
    std::string id;
    {
        std::lock_guard lock(mutex_);
        try {
            SQLite::Statement find(*db_, "SELECT id FROM lasca_duels WHERE rowid = ?");
            find.bind(1, static_cast<int64_t>(number));
            if (!find.executeStep()) return std::optional<StoredDuel>();
            id = find.getColumn(0).getString();
        } catch (const SQLite::Exception& e) {
            return makeError(failure("loading table " + std::to_string(number), e));
        }
    }
    return loadDuel(id);
}

}  // namespace web
