#include "torneio/rules/step_state.h"

#include <algorithm>
#include <string>
#include <utility>

#include "torneio/rules/observation.h"

namespace torneio {

using common::makeError;

common::Result<std::vector<std::int64_t>> historyNumbers(const State& state) {
    if (state.sampledFor() >= 0)
        return makeError(
            "a resampled state holds the other seats' pieces as a sample, not as "
            "decisions: it has no history to number");
    return StepState(state).historyNumbers();
}

void StepState::legalNumbers(std::vector<std::int64_t>& out) const {
    out.clear();
    if (state_.over()) return;
    const Request& request = state_.request();
    if (request.kind == RequestKind::SetUp) {
        legalSetUpSteps(pending_.value_or(SetUpSteps{request.seat, 0, {}}), geometry(), out);
        return;
    }
    legalActionNumbers(request, state_.pieces(request.seat), geometry(), out);
}

common::Result<std::size_t> StepState::applyNumber(std::int64_t number) {
    if (state_.over()) return makeError("the game is over");
    const Request& request = state_.request();
    if (request.kind != RequestKind::SetUp) {
        auto action = actionOfNumber(request.seat, number, geometry());
        if (!action) return makeError(action.error());
        return state_.apply(request.seat, action.value());
    }
    SetUpSteps steps = pending_.value_or(SetUpSteps{request.seat, 0, {}});
    auto complete = applySetUpStep(steps, number, geometry());
    if (!complete) return makeError(complete.error());
    if (!complete.value()) {
        pending_ = steps;
        return state_.events().size();
    }
    auto applied = state_.apply(request.seat, setUpAction(steps.setUp));
    if (!applied) return makeError(applied.error());
    pending_.reset();
    return applied;
}

common::Result<std::size_t> StepState::applyAction(const Action& action) {
    if (state_.over()) return makeError("the game is over");
    if (pending_)
        return makeError(
            "a set-up is being placed step by step: take its next step ('place "
            "<square>' or 'strength <n>')");
    return state_.apply(state_.toDecide(), action);
}

common::Result<std::size_t> StepState::applyText(std::string_view text) {
    if (auto step = parseStep(text, geometry())) return applyNumber(step.value());
    auto action = parseAction(text, geometry());
    if (!action) return makeError(action.error());
    return applyAction(action.value());
}

common::Result<std::vector<NumberedAction>> StepState::fullHistory() const {
    if (state_.sampledFor() >= 0) return makeError(torneio::historyNumbers(state_).error());
    std::vector<NumberedAction> out;
    out.reserve(state_.history().size() + kSetUpSteps * static_cast<std::size_t>(state_.seats()));
    for (const Decision& d : state_.history()) {
        if (d.action.kind == ActionKind::SetUp) {
            auto steps = setUpStepNumbers(d.action.setUp, geometry());
            if (!steps) return makeError(steps.error());
            for (std::int64_t n : steps.value()) out.push_back({d.seat, n});
            continue;
        }
        auto number = actionNumber(d.seat, d.action, geometry());
        if (!number) return makeError(number.error());
        out.push_back({d.seat, number.value()});
    }
    if (!pending_) return out;
    for (std::int64_t n : takenSteps(*pending_, geometry())) out.push_back({pending_->seat, n});
    return out;
}

common::Result<std::vector<std::int64_t>> StepState::historyNumbers() const {
    auto full = fullHistory();
    if (!full) return makeError(full.error());
    std::vector<std::int64_t> out;
    out.reserve(full.value().size());
    for (const NumberedAction& a : full.value()) out.push_back(a.number);
    return out;
}

common::Result<std::string> StepState::numberText(int seat, std::int64_t number) const {
    if (seat < 0 || seat >= state_.seats())
        return makeError("seat " + std::to_string(seat + 1) + " out of range");
    if (isSetUpStep(number, geometry())) return stepText(number, geometry());
    auto action = actionOfNumber(seat, number, geometry());
    if (!action) return makeError(action.error());
    return formatAction(action.value(), geometry());
}

common::Result<std::int64_t> StepState::textNumber(int seat, std::string_view text) const {
    if (seat < 0 || seat >= state_.seats())
        return makeError("seat " + std::to_string(seat + 1) + " out of range");
    if (auto step = parseStep(text, geometry())) return step.value();
    auto action = parseAction(text, geometry());
    if (!action) return makeError(action.error());
    return actionNumber(seat, action.value(), geometry());
}

View StepState::view(int seat) const {
    View view = viewOf(state_, seat);
    if (pending_ && pending_->seat == seat) {
        const SetUp& s = pending_->setUp;
        const int made = pending_->made;
        view.own = OwnPieces{};
        if (made > 0) view.own[kKing] = Piece{s.king, 0, true};
        for (int w = kFirstWarrior; w <= kWarriors; ++w) {
            const auto i = static_cast<std::size_t>(w - 1);
            if (2 * w - 1 < made)
                view.own[w] = Piece{s.warriors[i], 2 * w < made ? s.strengths[i] : 0, true};
        }
    }
    return view;
}

std::vector<std::string> StepState::viewText(int seat, std::size_t since) const {
    View seen = viewOf(state_, seat);
    if (since > 0) seen.events = visibleEvents(state_, seat, since);
    std::vector<std::string> lines = viewLines(seen, geometry());
    if (pending_ && pending_->seat == seat) {
        const std::string placing = "placing " + stepsText(*pending_, geometry());
        // Before the request line, which is last when the seat is to decide.
        lines.insert(lines.empty() ? lines.end() : lines.end() - 1, placing);
    }
    return lines;
}

std::vector<double> StepState::observation(int seat) const {
    return observationTensor(view(seat), geometry());
}

common::Result<StepState> replayNumbers(State start, std::span<const std::int64_t> numbers) {
    StepState state(std::move(start));
    for (std::size_t i = 0; i < numbers.size(); ++i) {
        const std::string which = "action " + std::to_string(i + 1);
        if (state.over()) return makeError(which + " after the end of the game");
        if (auto applied = state.applyNumber(numbers[i]); !applied)
            return makeError(which + ": " + applied.error());
    }
    return state;
}

}  // namespace torneio
