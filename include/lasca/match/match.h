// A match between two engines: the deterministic schedule of games over the openings, the pool
// of worker threads that plays them, and the tally of results.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "common/jobs.h"
#include "common/shard.h"
#include "lasca/match/engine.h"
#include "lasca/match/referee.h"
#include "lasca/match/stats.h"

namespace lasca::match {

// A shard of a lasca-match run holds game pairs: it plays the pairs p with shard.holds(p).
using Shard = common::Shard;

// MatchConfig: everything a match needs.
//   engines      engines[0] is "the first engine": W/D/L, Elo and SPRT are from its side
//   openings     start LFENs; empty = the start position only. Game pair p uses opening
//                p % openings.size(); its game 2p has engines[0] as White, game 2p+1 as Black
//   games        total number of games of the whole (unsharded) match
//   concurrency  games played at once (one worker thread each, with its own engine processes)
//   logDir       directory for the engines' stderr logs ("" = discard)
struct MatchConfig {
    std::array<EngineSpec, 2> engines;
    Timeouts timeouts;
    GameSettings game;
    std::vector<std::string> openings;
    int games = 2;
    int concurrency = 1;
    std::string logDir;
    Shard shard;
};

// GameSlot: one scheduled game.
struct GameSlot {
    int index = 0;
    int pair = 0;
    int opening = 0;
    bool firstIsWhite = true;
};

// The games of this shard, in index order. Depends only on games, openingCount and shard.
std::vector<GameSlot> schedule(int games, std::size_t openingCount, const Shard& shard);

// MatchTotals: the tally of finished games from the first engine's side. Pentanomial counts
// only pairs whose two games are both finished.
struct MatchTotals {
    Wdl wdl;
    Pentanomial pentanomial;
};
MatchTotals tally(const std::vector<GameRecord>& records);
double firstEnginePoints(const GameRecord& record);  // 1, 0.5 or 0

// Called (from a worker thread, one call at a time) after each game with everything finished
// so far; return false to stop the match (games under way are finished, no new ones start).
using GameCallback = common::RecordCallback<GameRecord>;

// Plays the schedule. `done` holds games already played (resume): their indices are skipped.
// Returns every finished game (including `done`), sorted by index.
std::vector<GameRecord> runMatch(const MatchConfig& config, std::vector<GameRecord> done,
                                 const GameCallback& onGame);

}  // namespace lasca::match
