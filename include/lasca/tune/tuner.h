// The evaluation tuner: labelled positions from the engine's own games, and a
// Texel-style logistic fit of the evaluation weights to the games' results.
//
// Pipeline (scripts/tune.sh runs it end to end):
//   1. lasca-match plays fast self-play games and writes them as PDN;
//   2. extractPositions replays each finished game and keeps its quiet positions (the side to
//      move has no capture, so the static evaluation is meaningful), labelled with the
//      game's result from White's point of view;
//   3. fitWeights finds the weights minimising the mean squared error between the result and
//      sigmoid(K * eval / 400), eval being the linear evaluation of eval.h from White's point
//      of view and K the scale that fits the starting weights best;
//   4. weightsSource writes the weights as src/lasca/eval/eval_weights.inc, which the engine
//   compiles in.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "lasca/core/pdn.h"
#include "lasca/eval/eval.h"

namespace lasca::tune {

// LabelledPosition: one quiet position and its game's result for White (1, 0.5 or 0).
struct LabelledPosition {
    std::string lfen;
    double result = 0.5;
};

struct ExtractOptions {
    int skipPlies = 0;  // positions before this ply of a game are not kept (openings)
};

// Quiet positions of every finished game ("2-0", "0-2", "1-1"); unfinished games ("*"),
// repeats of a game already read (same FEN and moves) and positions after the game's end are
// skipped. Errors name the game that does not replay.
common::Result<std::vector<LabelledPosition>> extractPositions(const std::vector<PdnGame>& games,
                                                               const ExtractOptions& options);

// A game's result for White as the data files write it: "1", "0.5" or "0" (shared with the
// learned evaluation's data, datagen.h); parseResultLabel reads it back (nothing for any other
// text).
const char* resultLabel(double result);
std::optional<double> parseResultLabel(std::string_view label);

// Text form, one position per line: "<result> <LFEN>" (result 1, 0.5 or 0).
std::string formatPosition(const LabelledPosition& p);
common::Result<LabelledPosition> parsePosition(std::string_view line);

// Sample: a position reduced to what the linear evaluation reads.
//   diff    White's count minus Black's count per feature (the tempo: +1 White to move, -1 Black)
//   phase   0..kPhaseMax
//   result  the label
// 48 bytes.
struct Sample {
    std::array<std::int16_t, eval::kFeatureCount> diff{};
    std::int16_t phase = 0;
    float result = 0.5f;
};
Sample toSample(const Position& pos, double result);

// Real-valued weights during the fit: [feature][0 = middlegame, 1 = endgame].
using RealWeights = std::array<std::array<double, 2>, eval::kFeatureCount>;
RealWeights toReal(const eval::EvalWeights& w);
eval::EvalWeights rounded(const RealWeights& w);

// The linear evaluation of a sample from White's point of view, with real weights (no
// rounding of the blended weight).
double whiteScore(const Sample& s, const RealWeights& w);

// Mean squared error of sigmoid(K * score / 400) against the results.
double meanError(const std::vector<Sample>& samples, const RealWeights& w, double k);

// The K in [0.05, 5] that minimises meanError for the given weights.
double fitScale(const std::vector<Sample>& samples, const RealWeights& w);

struct FitOptions {
    int epochs = 2000;
    double learningRate = 1.0;  // Adam step size, in centi-soldiers
    // Features whose weights stay as given (for example to keep a term switched off).
    std::vector<eval::EvalFeature> frozen;
};

struct FitReport {
    double k = 0;
    double startError = 0;
    double endError = 0;
    int epochs = 0;
};

// Adam on the full batch, K fixed. `progress` (optional) is called every 100 epochs with the
// epoch and the current error.
RealWeights fitWeights(const std::vector<Sample>& samples, RealWeights start, double k,
                       const FitOptions& options, FitReport& report,
                       const std::function<void(int, double)>& progress = {});

// The source of src/lasca/eval/eval_weights.inc: a comment block (`header`, one line per entry),
// then one
// "{mg, eg},  // <feature name>" line per feature in EvalFeature order.
std::string weightsSource(const eval::EvalWeights& w, const std::vector<std::string>& header);

}  // namespace lasca::tune
