#include "torneio/play/resample.h"

#include <string>
#include <utility>

#include "common/random.h"
#include "torneio/rules/view.h"

namespace torneio::play {

common::Result<BeliefReplay> replayBelief(const Knowledge& fresh, std::span<const Event> events,
                                          int particles, std::uint64_t seed) {
    if (particles < 1 || particles > kMaxSampleParticles)
        return common::makeError("particles must be in 1.." + std::to_string(kMaxSampleParticles) +
                                 ", got " + std::to_string(particles));
    BeliefReplay replay{fresh, Belief(fresh.geometry().params(), fresh.seat(), particles, seed)};
    for (const Event& e : events) {
        if (auto taken = replay.knowledge.update(e); !taken)
            return common::makeError(taken.error());
        replay.belief.observe(e, replay.knowledge);
    }
    return replay;
}

common::Result<State> sampleState(const Knowledge& knowledge, const Belief& belief,
                                  std::uint64_t seed) {
    if (knowledge.over()) return common::makeError("the game is over: nothing to sample");
    if (!knowledge.setUp())
        return common::makeError("the seat has not set up yet: nothing to sample");
    common::Random random(seed);
    const StartPosition start = belief.sample(knowledge, random);
    auto made = State::fromPosition(knowledge.geometry().params(), start);
    if (!made) return common::makeError("the sample is not a playable position: " + made.error());
    return std::move(made).value();
}

common::Result<State> resampleFromInfostate(const State& state, int seat, std::uint64_t seed,
                                            int particles) {
    const Params& params = state.params();
    const Knowledge fresh =
        state.start()
            ? Knowledge(params, seat, state.start()->pieces[static_cast<std::size_t>(seat)])
            : Knowledge(params, seat);
    auto replay =
        replayBelief(fresh, visibleEvents(state, seat), particles, common::mixSeed(seed, 1));
    if (!replay) return common::makeError(replay.error());
    return sampleState(replay.value().knowledge, replay.value().belief, seed);
}

}  // namespace torneio::play
