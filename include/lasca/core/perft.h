// perft: counts the leaf move paths of the legal move tree, the reference check of the move
// generator against the table in lasca-rules.md.
#pragma once

#include <cstdint>
#include <vector>

#include "lasca/core/move.h"
#include "lasca/core/position.h"

namespace lasca {

// Number of move paths of length `depth` from pos (1 for depth 0). The last four plies are
// counted without making moves, the last one for many positions at once (PerftTally). pos is
// restored before returning.
std::uint64_t perft(Position& pos, int depth);

// perft split by first move, in generation order: the `divide` lines.
struct DivideLine {
    Move move;
    std::uint64_t nodes;
};
std::vector<DivideLine> divide(Position& pos, int depth);

inline constexpr int kMaxPerftDepth = 64;

}  // namespace lasca
