#include "web/store.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

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
    try {
        return userVersion(*db_);
    } catch (const SQLite::Exception&) {
        return -1;
    }
}

common::Result<std::string> Store::integrityCheck() {
    try {
        return db_->execAndGet("PRAGMA integrity_check").getString();
    } catch (const SQLite::Exception& e) {
        return makeError(failure("integrity check", e));
    }
}

common::Result<bool> Store::saveLascaGame(const StoredLascaGame& game) {
    try {
        SQLite::Transaction transaction(*db_);
        SQLite::Statement row(*db_,
                              "INSERT INTO lasca_games (id, start_lfen, engine, level, analysing, "
                              "multipv, result, rule, created, updated) "
                              "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) "
                              "ON CONFLICT (id) DO UPDATE SET start_lfen = ?2, engine = ?3, "
                              "level = ?4, analysing = ?5, multipv = ?6, result = ?7, rule = ?8, "
                              "updated = ?10");
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

common::Result<std::optional<StoredLascaGame>> Store::loadLascaGame(const std::string& id) {
    try {
        SQLite::Statement row(*db_,
                              "SELECT start_lfen, engine, level, analysing, multipv, result, rule, "
                              "created, updated FROM lasca_games WHERE id = ?");
        row.bind(1, id);
        if (!row.executeStep()) return std::optional<StoredLascaGame>();
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
        SQLite::Statement moves(*db_, "SELECT move FROM lasca_moves WHERE game = ? ORDER BY ply");
        moves.bind(1, id);
        while (moves.executeStep()) game.moves.push_back(moves.getColumn(0).getString());
        return std::optional<StoredLascaGame>(std::move(game));
    } catch (const SQLite::Exception& e) {
        return makeError(failure("loading game " + id, e));
    }
}

common::Result<std::int64_t> Store::lascaGameCount() {
    try {
        return db_->execAndGet("SELECT COUNT(*) FROM lasca_games").getInt64();
    } catch (const SQLite::Exception& e) {
        return makeError(failure("counting games", e));
    }
}

}  // namespace web
