#include "torneio/rules/random_play.h"

namespace torneio {

Action randomAction(const State& state, common::Random& random) {
    const Request& request = state.request();
    return randomAction(request, state.pieces(request.seat), state.geometry(), random);
}

State playRandomGame(const Params& params, std::uint64_t seed) {
    State state = State::create(params).value();
    common::Random random(seed);
    while (!state.over()) {
        const int seat = state.toDecide();
        const auto applied = state.apply(seat, randomAction(state, random));
        if (!applied) break;  // not reached: random actions are legal
    }
    return state;
}

}  // namespace torneio
