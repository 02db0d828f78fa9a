#include "web/store/store.h"

#include "store_internal.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <string_view>

namespace web::store {

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

namespace {

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
    // 4 -> 5: when a two-person table's running clock started (0: none runs, or not known).
    R"sql(
    ALTER TABLE lasca_duels ADD COLUMN turn_started INTEGER NOT NULL DEFAULT 0;
    )sql",
    // 5 -> 6: accounts and their sessions. name_key is NULL for a deleted account (its name
    // free again); a session is kept by its token's hash only.
    R"sql(
    CREATE TABLE accounts (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        name          TEXT NOT NULL,
        name_key      TEXT UNIQUE,
        password_hash TEXT NOT NULL,
        created_at    INTEGER NOT NULL,
        deleted       INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
        CHECK ((deleted = 0) = (name_key IS NOT NULL))
    );
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX sessions_account ON sessions (account_id);
    CREATE INDEX sessions_expires ON sessions (expires_at);
    )sql",
    // 6 -> 7: rated two-person tables, the accounts holding their seats (NULL: none), and the
    // ratings per account and category with their history (one row per rated game and player).
    R"sql(
    ALTER TABLE lasca_duels ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
    ALTER TABLE lasca_duels ADD COLUMN white_account INTEGER REFERENCES accounts (id);
    ALTER TABLE lasca_duels ADD COLUMN black_account INTEGER REFERENCES accounts (id);
    CREATE INDEX lasca_duels_white_account ON lasca_duels (white_account);
    CREATE INDEX lasca_duels_black_account ON lasca_duels (black_account);
    CREATE TABLE ratings (
        account_id INTEGER NOT NULL REFERENCES accounts (id),
        category   TEXT NOT NULL,
        rating     REAL NOT NULL,
        deviation  REAL NOT NULL,
        volatility REAL NOT NULL,
        games      INTEGER NOT NULL CHECK (games >= 0),
        last_game  INTEGER NOT NULL,
        PRIMARY KEY (account_id, category)
    ) WITHOUT ROWID;
    CREATE TABLE rating_history (
        account_id INTEGER NOT NULL REFERENCES accounts (id),
        category   TEXT NOT NULL,
        game       TEXT NOT NULL REFERENCES lasca_duels (id),
        rating     REAL NOT NULL,
        deviation  REAL NOT NULL,
        at         INTEGER NOT NULL,
        PRIMARY KEY (account_id, game)
    );
    )sql",
    // 7 -> 8: the lobby's open seeks (web/lobby/lobby.h; a seek lasts as long as its maker's
    // lobby tab, so the server empties the table when it starts), and a public two-person
    // table's watch link, which anyone may open ('' for a private table).
    R"sql(
    CREATE TABLE seeks (
        id            TEXT PRIMARY KEY,
        kind          TEXT NOT NULL CHECK (kind IN ('lasca', 'torneio')),
        maker_account INTEGER REFERENCES accounts (id),
        maker_name    TEXT NOT NULL,
        params        TEXT NOT NULL,
        created       INTEGER NOT NULL
    );
    ALTER TABLE lasca_duels ADD COLUMN public_watch TEXT NOT NULL DEFAULT '';
    )sql",
    // 8 -> 9: rated Torneio tables and the accounts holding their person seats (NULL: none), and
    // the Torneio rating's history (its rating lives in `ratings` as category 'torneio'; its
    // history rows name a Torneio table, which rating_history's game column cannot).
    R"sql(
    ALTER TABLE torneio_tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
    ALTER TABLE torneio_seats ADD COLUMN account INTEGER REFERENCES accounts (id);
    CREATE INDEX torneio_seats_account ON torneio_seats (account);
    CREATE TABLE torneio_rating_history (
        account_id INTEGER NOT NULL REFERENCES accounts (id),
        tbl        TEXT NOT NULL REFERENCES torneio_tables (id),
        rating     REAL NOT NULL,
        deviation  REAL NOT NULL,
        at         INTEGER NOT NULL,
        PRIMARY KEY (account_id, tbl)
    );
    )sql",
    // 9 -> 10: an account's language ('' for none) and the lessons of /learn it completed (their
    // ids joined by commas, '' for none).
    R"sql(
    ALTER TABLE accounts ADD COLUMN lang TEXT NOT NULL DEFAULT '';
    ALTER TABLE accounts ADD COLUMN learn TEXT NOT NULL DEFAULT '';
    )sql",
};

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

}  // namespace web::store
