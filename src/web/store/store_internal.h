// What the store's files share: SQLite's errors as one line, and the one way of writing a game's
// move rows (Lasca games and two-person tables alike).
#pragma once

#include <SQLiteCpp/SQLiteCpp.h>

#include <string>
#include <string_view>

#include "web/store/store.h"

namespace web::store {

using common::makeError;

// One line for a failure of SQLite, naming what was being done.
std::string failure(std::string_view doing, const SQLite::Exception& e);

// MoveRowsTable: where a kind of game keeps its move rows (fixed SQL, never text a person typed).
//   cut   deletes the rows of game ?1 from ply ?2 on
//   add   inserts row (game ?1, ply ?2, move ?3)
struct MoveRowsTable {
    const char* cut;
    const char* add;
};
inline constexpr MoveRowsTable kLascaMoveRows = {
    "DELETE FROM lasca_moves WHERE game = ?1 AND ply >= ?2",
    "INSERT INTO lasca_moves (game, ply, move) VALUES (?1, ?2, ?3)"};
inline constexpr MoveRowsTable kDuelMoveRows = {
    "DELETE FROM lasca_duel_moves WHERE duel = ?1 AND ply >= ?2",
    "INSERT INTO lasca_duel_moves (duel, ply, move) VALUES (?1, ?2, ?3)"};

// Applies `change` to the move rows of game `id` (inside the caller's transaction).
void writeMoveRows(SQLite::Database& db, const MoveRowsTable& table, const std::string& id,
                   const MoveRowsChange& change);

// A two-person table's row written (inserted, or its changing columns updated), and one read
// (its accounts' names joined; its moves when `withMoves`), inside the caller's transaction.
void writeDuelRow(SQLite::Database& db, const StoredDuel& duel);
std::optional<StoredDuel> readDuel(SQLite::Database& db, const std::string& id, bool withMoves);

}  // namespace web::store
