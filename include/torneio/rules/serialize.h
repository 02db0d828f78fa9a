// One game's State as text and back (OpenSpiel's Serialize / DeserializeState; the Python
// module's serialize(), deserialize() and pickling):
//   torneio-state 1
//   params <params text>
//   start <turn seat> <round> <seat 1's pieces> / <seat 2's pieces> ...   (fromPosition games)
//   actions <number> <number> ...
// Pieces of a seat: "<king square or -> <square or ->:<strength> x3" ("-": dead). The actions
// are action_index.h numbers, replayed through the rules on reading, so a serialized game is
// checked as it is read: what comes back is the state that was written, events and history
// included.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "torneio/rules/state.h"

namespace torneio {

// The longest serialized state read: the header, params, a start line and the numbers of the
// longest game (a few bytes each).
inline constexpr std::size_t kMaxSerializedLength = 16u << 20;

// Every decision of the game as its action number (action_index.h), in order; an error when a
// decision has no number (never for a game the rules played).
common::Result<std::vector<std::int64_t>> historyNumbers(const State& state);

// The text above; an error as historyNumbers.
common::Result<std::string> serializeState(const State& state);

// The state serializeState wrote, replayed through the rules; an error naming the first thing
// wrong (the layout, the params, the start line, or the action that cannot be applied).
common::Result<State> deserializeState(std::string_view text);

}  // namespace torneio
