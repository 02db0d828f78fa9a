// Legal move generation (R4-R8): compulsory captures, multi-jumps, and the number of legal
// moves counted without building them. perft.h counts deeper.
#pragma once

#include <cstdint>

#include "lasca/core/move.h"
#include "lasca/core/position.h"

namespace lasca {

// All legal moves of the side to move: the captures if there is any (R6), else the steps.
void generateMoves(const Position& pos, MoveList& list);

// Whether a move of pos promotes its soldier: a soldier that ends the move on its colour's
// last rank becomes an officer (R8).
bool promotes(const Position& pos, const Move& move);

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

}  // namespace lasca
