// A Torneio match: N players (2-4, one seat each) play a number of games with the seats rotated
// from game to game, several games at once, every game recorded in a folder; statistics per
// player (win rate with a 95% interval). The worker pool, the resume rule and the shard rule are
// the shared ones of common/ (jobs.h, shard.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/jobs.h"
#include "common/shard.h"
#include "common/stats.h"
#include "torneio/referee/game.h"

namespace torneio::referee {

// MatchConfig: everything a match needs.
//   players      players[i] is player i; params.seats == players.size()
//   games        games of the whole (unsharded) match
//   seed         the match's seed: game g has seed gameSeed(seed, g); drawn from the operating
//                system unless the operator gives one (torneio-referee --seed)
//   concurrency  games played at once (one worker thread each, with its own seats)
//   recordDir    the folder of the game records ("" = none): game-000001.jsonl, ... (recordPath)
//   logDir       the folder for the programs' stderr logs ("" = discarded)
//   shard        this run plays only the rotation cycles c with shard.holds(c)
struct MatchConfig {
    std::vector<SeatSpec> players;
    Params params;
    int games = 1;
    std::uint64_t seed = 1;
    int concurrency = 1;
    Limits limits;
    std::string recordDir;
    std::string logDir;
    common::Shard shard;
};

// GameSlot: one scheduled game.
//   index     0-based game number
//   cycle     index / seats: a cycle plays every rotation of the seats once, so each player
//             sits once at each seat (shards hold whole cycles)
//   playerAt  playerAt[s] is the player at seat s: (s + index) % seats
//   seed      gameSeed(match seed, index)
struct GameSlot {
    int index = 0;
    int cycle = 0;
    std::vector<int> playerAt;
    std::uint64_t seed = 0;
};

// The seed of game `index` of a match: common::deriveSeed(matchSeed, "torneio game", index),
// one-way like the seats' (record.h, seatSeed).
std::uint64_t gameSeed(std::uint64_t matchSeed, int index);

// The games of this shard, in index order; depends only on the arguments.
std::vector<GameSlot> schedule(int games, int seats, std::uint64_t seed,
                               const common::Shard& shard);

// GameSummary: what the statistics need of a finished game, from its record.
//   players  the players' names by seat; outcome the result; faults[s] the fault that put seat s
//            out, if any (from the record's "disqualified" events)
struct GameSummary {
    int index = 0;
    std::vector<std::string> players;
    Outcome outcome;
    std::vector<std::optional<Fault>> faults;
};
GameSummary summarize(int index, const Record& record);

// The score of seat s in a game: 1 for the winner (G12); 1/k for each of the k survivors of a
// draw (D11); 0 otherwise (eliminated, disqualified, or another seat won).
double seatScore(const GameSummary& game, int seat);

// PlayerTotals: one player's results over the games it played.
//   wins, draws, losses   by outcome: a draw is any D11 draw it survived
//   faults                games in which it was disqualified
//   points                the sum of its scores (seatScore); rate their mean with its 95%
//                         Wilson interval (common::wilson95; inside [0, 1])
struct PlayerTotals {
    std::string name;
    std::int64_t games = 0;
    std::int64_t wins = 0;
    std::int64_t draws = 0;
    std::int64_t losses = 0;
    std::int64_t faults = 0;
    double points = 0;
    common::Interval rate;
};

// Totals per player name, in the order of `names` (names met in the games but not listed are
// appended in the order they are met).
std::vector<PlayerTotals> tally(const std::vector<GameSummary>& games,
                                std::vector<std::string> names);

// The record file of game `index`: <dir>/game-<index + 1, 6 digits>.jsonl.
std::string recordPath(const std::string& dir, int index);

// RecordFolder: the records of a folder.
//   games    (index, record) sorted by index: the files recordPath names
//   skipped  the names of the other entries (sorted), e.g. a record written under another name
//            or a ".part" file left by an interrupted write
struct RecordFolder {
    std::vector<std::pair<int, Record>> games;
    std::vector<std::string> skipped;
};

// Every record of a folder. Errors name the first file that cannot be read.
common::Result<RecordFolder> readRecords(const std::string& dir);

// Called after each game (from a worker thread, one call at a time, after its record is
// written) with its summary and every game finished so far; false stops the match (games
// under way finish).
using GameCallback = common::RecordCallback<GameSummary>;

// Plays the schedule of `config` but the games in `done` (resumed); each record is written to
// recordDir as its game ends (whole or not at all: written under another name, then renamed),
// and each disqualification is logged with its detail. Returns every finished game, done
// included, sorted by index.
std::vector<GameSummary> runMatch(const MatchConfig& config, std::vector<GameSummary> done,
                                  const GameCallback& onGame);

}  // namespace torneio::referee
