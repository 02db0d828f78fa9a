// Move notation (see lasca-rules.md, "Notation"): `c3-d4`, `d2xb4xd6`; readers also take
// `c3d4`, `d2b4d6` and a trailing `*`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "lasca/core/move.h"
#include "lasca/core/position.h"

namespace lasca {

std::string formatMove(const Move& m);  // `c3-d4` or `d2xb4xd6`; "0000" for the null move

// Reads a move and finds it among the legal moves of pos. Errors name what is wrong: an
// unreadable token, a bad square name, or a well-formed move that is not legal here.
common::Result<Move> parseMove(const Position& pos, std::string_view text);

// The squares of a move as written (start first, then every landing square), read without a
// position and so without checking legality: for drawing a move that led to a position.
common::Result<std::vector<Square>> moveSquares(std::string_view text);

// The move a text names, read without a position ("c3-d4", "e5xc3", "d2xb4xd6", "c3d4"): its
// shape, a step to a diagonal neighbour or one or more jumps of two squares along a diagonal
// (R4, R5), the jumped squares being between its squares. Legality is not checked. An error
// when the squares make no such shape, or when the text's '-' or 'x' says otherwise.
common::Result<Move> moveShape(std::string_view text);

// The board as text, White at the bottom: a row per rank (7 at the top), each playable square
// shown by its column's top piece (w b soldiers, W B officers) followed by the column's height
// when it holds more than one piece ("w3", "B12"), "." when empty; under it the files and the
// side to move ("white to move"). Each square takes three characters and a space.
std::string boardText(const Position& pos);

}  // namespace lasca
