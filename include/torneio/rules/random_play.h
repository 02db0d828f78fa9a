// Random play: uniformly random legal decisions through the rules core, for tests, the
// benchmark and as the weakest reference player.
#pragma once

#include <cstdint>

#include "common/random.h"
#include "torneio/rules/action.h"
#include "torneio/rules/params.h"
#include "torneio/rules/state.h"

namespace torneio {

// A uniformly random legal reply to the state's pending request, drawn from what the deciding
// seat knows (the request and its own pieces). The state must not be over.
Action randomAction(const State& state, common::Random& random);

// A whole game between random players: random set-ups, then random decisions to the end.
// One common::Random seeded with `seed` draws every choice, so the same (params, seed) gives
// the same game. params must be valid (validateParams).
State playRandomGame(const Params& params, std::uint64_t seed);

}  // namespace torneio
