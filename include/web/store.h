// The web server's database: every Lasca game of the page kept in one SQLite file, so that a
// reload or a restart of the server loses nothing (issue 23). The moves are the truth: a game is
// its start position, its moves and who plays what; positions are derived by replaying the moves
// through the rules core (LascaTable::restore). One module owns SQL; the tables never see it.
//
// The file: WAL journal, synchronous=NORMAL (a committed transaction survives the server being
// killed, `kill -9`; an operating-system crash or power loss may lose the last ones), exclusive
// locking (a second server on the same file is refused at start). `PRAGMA user_version` holds
// the schema version; migrations from version 0 (an empty file) upwards run in order at open,
// and a file of a newer version is refused. Every statement is prepared; no SQL is built from
// text a person typed. Errors are values (common::Result), never exceptions or output.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"

namespace SQLite {
class Database;
}

namespace web {

// StoredLascaGame: one Lasca game as the store keeps it.
//   id          the game's id (the page keeps it in its address)
//   startLfen   the start position; moves the moves played from it, in order (move texts)
//   engine      the colour the engine plays: "white", "black" or "none"; level its index
//   analysing, multiPv   whether the page asked for analysis, and how many lines
//   result      "*" while the game goes on, else "2-0", "0-2", "1-1"; rule the rule that ended
//               it ("" while it goes on)
//   created, updated     milliseconds since the Unix epoch
struct StoredLascaGame {
    std::string id;
    std::string startLfen;
    std::vector<std::string> moves;
    std::string engine = "black";
    int level = 3;
    bool analysing = false;
    int multiPv = 1;
    std::string result = "*";
    std::string rule;
    std::int64_t created = 0;
    std::int64_t updated = 0;

    friend bool operator==(const StoredLascaGame&, const StoredLascaGame&) = default;
};

// Store: one open database file. Not thread-safe: the server's one thread uses it.
class Store {
  public:
    static constexpr int kSchemaVersion = 1;

    // Opens (creating if needed) the file, or an in-memory database for "". Errors, each one
    // line: the file cannot be created or opened, is not a database, is of a newer schema,
    // is held by another server, or cannot be written.
    static common::Result<std::unique_ptr<Store>> open(const std::string& path);
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    // Saves the game whole in one transaction (its row, and its moves: those beyond the stored
    // ones added, a changed or taken-back tail replaced), committed when this returns true.
    common::Result<bool> saveLascaGame(const StoredLascaGame& game);
    // The game with this id; nothing when there is none.
    common::Result<std::optional<StoredLascaGame>> loadLascaGame(const std::string& id);
    // How many games are kept.
    common::Result<std::int64_t> lascaGameCount();

    // The schema version of the open file, and SQLite's own check of it ("ok" when sound).
    int schemaVersion() const;
    common::Result<std::string> integrityCheck();

  private:
    explicit Store(std::unique_ptr<SQLite::Database> db);
    std::unique_ptr<SQLite::Database> db_;
};

}  // namespace web
