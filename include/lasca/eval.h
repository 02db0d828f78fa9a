// Static evaluation: how good a quiet position is for the side to move, in centi-soldiers.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "lasca/position.h"

namespace lasca {

using Score = int;

// Score scale: a soldier commanding a single-piece column is worth about 100. Scores beyond
// kMateBound mean a forced win (R9) and encode the distance: kMate - plies to the win.
inline constexpr Score kMate = 30000;
inline constexpr Score kMaxPly = 128;
inline constexpr Score kMateBound = kMate - 2 * kMaxPly;
inline constexpr Score kInfinite = kMate + 1;
inline constexpr Score kDraw = 0;

// EvalTerm: one named term of the evaluation, per colour, before weighting by side to move.
//   white, black: each side's own total for the term (higher is better for that side)
struct EvalTerm {
    std::string name;
    Score white = 0;
    Score black = 0;
};

// The evaluation split into its terms, for the `eval` command; total is from the side to
// move's point of view and equals evaluate(pos).
struct EvalBreakdown {
    std::vector<EvalTerm> terms;
    Score total = 0;
};

Score evaluate(const Position& pos);
EvalBreakdown explainEvaluation(const Position& pos);

}  // namespace lasca
