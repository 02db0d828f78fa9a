// perft: counts the leaf move paths of the legal move tree, the reference check of the move
// generator against the table in lasca-rules.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
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

// Number of two-move paths (perft to depth 2): the sum of countMoves over the positions after
// each legal move, computed from bitboards without making the moves.
std::uint64_t countMovePairs(const Position& pos);

// Number of three-move paths (perft to depth 3), also without making any move.
std::uint64_t countMoveTriples(const Position& pos);

// Number of four-move paths (perft to depth 4), also without making any move.
std::uint64_t countMoveQuadruples(const Position& pos);

// PerftTally: the leaves of many perft subtrees, counted together. Moves are made and unmade
// down to four plies above the leaves; below, nothing is made, and the positions one ply above
// the leaves are not counted one by one: they wait in batches (one per side to move) and are
// counted many at a time by a SIMD loop, so batches filled across many subtrees waste no lanes.
// total() counts what still waits.
class PerftTally {
  public:
    PerftTally();
    ~PerftTally();
    PerftTally(const PerftTally&) = delete;
    PerftTally& operator=(const PerftTally&) = delete;

    // Adds perft(pos, plies): the number of move paths of length `plies` from pos (1 when
    // plies <= 0).
    void add(const Position& pos, int plies);
    // Everything added so far.
    std::uint64_t total();

  private:
    void addAfterEachMove(Position& pos, int plies);  // plies > 4: make/unmake one ply

    struct Batches;
    std::unique_ptr<Batches> batches_;
    std::uint64_t counted_ = 0;  // the paths counted directly (plies == 1)
};

// The leaf batches' SIMD path, chosen at run time like the network's (nnue.h): "avx512" (with
// VPOPCNTDQ), "avx2" or "plain". perftSimdName(): the path in use (the best this CPU runs,
// unless usePerftSimd chose another). supportedPerftSimd(): the paths this CPU runs, the best
// first. usePerftSimd(name): use that path from now on, if this CPU runs it (false otherwise,
// and nothing changes). Every path counts the same.
const char* perftSimdName();
std::vector<std::string> supportedPerftSimd();
bool usePerftSimd(std::string_view name);

}  // namespace lasca
