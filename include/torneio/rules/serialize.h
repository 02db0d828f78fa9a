// One game's State as text and back (OpenSpiel's Serialize / DeserializeState; the Python
// module's serialize(), deserialize() and pickling):
//   torneio-state 2
//   params <params text>
//   start <turn seat> <round> <seat 1's pieces> / <seat 2's pieces> ...   (fromPosition games)
//   actions <number> <number> ...
// Pieces of a seat: "<king square or -> <square or ->:<strength> x3" ("-": dead). The actions
// are action_index.h numbers (a set-up as its six steps, a set-up in progress as the steps taken
// so far), replayed through the rules on reading, so a serialized game is checked as it is read:
// what comes back is the state that was written, events and history included. Version 1 (a
// set-up as one number) is refused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "torneio/rules/state.h"
#include "torneio/rules/step_state.h"

namespace torneio {

// The longest serialized state read: the header, params, a start line and the numbers of the
// longest game (a few bytes each).
inline constexpr std::size_t kMaxSerializedLength = 16u << 20;

// The text above; an error as historyNumbers (step_state.h).
common::Result<std::string> serializeState(const StepState& state);
common::Result<std::string> serializeState(const State& state);

// The state serializeState wrote, replayed through the rules; an error naming the first thing
// wrong (the layout, the params, the start line, or the action that cannot be applied).
common::Result<StepState> deserializeState(std::string_view text);

}  // namespace torneio
