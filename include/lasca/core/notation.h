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

}  // namespace lasca
