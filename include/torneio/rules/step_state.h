// StepState: one game's State with a set-up being placed step by step (action_index.h: the
// king's square, each warrior's square and strength), for programs that take one small decision
// at a time (OpenSpiel's shape, the Python module). The steps of a set-up are kept here until
// the last one, then the whole set-up is applied to the State as the referee's line would be; the
// rules stay the State's. Actions other than set-ups pass straight through.
//
// What a seat knows of its own set-up in progress is part of its information: viewOf and the
// observation tensor of StepState add it for the seat placing (and for no other seat).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "torneio/rules/action.h"
#include "torneio/rules/action_index.h"
#include "torneio/rules/state.h"
#include "torneio/rules/view.h"

namespace torneio {

// One decision as a number: the seat that took it and its action number.
struct NumberedAction {
    int seat = 0;
    std::int64_t number = 0;
    friend bool operator==(const NumberedAction&, const NumberedAction&) = default;
};

// StepState
//   state_    the rules' State (the set-ups already complete, the game after them)
//   pending_  the set-up being placed, by the seat the State asks to set up; empty when no step
//             has been taken yet (or the State does not ask for a set-up)
class StepState {
  public:
    explicit StepState(State state) : state_(std::move(state)) {}

    const State& state() const { return state_; }
    const Geometry& geometry() const { return state_.geometry(); }
    const std::optional<SetUpSteps>& pending() const { return pending_; }
    bool over() const { return state_.over(); }

    // Every legal action number of the seat to decide, ascending (none at the end): the next set-up
    // steps during a set-up, else legalActionNumbers. Clears `out` first.
    void legalNumbers(std::vector<std::int64_t>& out) const;
    // Applies an action number for the seat to decide; returns the index of the first event the
    // State logged for it (the State's event count for a step that completes nothing). An error
    // (nothing changed) when the game is over or the number is not legal now.
    common::Result<std::size_t> applyNumber(std::int64_t number);
    // Applies a whole action line's Action for the seat to decide (a set-up in one, as the
    // referee takes it); refused while a set-up is being placed step by step.
    common::Result<std::size_t> applyAction(const Action& action);
    // Reads `text` as a step ("place c1", "strength 4") or an action line and applies it.
    common::Result<std::size_t> applyText(std::string_view text);

    // Every decision as action numbers, a whole set-up as its six steps, then the steps of the
    // set-up in progress; an error for a State that has no history to number (a resampled
    // state, State::sampledFor). fullHistory names the seat of each.
    common::Result<std::vector<std::int64_t>> historyNumbers() const;
    common::Result<std::vector<NumberedAction>> fullHistory() const;
    // The text of an action number when `seat` decides: "place c1", "strength 4" or the action
    // line (formatAction); an error for a number out of range or a seat out of range.
    common::Result<std::string> numberText(int seat, std::int64_t number) const;
    // The number of an action text for `seat`: a step or a whole action that has a number.
    common::Result<std::int64_t> textNumber(int seat, std::string_view text) const;

    // What `seat` may know: viewOf(state, seat), its own pieces including those it has placed
    // of a set-up in progress.
    View view(int seat) const;
    // The view's lines (viewLines; the events from index `since` on), with a line
    // "placing <stepsText>" before the request when the seat is placing a set-up.
    std::vector<std::string> viewText(int seat, std::size_t since = 0) const;
    // The seat's observation tensor (observation.h) of view(seat).
    std::vector<double> observation(int seat) const;

  private:
    State state_;
    std::optional<SetUpSteps> pending_;
};

// Every decision of a State as action numbers, a whole set-up as its six steps; an error for a
// State that has no history to number (a resampled state, State::sampledFor).
common::Result<std::vector<std::int64_t>> historyNumbers(const State& state);

// A game replayed from `start` (a new game or a fromPosition one) through action numbers; an
// error naming the first number that cannot be applied.
common::Result<StepState> replayNumbers(State start, std::span<const std::int64_t> numbers);

}  // namespace torneio
