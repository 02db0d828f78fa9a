// Statistics shared by the match runners: the mean of per-game (or per-pair) scores and its 95%
// interval. lasca-match turns the normal interval into Elo; torneio-referee reports a score
// with its Wilson interval. Pure functions; no I/O.
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

// The Wilson score interval (95%) of a mean score in [0, 1] over n observations: always inside
// [0, 1], and not empty at a mean of 0 or 1 (n losses: [0, z^2 / (n + z^2)]). It takes the
// variance of a score that is 0 or 1, mean (1 - mean), the largest a score in [0, 1] with that
// mean can have, so it is conservative when there are draws. With n = 0: the mean alone.
Interval wilson95(const Moments& m);

}  // namespace common
