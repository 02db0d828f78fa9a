// In-process games between Player objects, with the rules core as the referee: each seat gets
// exactly the events viewOf would show it (visibleEvents), through its own Knowledge, as the
// `torneio` program would receive them. For the AI's tests and its measuring tool, which also
// look at the true State between decisions (for scoring only; the players never see it).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "common/result.h"
#include "torneio/play/knowledge.h"
#include "torneio/play/player.h"
#include "torneio/rules/state.h"

namespace torneio::play {

// Called after every decision with the true state and every seat's knowledge.
using AfterDecision = std::function<void(const State&, std::span<const Knowledge>)>;

// Plays one game: players[s] plays seat s, seeded with mixSeed(seed, s). Returns the final
// state, or an error when a player returned an illegal action (the game stops there).
common::Result<State> playGame(const Params& params, std::span<Player* const> players,
                               std::uint64_t seed, const AfterDecision& after = {});

}  // namespace torneio::play
