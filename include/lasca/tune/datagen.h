// Training data for the learned evaluation (docs/nnue.md): self-play games of the
// engine's own search at a fixed node count, opened by a few uniformly random moves, whose quiet
// positions are labelled with the search score and the game's result.
//
// Games are numbered over the whole run (0..games-1) whatever the shard and the number of
// threads: game g opens with the random moves of common::Random(mixSeed(seed, g)) and is then
// searched with one thread, a node limit and a hash cleared before the game, so it is the same
// game on every run and machine. A shard plays the games g with shard.holds(g); the union of
// the shards' outputs, read in game order, is the unsharded run's output.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "common/shard.h"
#include "lasca/core/game.h"
#include "lasca/eval/nnue.h"
#include "lasca/search/search.h"
#include "lasca/search/tt.h"

namespace lasca::tune {

// DatagenOptions: which games to play and how.
//   games        games of the whole run, numbered 0..games-1 over every shard
//   seed         game g's opening moves come from common::Random(mixSeed(seed, g))
//   nodes        node limit of each move's search (one search thread: reproducible)
//   randomPlies  uniformly random legal moves that open each game; their positions are not kept
//   randomMovePercent  after the opening, the share of moves (0..100, from the game's stream)
//                played as a uniformly random legal move instead of the search's: the position
//                is kept with the search's score, the games wander into positions a search
//                tree meets but good play avoids (the result then says less: docs/nnue.md)
//   maxPlies     a game still going after this many plies (the random ones included) is
//                adjudicated a draw
//   jobs         worker threads, each playing whole games with its own hash and search
//   hashMb       each worker's transposition table, cleared before each game
//   shard        this run plays only the games g with shard.holds(g)
//   rules        the draw rules (T1, T2) the games end by and the search scores with
//   network      the learned evaluation the search plays and scores with; null: the classic
//                evaluation (a round of data made by the network's own engine: docs/nnue.md)
struct DatagenOptions {
    int games = 100;
    std::uint64_t seed = 1;
    std::uint64_t nodes = 1000;
    int randomPlies = 8;
    int randomMovePercent = 0;
    int maxPlies = 300;
    int jobs = 1;
    std::size_t hashMb = 4;
    common::Shard shard;
    DrawRules rules;
    std::shared_ptr<const eval::nnue::Network> network;
};

// DataPosition: one kept position of a game: the side to move has no capture (as in
// extractPositions) and the search's score is not a mate score.
//   lfen    the position
//   score   the search's score from the side to move's point of view, centi-soldiers
struct DataPosition {
    std::string lfen;
    Score score = 0;
};

// DataGame: one played game.
//   index        the game's number in the whole run
//   result       from White's point of view: 1, 0.5 or 0
//   plies        moves played, random ones included
//   termination  how the rules ended it; None when it was adjudicated at maxPlies
//   nodes        searched over the whole game
//   positions    the kept positions, in the order they were reached
struct DataGame {
    int index = 0;
    double result = 0.5;
    int plies = 0;
    Termination termination = Termination::None;
    std::uint64_t nodes = 0;
    std::vector<DataPosition> positions;
};

// Plays game `index` with the caller's hash and search (both cleared first).
// The search settings of the data tools (datagen's games, relabelling): one thread, no move
// overhead, the tuned weights, `rules` and `network` (null: the classic evaluation).
search::SearchSettings dataSearchSettings(const DrawRules& rules,
                                          std::shared_ptr<const eval::nnue::Network> network);

DataGame playDataGame(int index, const DatagenOptions& options, search::TranspositionTable& tt,
                      search::Search& search);

// Plays the games of options.shard on options.jobs threads. `onGame` receives every game in index
// order, one call at a time (from a worker thread); when it returns false no further game starts or
// is delivered (games under way finish unseen). Errors: a hash size the machine cannot give.
// Returns the games delivered.
common::Result<int> generateData(const DatagenOptions& options,
                                 const std::function<bool(const DataGame&)>& onGame);

// DataLine: one line of the text data, "<result> <score> <LFEN>".
//   result  White's game result: 1, 0.5 or 0
//   score   the search score from the side to move's point of view, centi-soldiers
//   lfen    a legal position (Position::fromLfen accepts it)
struct DataLine {
    double result = 0.5;
    Score score = 0;
    std::string lfen;
};

// The lines of a game's kept positions, each ended by '\n'.
std::string formatDataGame(const DataGame& game);
std::string formatDataLine(const DataLine& line);
// Errors say which part of the line is wrong.
common::Result<DataLine> parseDataLine(std::string_view line);

}  // namespace lasca::tune
