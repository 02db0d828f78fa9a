// The web server's database: every Lasca game and every Torneio table of the page kept in one
// database, so that a reload or a restart of the server loses nothing. The moves
// and decisions are the truth: a Lasca game is its start position, its moves and who plays what
// (positions are derived by replaying the moves through the rules core, LascaTable::restore); a
// Torneio table is its parameters, seed, seats and the referee's record of decisions as it grows
// (its state and every seat's view are derived by replaying them through the referee,
// TorneioTable::restore). One module owns SQL; the tables never see it.
//
// Two back ends, one schema and one set of promises (web/store/connection.h is the driver
// interface the SQL is written against once):
//  - SQLite, a file (or memory): WAL journal, synchronous=NORMAL (a committed transaction
//    survives the server being killed, `kill -9`; an operating-system crash or power loss may
//    lose the last ones), exclusive locking (a second server on the same file is refused at
//    start). `PRAGMA user_version` holds the schema version.
//  - PostgreSQL, a `postgresql://` (or `postgres://`) URL: a commit is the server's (durable as
//    the server is configured: by default through an operating-system crash too). One
//    connection per store, made again after the server dropped it (a restart); table
//    lasca_schema holds the schema version.
// Migrations from version 0 (an empty database) upwards run in order at open, the same list on
// both, and a database of a newer version is refused. Each call is committed when it returns;
// a call that writes several rows is one transaction. Every statement is prepared; no SQL is
// built from text a person typed. Errors are values (common::Result), never exceptions or
// output.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/glicko2.h"
#include "common/result.h"

namespace web::store {

class Connection;
enum class Backend : std::uint8_t;

// StoredLascaGame: one Lasca game as the store keeps it.
//   id          the game's id (the page keeps it in its address)
//   startLfen   the start position; moves the moves played from it, in order (move texts)
//   engine      the colour the engine plays: "white", "black" or "none"; level its index
//   analysing, multiPv   whether the page asked for analysis, and how many lines
//   result      "*" while the game goes on, else "2-0", "0-2", "1-1"; rule the rule that ended
//               it ("" while it goes on)
//   created, updated     milliseconds since the Unix epoch
//   tree        the game's variations on the analysis board (MoveTree::toJson as JSON text:
//               moves is one line of it), "" for a game without variations
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
    std::string tree;

    friend bool operator==(const StoredLascaGame&, const StoredLascaGame&) = default;
};

// MoveRowsChange: how the move rows of a game change in a save: the rows from ply `from` on are
// deleted, then `added` are stored at plies from, from + 1, ... (moves played: `from` is the
// number of rows kept; a takeback: `added` is empty). The stored rows are never read to find it.
struct MoveRowsChange {
    std::size_t from = 0;
    std::vector<std::string> added;
};

// TreeWrite: whether a save writes the game's variations (StoredLascaGame::tree) or keeps those
// stored (the table's tree has not changed since its last save: its text is not even made).
enum class TreeWrite : std::uint8_t { Write, Keep };

// StoredTorneioSeat: who plays a seat of a Torneio table. kind: "person" or a player kind;
// level: the AI level; tokenHash: a person seat's token as common::hashSecret keeps it (the token
// itself is never stored), "" for an AI seat; account: the account a person seat is bound to (only
// that account may open it), 0 for none (a guest's seat, every AI seat); name: that account's name
// as it is now (read by loadTorneioTable, never written: "" for no account).
struct StoredTorneioSeat {
    std::string kind;
    int level = 1;
    std::string tokenHash;
    std::int64_t account = 0;
    std::string name;

    friend bool operator==(const StoredTorneioSeat&, const StoredTorneioSeat&) = default;
};

// StoredTorneioDecision: one accepted decision of the record: the seat (0-based) and the action's
// text as the protocol writes it.
struct StoredTorneioDecision {
    int seat = 0;
    std::string action;

    friend bool operator==(const StoredTorneioDecision&, const StoredTorneioDecision&) = default;
};

// StoredTorneioTable: one Torneio table.
//   id, params (formatParams text), seed (the game's seed), seats by seat
//   decisions   every accepted decision in order (the events follow from them by the rules)
//   result      "" while the game goes on, else a summary ("win 2", "draw 1 3": seats 1..N)
//   record      "" while the game goes on, else the full record (JSON lines, torneio/record.h)
//   created, updated   milliseconds since the Unix epoch
//   rated       whether the game is rated (its end written with the new Torneio ratings of the
//               seats' accounts, Store::finishRatedTorneioTable)
struct StoredTorneioTable {
    std::string id;
    std::string params;
    std::uint64_t seed = 0;
    std::vector<StoredTorneioSeat> seats;
    std::vector<StoredTorneioDecision> decisions;
    std::string result;
    std::string record;
    std::int64_t created = 0;
    std::int64_t updated = 0;
    bool rated = false;

    friend bool operator==(const StoredTorneioTable&, const StoredTorneioTable&) = default;
};

// StoredDuel: a Lasca table for two people (web/lasca_tables/duel.h).
//   whiteHash, blackHash, watchHash   the three links' tokens as common::hashSecret keeps them
//   clockTime, clockIncrement         milliseconds; 0 and 0 for a game without a clock
//   whiteMs, blackMs                  the time each side had left when its clock last stopped
//   turnStarted                       milliseconds since the Unix epoch when the running clock
//                                     started (the turn began), 0 when no clock runs (or for a
//                                     table kept before this was stored): a restart charges the
//                                     side to move from then
//   drawOffer                         "", "white" or "black"
//   result, rule                      "*" and "" while it goes on; else the result and "R9",
//                                     "T1", "T2", "time", "resign" or "agreement"
//   rated                             whether the game is rated (its end written with both
//                                     players' new ratings, Store::finishRatedDuel)
//   whiteAccount, blackAccount        the account that holds each seat, 0 for none (a guest's
//                                     seat, or a seat nobody signed in has opened yet)
//   whiteName, blackName              those accounts' names as they are now (read by loadDuel,
//                                     never written: "" for no account)
//   publicWatch                       a public table's (one made in the lobby) watch token in
//                                     clear, which the lobby and /games show; "" for a private
//                                     table, whose links only their holders know
struct StoredDuel {
    std::string id;
    std::string startLfen;
    std::vector<std::string> moves;
    std::string whiteHash;
    std::string blackHash;
    std::string watchHash;
    std::int64_t clockTime = 0;
    std::int64_t clockIncrement = 0;
    std::int64_t whiteMs = 0;
    std::int64_t blackMs = 0;
    std::string drawOffer;
    std::string result = "*";
    std::string rule;
    std::int64_t created = 0;
    std::int64_t updated = 0;
    std::int64_t turnStarted = 0;
    bool rated = false;
    std::int64_t whiteAccount = 0;
    std::int64_t blackAccount = 0;
    std::string whiteName;
    std::string blackName;
    std::string publicWatch;

    friend bool operator==(const StoredDuel&, const StoredDuel&) = default;
};

// StoredRating: one account's rating in one category ("bullet", "blitz", "rapid", "classical";
// "torneio", kTorneioCategory).
//   rating      Glicko-2's rating, deviation and volatility after its last rated game
//   games       rated games played in the category
//   lastGame    milliseconds since the Unix epoch of the last one (the time away grows the
//               deviation from then, common::withTimeAway)
struct StoredRating {
    std::string category;
    common::Rating rating;
    std::int64_t games = 0;
    std::int64_t lastGame = 0;
};

// The category of the Torneio rating in the store's ratings (one rating, whatever the game's
// length: docs/ratings.md).
inline constexpr const char* kTorneioCategory = "torneio";

// RatingPoint: one row of an account's rating history: its rating and deviation in `category`
// after game `game` (a two-person table's id, or for category kTorneioCategory a Torneio table's;
// `number` its public number, unique per kind), at `at` (milliseconds since the epoch).
struct RatingPoint {
    std::string category;
    std::string game;
    std::int64_t number = 0;
    double rating = 0;
    double deviation = 0;
    std::int64_t at = 0;
};

// RateGame: the two players' ratings after a rated game (White's, then Black's), from their
// ratings before it (nothing: the player's first game in the category). Called inside the
// store's transaction; an error leaves the store as it was.
using RateGame = std::function<common::Result<std::array<common::Rating, 2>>(
    const std::optional<StoredRating>& white, const std::optional<StoredRating>& black)>;

// TorneioRatedSeat: a seat of a rated Torneio table held by an account, as a rating step sees it:
// the seat (0-based), its account, and the account's Torneio rating before the game (nothing: its
// first rated Torneio game).
struct TorneioRatedSeat {
    int seat = 0;
    std::int64_t account = 0;
    std::optional<StoredRating> before;
};

// RateTorneioTable: the new Torneio ratings of a rated table's accounts, one per seat given and
// in the same order, from their ratings before it. Called inside the store's transaction; an
// error (or a wrong count) leaves the store as it was.
using RateTorneioTable = std::function<common::Result<std::vector<common::Rating>>(
    const std::vector<TorneioRatedSeat>& seats)>;

// NumberedLascaGame, NumberedDuel, NumberedTorneioTable: a kept game with its public number
// (GameSummary), as the paged readers return them (the number is the key of the next page).
struct NumberedLascaGame {
    std::int64_t number = 0;
    StoredLascaGame game;
};
struct NumberedDuel {
    std::int64_t number = 0;
    StoredDuel duel;
};
struct NumberedTorneioTable {
    std::int64_t number = 0;
    StoredTorneioTable table;
};

// GameSummary: one line of the games page: nothing in it is secret (no game id of a Lasca game,
// which is the key to play it, no token, nothing hidden of a running Torneio table).
//   kind     "lasca", "torneio" or "duel" (a Lasca table for two people)
//   number   the game's public number (stable, unique per kind)
//   players  Torneio: who sits where, as text ("person, ai 2"); Lasca: the engine's colour
//            ("white", "black", "none"), with its level in `level`; duel: its clock as
//            "time/increment" in milliseconds ("0/0": none)
//   plies    moves (Lasca) or decisions (Torneio) so far
//   result   "*" / "" while running, else the result
struct GameSummary {
    std::string kind;
    std::int64_t number = 0;
    std::string players;
    int level = 0;
    std::int64_t plies = 0;
    std::string result;
    std::string rule;
    std::int64_t updated = 0;
};

// StoredAccount: one account (web/accounts/accounts.h makes what it holds).
//   id            the account's number, never reused
//   name          the name as it was typed at sign-up ("Ana_7")
//   nameKey       its key, the lower-case form ("ana_7"): unique among the accounts kept
//   passwordHash  the Argon2id hash (crypto_pwhash_str's text); the password is never kept
//   created       milliseconds since the Unix epoch
//   lang          the language the account chose for the pages ("en", "pt-BR"), "" for none
// A deleted account keeps its row (its number stays taken) with its name replaced by
// "deleted-<id>", no key (the name is free again), no hash and no session.
struct StoredAccount {
    std::int64_t id = 0;
    std::string name;
    std::string nameKey;
    std::string passwordHash;
    std::int64_t created = 0;
    std::string lang;

    friend bool operator==(const StoredAccount&, const StoredAccount&) = default;
};

// StoredSitter: one person sitting at a Torneio offer of the lobby (its maker sits first).
//   place      1, 2, ... in the order people sat
//   home, tab  the instance of the person's lobby tab and the tab's number there
//   account    the person's account, 0 for a guest; name its name ("" for a guest)
//   tokenHash  the seat token the person's instance made for it, as common::hashSecret keeps
//              it (the table made when the offer is full gives the seat this token)
struct StoredSitter {
    int place = 0;
    std::string home;
    std::int64_t tab = 0;
    std::int64_t account = 0;
    std::string name;
    std::string tokenHash;

    friend bool operator==(const StoredSitter&, const StoredSitter&) = default;
};

// StoredSeek: one open offer of the lobby (web/lobby/lobby.h), which every instance sharing the
// database shows.
//   id            the offer's id (random)
//   kind          "lasca" (a seek of a two-person table), "torneio" (a Torneio table gathering
//                 people) or "challenge" (a Lasca game asked of one person)
//   makerAccount  the maker's account, 0 for a guest; makerName its name ("" for a guest)
//   params        what the offer asks, as the lobby's JSON (clock, rated, range; seats, level,
//                 rounds), read back by the lobby alone
//   created       milliseconds since the Unix epoch
//   home, tab     the instance of the maker's lobby tab (written by addSeek: this instance's)
//                 and the tab's number there
//   makerRating   the maker's rating in the offer's category as the lobby shows it (JSON; "")
//   address       the maker's address (the per-address limits count every instance's offers)
//   tokenHash     the maker's seat token, hashed (a seek's or a challenge's; a Torneio offer's
//                 sitters hold theirs)
//   target        a challenge's challenged account and targetName its name
//   sitters       a Torneio offer's people, by place (addSeek keeps those given: the maker)
struct StoredSeek {
    std::string id;
    std::string kind;
    std::int64_t makerAccount = 0;
    std::string makerName;
    std::string params;
    std::int64_t created = 0;
    std::string home;
    std::int64_t tab = 0;
    std::string makerRating;
    std::string address;
    std::string tokenHash;
    std::int64_t target = 0;
    std::string targetName;
    std::vector<StoredSitter> sitters;

    friend bool operator==(const StoredSeek&, const StoredSeek&) = default;
};

// StoredLobbyGame: a running public game the lobby lists to watch: its table's id and the
// lobby's JSON of it (names, clock, watch link), as every instance sends it to its tabs.
struct StoredLobbyGame {
    std::string table;
    std::string game;

    friend bool operator==(const StoredLobbyGame&, const StoredLobbyGame&) = default;
};

// SatDown: a place taken at a Torneio offer (0: none) and how many sit there with it.
struct SatDown {
    int place = 0;
    int sitting = 0;
};

// LobbyPerson: a signed-in person with a lobby tab open on some instance.
struct LobbyPerson {
    std::int64_t account = 0;
    std::string name;
};

// TableHome: where a table lives, as Store::takeTable found it.
//   found  the database holds the table (with homes off not looked at: true)
//   here   this instance holds the table now (it took it, or held it already)
//   home   the instance holding it ("" with homes off: one server holds everything)
//   lease  the lease's number (each takeover adds one; 0 with homes off)
struct TableHome {
    bool found = true;
    bool here = false;
    std::string home;
    std::int64_t lease = 0;
};

// HomeStats: this instance's leases, for /health.
//   name        the instance's name ("" with homes off)
//   held        tables it holds now; takeovers: tables it took from an instance that stopped
//               renewing; staleWrites: writes refused because the table's lease had moved on
//   renewals    successful renewals; sinceRenewalMs the time since the last one (-1: none yet)
//   ttlMs       how long a lease lives without renewal
struct HomeStats {
    std::string name;
    std::size_t held = 0;
    std::int64_t takeovers = 0;
    std::int64_t staleWrites = 0;
    std::int64_t renewals = 0;
    std::int64_t sinceRenewalMs = -1;
    std::int64_t ttlMs = 0;
};

// The key of a table in the directory of homes: its kind ("lasca" a game against the engine or
// the analysis board, "duel" a two-person table, "torneio") and its id.
inline std::string homeKey(std::string_view kind, std::string_view id) {
    return std::string(kind) + ":" + std::string(id);
}

// StoredSession: one signed-in browser. tokenHash: the token as web::accounts::tokenHash keeps
// it (the token itself is never stored); created and expires in milliseconds since the epoch.
struct StoredSession {
    std::string tokenHash;
    std::int64_t accountId = 0;
    std::int64_t created = 0;
    std::int64_t expires = 0;
};

// Store: one open database. Thread-safe: every call holds the store's lock (the server's
// thread saves Lasca games, each Torneio table's referee thread saves its decisions).
class Store {
  public:
    static constexpr int kSchemaVersion = 12;

    // Opens (creating if needed) the file at `location`, an in-memory database for "", or the
    // PostgreSQL database of a postgresql:// URL (which must exist; its tables are made).
    // Errors, each one line: the file cannot be created or opened, is not a database, is of a
    // newer schema, is held by another server, or cannot be written; the server cannot be
    // reached or refuses (the URL's password is never shown).
    static common::Result<std::unique_ptr<Store>> open(const std::string& location);
    // Brings the database at `location` to schema `version` (at most kSchemaVersion) and no
    // further, without opening a store on it: how tests make databases of older versions on
    // either back end.
    static common::Result<bool> migrateTo(const std::string& location, int version);
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    // Saves a game in one transaction, committed when this returns true: its row (game.moves is
    // not read; `created` is kept from the first save; with TreeWrite::Keep, game.tree is not read
    // and the stored variations stay) and the change of its move rows.
    common::Result<bool> saveLascaGame(const StoredLascaGame& game, const MoveRowsChange& moves,
                                       TreeWrite tree = TreeWrite::Write);
    // Saves the game whole: its row and every move row.
    common::Result<bool> saveLascaGame(const StoredLascaGame& game);
    // The game with this id; nothing when there is none.
    common::Result<std::optional<StoredLascaGame>> loadLascaGame(const std::string& id);
    // How many games are kept.
    common::Result<std::int64_t> lascaGameCount();
    // At most `limit` Lasca games whose public number is above `after`, oldest (lowest number)
    // first: one page of /games.pdn, read without reading the others; and one by its number.
    common::Result<std::vector<NumberedLascaGame>> lascaGamesAfter(std::int64_t after, int limit);
    common::Result<std::optional<StoredLascaGame>> lascaGameByNumber(std::int64_t number);

    // A new table, whole (its row with rated, its seats with their accounts, any decisions).
    common::Result<bool> createTorneioTable(const StoredTorneioTable& table);
    // Decision number `index` (0-based) of a table, committed when this returns true; a
    // decision already stored under that number is an error.
    common::Result<bool> addTorneioDecision(const std::string& id, std::size_t index,
                                            const StoredTorneioDecision& decision,
                                            std::int64_t updated);
    // The end of a table's game: its result summary and full record.
    common::Result<bool> finishTorneioTable(const std::string& id, const std::string& result,
                                            const std::string& record, std::int64_t updated);
    common::Result<std::optional<StoredTorneioTable>> loadTorneioTable(const std::string& id);
    common::Result<std::optional<StoredTorneioTable>> torneioTableByNumber(std::int64_t number);
    common::Result<std::int64_t> torneioTableCount();

    // A two-person table: its row and the change of its move rows (as saveLascaGame), or
    // whole; and back.
    common::Result<bool> saveDuel(const StoredDuel& duel, const MoveRowsChange& moves);
    common::Result<bool> saveDuel(const StoredDuel& duel);
    common::Result<std::optional<StoredDuel>> loadDuel(const std::string& id);
    // At most `limit` finished tables whose public number is above `after`, oldest first (as
    // lascaGamesAfter); and one by its public number.
    common::Result<std::vector<NumberedDuel>> finishedDuelsAfter(std::int64_t after, int limit);
    common::Result<std::optional<StoredDuel>> duelByNumber(std::int64_t number);

    // The end of a rated table (store_ratings.cpp), in ONE transaction: its row and move rows
    // (as saveDuel), then both players' ratings in `category` read, `rate` asked for the new
    // ones, those written (games + 1, last game at duel.updated) with a history row each. Either
    // all of it is committed or nothing (an error of `rate` or of the database rolls all back).
    // Errors also: a duel that is not rated, not over, or without both accounts.
    common::Result<bool> finishRatedDuel(const StoredDuel& duel, const MoveRowsChange& moves,
                                         const std::string& category, const RateGame& rate);
    // The end of a rated Torneio table (store_ratings.cpp), in ONE transaction: its result and
    // record (as finishTorneioTable), then the Torneio ratings (kTorneioCategory) of the accounts
    // holding its seats read, `rate` asked for the new ones, those written (games + 1, last game
    // at `updated`) with a history row each. Either all of it is committed or nothing. Errors
    // also: no such table, a table that is not rated or not held by two different accounts at
    // least, an empty result.
    common::Result<bool> finishRatedTorneioTable(const std::string& id, const std::string& result,
                                                 const std::string& record, std::int64_t updated,
                                                 const RateTorneioTable& rate);
    // An account's ratings (by category), and its rating history (two-person tables' and Torneio
    // tables' together), oldest first.
    common::Result<std::vector<StoredRating>> ratingsOf(std::int64_t accountId);
    common::Result<std::vector<RatingPoint>> ratingHistory(std::int64_t accountId);
    // The finished Torneio tables an account held a seat of, newest first, at most `limit`
    // (their seats and result; neither their decisions nor their record are read).
    common::Result<std::vector<NumberedTorneioTable>> finishedTorneioTablesOf(
        std::int64_t accountId, int limit);
    // The tables an account held a seat of, numbered below `before` (0: from the newest), newest
    // (highest number) first, at most `limit`, with their moves: the finished ones only, or the
    // running ones too (`running`). The number of the last is the next page's `before`.
    common::Result<std::vector<NumberedDuel>> duelsOf(std::int64_t accountId, std::int64_t before,
                                                      int limit, bool running);
    // The running public tables (publicWatch set: made in the lobby), the most recently changed
    // first, at most `limit`; without their moves.
    common::Result<std::vector<NumberedDuel>> publicRunningDuels(int limit);

    // The most recently changed games of both kinds, newest first, at most `limit`.
    common::Result<std::vector<GameSummary>> recentGames(int limit);

    // Accounts and their sessions (store_accounts.cpp). Each call is one transaction.
    // A new account; nothing when an account (not deleted) already has its name key. Its id
    // and created are those given back.
    common::Result<std::optional<StoredAccount>> createAccount(const std::string& name,
                                                               const std::string& nameKey,
                                                               const std::string& passwordHash,
                                                               std::int64_t created);
    // The account with this name key (never a deleted one); nothing when there is none.
    common::Result<std::optional<StoredAccount>> findAccount(const std::string& nameKey);
    // A new password hash for an account, and every session of it deleted except the one kept
    // as `keepTokenHash` (the browser that changed it), together. False: no such account.
    common::Result<bool> setPassword(std::int64_t accountId, const std::string& passwordHash,
                                     const std::string& keepTokenHash);
    // Deletes an account: its sessions go, its name is replaced and freed. False: no such
    // (living) account.
    common::Result<bool> deleteAccount(std::int64_t accountId);
    // An account's language ("" for none; the caller checks it is one the pages speak). False:
    // no such (living) account.
    common::Result<bool> setAccountLanguage(std::int64_t accountId, const std::string& lang);
    // The ids of the lessons an account completed on /learn, in the order written (none: empty).
    // setLearnProgress replaces them (the caller checks them: the store keeps them as given,
    // which must not hold a comma). False: no such (living) account.
    common::Result<std::vector<std::string>> learnProgress(std::int64_t accountId);
    common::Result<bool> setLearnProgress(std::int64_t accountId,
                                          const std::vector<std::string>& lessons);
    // A new session (sessions expired by session.created are deleted with it).
    common::Result<bool> createSession(const StoredSession& session);
    // The account a session belongs to, when the session exists, has not expired at `now`
    // (milliseconds since the epoch) and its account is not deleted; else nothing.
    common::Result<std::optional<StoredAccount>> findSession(const std::string& tokenHash,
                                                             std::int64_t now);
    // Deletes a session (none with that hash: nothing happens).
    common::Result<bool> deleteSession(const std::string& tokenHash);

    // The lobby, shared by every instance on the database (web/server/lobby_room.h): its open
    // offers (seeks, Torneio offers and their sitters, challenges), who has a tab open, and the
    // public games listed to watch. addSeek refuses an id already kept; seek reads one offer
    // with its sitters; takeSeek removes an offer with its sitters and returns it (of two that
    // take the same offer at once, one gets it: the one whose DELETE removed the row);
    // clearSeeks empties what this instance's tabs had in the lobby (the server starts: no tab
    // of it is left). sitDown seats a person at Torneio offer `id` in the next place while
    // fewer than `people` sit, in one transaction, and returns the place and how many sit now
    // (place 0: the offer is gone or full); standUp removes this instance's tab `tab` from it.
    // dropLostLobbies removes what the tabs of instances that stopped renewing had in the lobby
    // (homes on; true when anything went).
    common::Result<bool> addSeek(const StoredSeek& seek);
    common::Result<std::optional<StoredSeek>> seek(const std::string& id);
    common::Result<std::optional<StoredSeek>> takeSeek(const std::string& id);
    common::Result<std::vector<StoredSeek>> seeks();
    common::Result<bool> clearSeeks();
    common::Result<SatDown> sitDown(const std::string& id, const StoredSitter& sitter, int people);
    common::Result<bool> standUp(const std::string& id, std::int64_t tab);
    common::Result<bool> dropLostLobbies();
    // A signed-in person's lobby tab opened (enterLobby) or closed (leaveLobby) on this
    // instance; lobbyPerson finds a person with a tab open anywhere by the key of the name
    // (web::accounts::nameKey), inLobby whether an account has one.
    common::Result<bool> enterLobby(std::int64_t tab, std::int64_t account, const std::string& name,
                                    const std::string& nameKey);
    common::Result<bool> leaveLobby(std::int64_t tab);
    common::Result<std::optional<LobbyPerson>> lobbyPerson(const std::string& nameKey);
    common::Result<bool> inLobby(std::int64_t account);
    // Keeps `mine`, this instance's count of lobby tabs, and returns every living instance's
    // together (homes off: `mine`).
    common::Result<std::int64_t> countLobby(std::int64_t mine);
    // The public games listed to watch: addLobbyGame lists one while fewer than `most` are
    // (false: the list is full), removeLobbyGame says whether it was listed.
    common::Result<bool> addLobbyGame(const StoredLobbyGame& game, std::size_t most);
    common::Result<bool> removeLobbyGame(const std::string& table);
    common::Result<std::optional<StoredLobbyGame>> lobbyGame(const std::string& table);
    common::Result<std::vector<StoredLobbyGame>> lobbyGames();

    // Homes (several servers on one PostgreSQL database; docs/design.md "Spreading the server").
    // setHome names this instance (before any other call; "" leaves homes off, as for one
    // server): from then on every table lives on one instance at a time under a lease in table
    // table_homes (id, home, lease number), which the home keeps alive by renewing its row of
    // table instances every few seconds (renewHome). takeTable makes the table this instance's
    // when nobody holds it, when it is held here already, or when its home stopped renewing
    // for `ttlMs` (the lease's number goes up by one); else it names the living home. A key
    // whose table the database does not hold is taken by nobody (found false, no row made), so
    // that a room takes a table first and then reads it once, under the lease. Every
    // write of a table (a game's save, a table's row, a Torneio decision or end) checks, inside
    // its transaction, that the table's lease is still the one this instance took (a new table
    // is made this instance's by its first write): a write after the lease moved on is
    // refused, counted (staleWrites) and written nowhere, so an instance that comes back late
    // writes nothing over the new home. renewHome also returns the tables found moved away
    // since the last call (a write refused, or, after a renewal came later than the lease's
    // life, each held table checked), for the server to let go of them.
    void setHome(const std::string& name, std::int64_t ttlMs);
    const std::string& homeName() const { return home_; }
    common::Result<TableHome> takeTable(const std::string& key);
    common::Result<std::vector<std::string>> renewHome();
    bool holds(const std::string& key) const;
    // Sends `message` (at most 1000 bytes) to every Bus listening on `channel` (bus.h): on
    // PostgreSQL at once (pg_notify, outside any transaction); on SQLite nothing.
    common::Result<bool> notify(const std::string& channel, const std::string& message);
    // The living instance other than this one that holds table `key`, if there is one (a read:
    // nothing is taken).
    common::Result<std::optional<std::string>> whereIs(const std::string& key);
    HomeStats homeStats() const;

    // The back end, the schema version of the open database, and the database's own check of
    // it ("ok" when sound; on PostgreSQL, that no index is left invalid).
    Backend backend() const;
    // Where the database is, as open() was given it (for a Bus on the same database).
    const std::string& location() const { return location_; }
    int schemaVersion() const;
    common::Result<std::string> integrityCheck();
    // One round trip to the database (SELECT 1), as a health check asks: an error when the
    // database does not answer (a lost PostgreSQL link is opened again first, as for any call).
    common::Result<bool> ping();

  private:
    explicit Store(std::unique_ptr<Connection> db);
    // The readers behind the public calls (the lock held; DbError on failure).
    std::optional<StoredLascaGame> readLascaGame(const std::string& id);
    // withPlay: the decisions and the record read too.
    std::optional<StoredTorneioTable> readTorneioTable(const std::string& id, bool withPlay = true);
    // Inside a write's transaction: refuses (DbError Moved) a write of table `key` whose lease
    // moved on; a table nobody holds yet becomes this instance's. Nothing with homes off.
    void guardHome(const std::string& key);
    std::unique_ptr<Connection> db_;
    std::string location_;
    mutable std::mutex mutex_;
    // Homes: this instance's name, its leases' life, the lease number of each table it holds,
    // the tables found moved away since renewHome last returned them, and the counts.
    std::string home_;
    std::int64_t ttlMs_ = 0;
    std::map<std::string, std::int64_t> held_;
    std::vector<std::string> movedAway_;
    std::int64_t takeovers_ = 0;
    std::int64_t staleWrites_ = 0;
    std::int64_t renewals_ = 0;
    std::chrono::steady_clock::time_point lastRenewal_{};
};

}  // namespace web::store
