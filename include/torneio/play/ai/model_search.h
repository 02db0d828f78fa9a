// The model search (`Policy ismcts`): information-set Monte Carlo search at the root of a turn
// in which every opponent plays by the kind of player the belief infers it to be, and the own
// seat by the hunt on a belief it keeps up to date inside the simulation. It reads only the
// seat's Knowledge, its Belief and the hunt's BeliefMap: never the true state.
//
// One simulation of root action a (the n-th of that action):
//   Step 1  determinize: draw the n-th full position (Belief::sampleWithKingFilter, seeded by
//           the decision's seed and n alone, so that every root action meets the same
//           positions and opponent kinds: common random numbers): the own pieces exact, one
//           particle's warriors per opponent, its king from the king filter, and the mobility
//           hypothesis the king came from, which is the kind of player that opponent is in
//           this simulation (still, hunter, uniformly random mover, the heuristic's fleeing
//           king)
//   Step 2  apply a, then play on for `horizon` rounds:
//             the own seat's turns: the hunt (huntDecision) on a rollout map whose king
//             probabilities are the belief's king fields as the simulated events change them
//             (an opponent's move spreads its field by its king's step chance, a combat that
//             finds no king empties the square), the rest of the map as at the root;
//             an opponent's turns: its kind's policy (modelTurn) on the determinized pieces:
//             the random mover any legal action alike; a still or hunting king the hunt on
//             that opponent's belief about the own king (BeliefMap::seenKing, spread by the
//             own moves and emptied by combats likewise), its king stepping with its kind's
//             chance first; the fleeing king a combat call with its kind's share, a step away
//             from warriors near it, else a warrior step at random;
//             retreat orders, withdrawals and rewards: the rollout policy (rolloutAction)
//   Step 3  score: a finished game 1 for a win (a share for a draw), 0 for a loss; otherwise
//           the survivors' fair share, plus findWeight x the king mass the own warriors stand
//           on or next to, less exposureWeight x the own king's exposure
//           (BeliefMap::exposure); times discount per own turn played (a king found sooner
//           is worth more). With 2 seats and exactFind a root combat's immediate find is
//           counted exactly (the drawn hypothesis' mass on the square) and the simulation
//           plays the other cases.
// The root: with closeMargin > 0, the hunt's choice is played without a search when its second
// best candidate scores more than closeMargin below it (stats then say 0 simulations);
// otherwise UCB1 over the hunt's `candidates` best turn actions other than king steps (each
// tried once first, in the hunt's order); the decision is the best mean, the hunt's choice
// credited huntBias, ties to the hunt's order. When the hunt's choice is a king step it is
// played without a search: the simulated opponents' beliefs about the own king only spread
// with its moves, so the search cannot value hiding it (the hunt's exposure term does).
// Retreat orders, withdrawals and rewards are the hunt's.
//
// Limits: SearchLimits::simulations per decision (a fixed budget and seed give the same
// decision); moveTimeMs may stop earlier (then the decision depends on the machine).
#pragma once

#include <cstdint>

#include "torneio/play/ai/ai.h"

namespace torneio::play {

// The decision for `request` of the knowledge's seat (its set-up excepted). `map` is the
// hunt's map of the belief (with its exposure when the player keeps one).
Action modelSearchDecision(const Request& request, const Knowledge& knowledge, const Belief& belief,
                           const BeliefMap& map, const HuntWeights& hunt,
                           const ModelSearchWeights& weights, const SearchLimits& limits,
                           std::uint64_t seed, SearchStats* stats = nullptr);

}  // namespace torneio::play
