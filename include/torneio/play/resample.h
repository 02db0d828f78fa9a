// Whole states consistent with one seat's information (OpenSpiel's ResampleFromInfostate): the
// seat's own pieces exactly, every public fact it has seen, the other seats' pieces drawn from
// the AI's Belief (ai/belief.h) fed with the seat's events. A search over hidden information
// (ISMCTS) or a learning program plays its determinizations from such states.
// resampleFromInfostate keeps the seat's information state whole (State::withHiddenPieces): the
// same pending decision (a combat being resolved included), the same events seen, the same own
// decisions; only what the seat cannot see differs.
#pragma once

#include <cstdint>
#include <span>

#include "common/result.h"
#include "torneio/play/ai/belief.h"
#include "torneio/play/knowledge.h"
#include "torneio/rules/event.h"
#include "torneio/rules/state.h"
#include "torneio/rules/step_state.h"

namespace torneio::play {

// The particles per opponent a resampler's Belief may have.
inline constexpr int kMaxSampleParticles = 1 << 16;
// The draws resampleFromInfostate makes before it gives up (a draw can disagree with a combat
// being resolved when the Belief had to force its particles, belief.h).
inline constexpr int kSampleAttempts = 64;

// BeliefReplay: a seat's Knowledge and Belief, both fed with every event it has seen.
struct BeliefReplay {
    Knowledge knowledge;
    Belief belief;
};

// `fresh` (a Knowledge before any event: at a game's start or a start position) fed with
// `events`, and a Belief of `particles` particles seeded with `seed` beside it; an error for an
// event the knowledge refuses (knowledge.h) or particles outside 1..kMaxSampleParticles.
common::Result<BeliefReplay> replayBelief(const Knowledge& fresh, std::span<const Event> events,
                                          int particles, std::uint64_t seed);

// A whole state drawn from `belief` (Belief::sample with a stream seeded by `seed`) for the
// seat of `knowledge`; an error before the seat's set-up, after the end, or when the draw is no
// playable position.
common::Result<State> sampleState(const Knowledge& knowledge, const Belief& belief,
                                  std::uint64_t seed);

// A whole state `seat` (0-based) cannot tell from `state`: its Belief of `particles` particles
// fed with its visible events (seeded mixSeed(seed, 1)), sampled with `seed` until a draw agrees
// with the game (State::withHiddenPieces; at most kSampleAttempts). The same state, seat and
// seed give the same sample; two states the seat cannot tell apart give it the same view and
// the same hidden pieces. Works from the first decision on (the seats not yet set up stay so);
// errors as replayBelief, after the end, or when no draw agrees.
common::Result<State> resampleFromInfostate(const State& state, int seat, std::uint64_t seed,
                                            int particles = kDefaultParticles);

// The same for a game whose set-up may be in progress step by step (rules/step_state.h): the
// seat's own steps are kept; another seat's steps, hidden from it, are drawn again (as many,
// uniformly among the legal ones, from a stream seeded mixSeed(seed, 2)).
common::Result<StepState> resampleFromInfostate(const StepState& state, int seat,
                                                std::uint64_t seed,
                                                int particles = kDefaultParticles);

}  // namespace torneio::play
