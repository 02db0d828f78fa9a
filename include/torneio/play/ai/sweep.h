// The hunt's planned sweep (ai.h HuntWeights::planHorizon): a turn action is also worth the
// king mass it finds now plus what a simple sweep of the own warriors (each turn, the probe or
// the step onto the most mass) finds in the next planHorizon turns, on the opponents' king
// fields diffused by each opponent's turn (Belief::kingStepChance). huntScores (ai.h) adds it,
// weighed by HuntWeights::planWeight, to a turn's score.
#pragma once

#include <array>
#include <vector>

#include "torneio/play/ai/ai.h"
#include "torneio/rules/action.h"
#include "torneio/rules/geometry.h"

namespace torneio::play {

// Sweep: the state the planner rolls forward: the own warriors' squares (by piece index;
// kNoSquare when dead), the own king's (it blocks warrior steps, G5), and per opponent the
// king mass not yet found (a field that starts at the belief's and loses what each probe finds).
struct Sweep {
    std::array<Square, kPiecesPerSeat> pieces{};
    std::vector<std::vector<double>> fields;
};

// The sweep from the own pieces and the map's king fields (BeliefMap::kingFields).
Sweep sweepStart(const OwnPieces& own, const BeliefMap& map);

// A turn action's planned value from `start`: the mass its probe finds now plus what the sweep
// finds after it (a king step: the sweep from the unchanged warriors).
double planTurnAction(const Geometry& g, const BeliefMap& map, const HuntWeights& weights,
                      const Sweep& start, const Action& a);

}  // namespace torneio::play
