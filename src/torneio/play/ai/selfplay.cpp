#include "torneio/play/ai/selfplay.h"

#include <string>

#include "common/random.h"
#include "torneio/rules/view.h"

namespace torneio::play {

namespace {

// Feeds every seat the events from `from` on that it may see.
common::Result<bool> deliver(const State& state, std::size_t from, std::vector<Knowledge>& known,
                             std::span<Player* const> players) {
    for (std::size_t s = 0; s < known.size(); ++s) {
        for (const Event& e : visibleEvents(state, static_cast<int>(s), from)) {
            auto ok = known[s].update(e);
            if (!ok)
                return common::makeError("seat " + seatText(static_cast<int>(s)) + ": " +
                                         ok.error());
            players[s]->observe(e, known[s]);
        }
    }
    return true;
}

}  // namespace

common::Result<State> playGame(const Params& params, std::span<Player* const> players,
                               std::uint64_t seed, const AfterDecision& after) {
    auto created = State::create(params);
    if (!created) return created;
    State state = std::move(created).value();
    std::vector<Knowledge> known;
    for (int s = 0; s < params.seats; ++s) {
        known.emplace_back(params, s);
        players[static_cast<std::size_t>(s)]->newGame(
            known.back(), common::mixSeed(seed, static_cast<std::uint64_t>(s)));
    }
    std::size_t delivered = 0;
    while (!state.over()) {
        const int seat = state.toDecide();
        const auto s = static_cast<std::size_t>(seat);
        const Action action = players[s]->decide(state.request(), known[s]);
        auto applied = state.apply(seat, action);
        if (!applied) return common::makeError("seat " + seatText(seat) + ": " + applied.error());
        auto ok = deliver(state, delivered, known, players);
        if (!ok) return common::makeError(ok.error());
        delivered = state.events().size();
        if (after) after(state, known);
    }
    return state;
}

}  // namespace torneio::play
