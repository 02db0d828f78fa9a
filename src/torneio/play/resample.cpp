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
    if (state.over()) return common::makeError("the game is over: nothing to sample");
    if (seat < 0 || seat >= state.seats())
        return common::makeError("seat " + std::to_string(seat + 1) + " out of range");
    const Params& params = state.params();
    const Knowledge fresh =
        state.start()
            ? Knowledge(params, seat, state.start()->pieces[static_cast<std::size_t>(seat)])
            : Knowledge(params, seat);
    auto replay =
        replayBelief(fresh, visibleEvents(state, seat), particles, common::mixSeed(seed, 1));
    if (!replay) return common::makeError(replay.error());
    common::Random random(seed);
    std::string refused;
    for (int attempt = 0; attempt < kSampleAttempts; ++attempt) {
        const StartPosition start = replay.value().belief.sample(replay.value().knowledge, random);
        auto made = State::withHiddenPieces(state, seat, start);
        if (made) return made;
        refused = made.error();
    }
    return common::makeError("no sample of " + std::to_string(kSampleAttempts) +
                             " agrees with the game: " + refused);
}

common::Result<StepState> resampleFromInfostate(const StepState& state, int seat,
                                                std::uint64_t seed, int particles) {
    auto sample = resampleFromInfostate(state.state(), seat, seed, particles);
    if (!sample) return common::makeError(sample.error());
    StepState out(std::move(sample).value());
    const std::optional<SetUpSteps>& pending = state.pending();
    if (!pending) return out;
    common::Random random(common::mixSeed(seed, 2));
    std::vector<std::int64_t> legal;
    const std::vector<std::int64_t> own = takenSteps(*pending, state.geometry());
    for (int i = 0; i < pending->made; ++i) {
        std::int64_t number = own[static_cast<std::size_t>(i)];
        if (pending->seat != seat) {
            out.legalNumbers(legal);
            number = legal[random.index(legal.size())];
        }
        if (auto applied = out.applyNumber(number); !applied)
            return common::makeError(applied.error());
    }
    return out;
}

}  // namespace torneio::play
