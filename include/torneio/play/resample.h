// Whole states consistent with one seat's information (OpenSpiel's ResampleFromInfostate): the
// seat's own pieces exactly, every public fact it has seen, the other seats' pieces drawn from
// the AI's Belief (ai/belief.h) fed with the seat's events. A search over hidden information
// (ISMCTS) or a learning program plays its determinizations from such states.
// A sampled state starts at the turn of the seat whose turn it is (State::fromPosition): a
// combat being resolved is not part of it, its pending decisions start afresh from that turn.
#pragma once

#include <cstdint>
#include <span>

#include "common/result.h"
#include "torneio/play/ai/belief.h"
#include "torneio/play/knowledge.h"
#include "torneio/rules/event.h"
#include "torneio/rules/state.h"

namespace torneio::play {

// The particles per opponent a resampler's Belief may have.
inline constexpr int kMaxSampleParticles = 1 << 16;

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

// A whole state consistent with what `seat` (0-based) of `state` has seen: its Belief of
// `particles` particles fed with its visible events (seeded mixSeed(seed, 1)), then sampled
// with `seed`. The same state, seat and seed give the same sample; two states the seat cannot
// tell apart give the same sample. Errors as replayBelief and sampleState.
common::Result<State> resampleFromInfostate(const State& state, int seat, std::uint64_t seed,
                                            int particles = kDefaultParticles);

}  // namespace torneio::play
