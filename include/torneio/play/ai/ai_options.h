// The `ai` player's options of the `torneio` program (protocol.md, "The Torneio player
// protocol"), declared once here and read by AiPlayer::configure:
//   Simulations  spin, default kDefaultSimulations: determinizations searched per decision by
//                the search policies (the default hunt policy does not search)
//   MoveTime     spin, default 0 (no limit): milliseconds per decision; stops the search early
//                (the decision then depends on the machine's speed)
//   Particles    spin, default kDefaultParticles: belief particles per opponent
//   SetUpPolicy  combo back|corner|spread|random|auto, default auto: the set-up policy (ai.h)
//   Policy       combo hunt|search|guided|ismcts, default hunt: how every other decision is
//                taken (ai.h DecisionPolicy: the hunt policy; or within Simulations / MoveTime
//                ISMCTS, the hunt improved by rollouts, or the model search of model_search.h)
//   KingPriorBack     spin 0..100, default kDefaultKingPriorBackPercent: percent of the king
//                     filter's prior on each opponent's back line (belief.h KingPrior)
//   KingPriorCorners  spin 0..100, default kDefaultKingPriorCornersPercent: percent on the two
//                     ends of that line (the rest of 100 uniform over the zone)
//   BeliefModel  combo facts|types, default types: what the belief's king filter reads of an
//                opponent (belief.h OpponentModel: `types` weighs its kinds of player by its
//                record of turns too)
//   HideWeight   spin 0..kMaxHideWeight, default kDefaultHideWeight: the own king's steps away
//                from where combats on it are expected (ai.h HuntWeights::hideWeight; 0: off)
//   HuntPlan     spin 0..kMaxHuntPlan, default kDefaultHuntPlan: turns the hunt's planned sweep
//                looks ahead (ai.h HuntWeights::planHorizon; 0: one turn, no plan)
//   RandomMoves  spin 0..100, default 0: percent of the decisions after the set-up taken
//                uniformly at random
//   Level        combo easy|normal|strong, default strong: the strengths offered to people
//                (kAiLevels: easy and normal set RandomMoves' percent; strong keeps RandomMoves)
#pragma once

#include "common/options.h"

namespace torneio::play {

inline constexpr int kDefaultSimulations = 300;
inline constexpr int kMaxSimulations = 10'000'000;
inline constexpr int kMaxMoveTimeMs = 3'600'000;
inline constexpr int kMinParticles = 8;
// The opponent model's set-up prior (docs/torneio-strength.md, seventh pass): percent.
inline constexpr int kDefaultKingPriorBackPercent = 40;
inline constexpr int kDefaultKingPriorCornersPercent = 30;
// The hunt's HuntWeights::hideWeight (docs/torneio-strength.md, eighth pass) and its option's
// range.
inline constexpr int kDefaultHideWeight = 3;
inline constexpr int kMaxHideWeight = 100;
// The hunt's planned sweep (HuntWeights::planHorizon, option HuntPlan): turns looked ahead.
inline constexpr int kDefaultHuntPlan = 0;
inline constexpr int kMaxHuntPlan = 64;
inline constexpr int kMaxParticles = 100'000;

// AiLevel: a strength offered to people (the web table's `ai` seats, `scripts/run.sh
// torneio-play --level`): the full player with `randomMoves` percent of its decisions after the
// set-up taken at random. `about` says what it costs and how strong it measured
// (docs/torneio-strength.md, eleventh pass: score against the heuristic player through
// torneio-referee, 2 seats, 1000 games).
struct AiLevel {
    const char* name;
    int randomMoves;
    const char* about;
};
inline constexpr AiLevel kAiLevels[] = {
    {"easy", 90,
     "9 decisions in 10 at random: about the heuristic player (0.47 against it); instant"},
    {"normal", 50, "half its decisions at random (0.85 against the heuristic player); instant"},
    {"strong", 0,
     "the full ai, belief hunt with an opponent model and a hiding king (0.98 against the "
     "heuristic player); under 1 ms a decision"},
};

void addAiOptions(common::Options& options);

}  // namespace torneio::play
