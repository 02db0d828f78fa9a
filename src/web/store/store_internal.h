// What the store's files share: a failure as one line, the one way of writing a game's move rows
// (Lasca games and two-person tables alike), and the SQL that differs between the back ends.
#pragma once

#include <string>
#include <string_view>

#include "web/store/connection.h"
#include "web/store/store.h"

struct pg_conn;  // libpq-fe.h's PGconn

namespace web::store {

using common::makeError;

// The first line of a libpq message, without its trailing newline (postgres_connection.cpp).
std::string firstLine(const char* message);

// A libpq connection to `url` with the store's defaults, which the URL's own settings override:
// connect_timeout 10 s, UTF-8, `application` as its application_name (postgres_connection.cpp;
// the store's connections and the bus's). libpq's PGconn: null only when libpq could not make
// one; its status is the caller's to check.
pg_conn* connectPostgreSQL(const std::string& url, const char* application);

// One line for a failure of the database, naming what was being done.
std::string failure(std::string_view doing, const DbError& e);

// `sql` with the dialect's fragments put in for `backend` (store.cpp's table: {int}, {real},
// {key}, {rowid}, {without_rowid}, {group_concat}); text without them is returned as it is.
std::string dialect(Backend backend, std::string_view sql);

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
void writeMoveRows(Connection& db, const MoveRowsTable& table, const std::string& id,
                   const MoveRowsChange& change);

// A two-person table's row written (inserted, or its changing columns updated), and one read
// (its accounts' names joined; its moves when `withMoves`), inside the caller's transaction.
void writeDuelRow(Connection& db, const StoredDuel& duel);
std::optional<StoredDuel> readDuel(Connection& db, const std::string& id, bool withMoves);

}  // namespace web::store
