// The progress line the match runners write on stderr after each game, and the number formats
// of their reports. stdout is never touched here.
#pragma once

#include <cstddef>
#include <string>

namespace common {

std::string formatFixed(double value, int digits);  // 0.1234, 2 -> "0.12"
std::string formatDuration(double seconds);         // 3725 -> "1h2m5s", 65 -> "1m5s"

// Seconds still to go when `fresh` jobs of this run took `elapsed` seconds and `remaining`
// are left (0 before the first job).
double etaSeconds(double elapsed, std::size_t fresh, std::size_t remaining);

// Writes `line` to stderr: rewritten in place on a terminal, one line per call otherwise.
void showProgress(const std::string& line);
// Ends the in-place line (a newline on a terminal; nothing otherwise).
void endProgress();

}  // namespace common
