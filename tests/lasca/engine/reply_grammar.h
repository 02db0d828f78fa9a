// The reply grammar of protocol.md ("Replies"), written once as regular expressions: every line
// the engine writes must match one of these forms.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lasca::test {

// One move as the engine writes it: a step `c3-d4` or a capture `d2xb4xd6` (1..13 jumps) on
// the 25 playable squares.
extern const char* const kMovePattern;

// The name of the reply form `line` matches ("info search", "bestmove", ...), or nothing when
// it matches none (or holds a byte that is not printable ASCII).
std::optional<std::string> replyForm(std::string_view line);

// The lines that match no reply form.
std::vector<std::string> nonConformingLines(const std::vector<std::string>& lines);

}  // namespace lasca::test
