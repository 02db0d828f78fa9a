// Relabelling training data (docs/nnue.md): the positions of datagen's text searched again with
// another budget (deeper labels), written in the same format with the new score.
//
// Every position is searched on its own: one thread, its worker's hash and histories cleared
// before it, no game history (the line holds none). Its new score therefore depends only on the
// line and the budget, not on the lines before it, the number of threads or the shard: any
// --jobs gives the same output, and the shards' outputs concatenated in shard order are the
// unsharded output.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include "common/result.h"
#include "common/shard.h"
#include "lasca/core/game.h"
#include "lasca/eval/nnue.h"
#include "lasca/search/search.h"
#include "lasca/search/tt.h"
#include "lasca/tune/datagen.h"

namespace lasca::tune {

// RelabelOptions: how each position is searched.
//   nodes, depth  the budget of each search (0: none; at least one is set)
//   jobs          worker threads, each with its own hash and search
//   hashMb        each worker's transposition table, cleared before every position
//   rules         the draw rules the search scores with
//   network       the learned evaluation the search scores with; null: the classic evaluation
struct RelabelOptions {
    std::uint64_t nodes = 0;
    int depth = 0;
    int jobs = 1;
    std::size_t hashMb = 2;
    DrawRules rules;
    std::shared_ptr<const eval::nnue::Network> network;
};

// LineRange: the lines [first, end) of a file (0-based).
struct LineRange {
    std::uint64_t first = 0;
    std::uint64_t end = 0;
};

// The lines shard `shard` relabels of a file of `lines` lines: shard i of n holds the i-th of n
// contiguous blocks, in order, whose sizes differ by at most one.
LineRange shardLines(std::uint64_t lines, common::Shard shard);

// The lines of a stream (a last line without '\n' counts); reads it to the end.
std::uint64_t countLines(std::istream& in);

// The search score of `pos` with the options' budget, from the side to move's point of view,
// after clearing `tt` and `search`; none when it is a mate score (as datagen drops those).
// `nodes`, if given, receives the nodes searched.
std::optional<Score> relabelScore(const Position& pos, const RelabelOptions& options,
                                  search::TranspositionTable& tt, search::Search& search,
                                  std::uint64_t* nodes = nullptr);

// RelabelTotals: what a run has done so far.
//   lines     lines of the range read (blank ones included)
//   written   lines written with their new score
//   mates     positions dropped because their new score is a mate score
//   bad       lines skipped because they are not datagen lines
//   nodes     searched in all
struct RelabelTotals {
    std::uint64_t lines = 0;
    std::uint64_t written = 0;
    std::uint64_t mates = 0;
    std::uint64_t bad = 0;
    std::uint64_t nodes = 0;
};

// Reads the lines `range` of `in` (datagen's "<result> <score> <LFEN>"; blank lines and a
// trailing '\r' are skipped) and writes each position with its new score and the same result to
// `out`, in the order read. A line that does not parse is skipped after `onBadLine(number,
// error)` (its 1-based line number in the whole file); the run goes on. `onProgress` (may be
// empty) is called after each block of lines written. Both are called on the caller's thread.
// Errors: a hash size the machine cannot give, a write error.
common::Result<RelabelTotals> relabelData(
    std::istream& in, std::ostream& out, const RelabelOptions& options, LineRange range,
    const std::function<void(std::uint64_t, const std::string&)>& onBadLine,
    const std::function<void(const RelabelTotals&)>& onProgress = {});

}  // namespace lasca::tune
