// Legal move generation (R4-R8): compulsory captures, multi-jumps, and the counting shortcuts
// perft uses at its last ply.
#pragma once

#include <cstdint>
#include <memory>

#include "lasca/core/move.h"
#include "lasca/core/position.h"

namespace lasca {

// All legal moves of the side to move: the captures if there is any (R6), else the steps.
void generateMoves(const Position& pos, MoveList& list);

// True when the side to move has a capture (and so only captures are legal).
bool hasCapture(const Position& pos);

// True when the side to move has at least one legal move (R9: no move = loss).
bool hasLegalMove(const Position& pos);

// Jump threats of colour `by` as if it were to move, for the evaluation (R5, R6: first jumps
// only, the rest of a capture is not followed).
//   jumpers  commanders of `by` with at least one jump
//   targets  columns of the opponent that one of them could jump
struct JumpThreats {
    Bitboard jumpers = 0;
    Bitboard targets = 0;
};
JumpThreats jumpThreats(const Position& pos, Color by);

// Number of steps colour `by` could make as if it were to move (R4), captures ignored.
int stepCount(const Position& pos, Color by);

// Number of legal moves, without building them: steps from bitboard shifts, captures by
// walking the jump tree. Equal to generateMoves(...).size().
std::uint64_t countMoves(const Position& pos);

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

}  // namespace lasca
