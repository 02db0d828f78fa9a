// Statistics shared by the match runners: the mean of per-game (or per-pair) scores and its 95%
// normal interval. lasca-match turns the interval into Elo; torneio-referee reports it as a
// win rate. Pure functions; no I/O.
#pragma once

#include <span>

namespace common {

inline constexpr double kZ95 = 1.959963984540054;  // two-sided 95% normal quantile

// Moments: weighted mean and per-observation variance of scores.
//   n  the total weight (number of games or pairs); mean 0.5 and variance 0 when n is 0
struct Moments {
    double mean = 0.5;
    double variance = 0;
    double n = 0;
};

// scores[i] observed counts[i] times (both spans the same length).
Moments momentsOf(std::span<const double> scores, std::span<const double> counts);

// Interval: a mean with its 95% interval mean +- kZ95 * sqrt(variance / n) (not clamped).
// With n = 0 the interval is the mean alone.
struct Interval {
    double mean = 0.5;
    double low = 0.5;
    double high = 0.5;
};
Interval interval95(const Moments& m);

}  // namespace common
