#include "common/stats.h"

#include <algorithm>
#include <cmath>

namespace common {

Moments momentsOf(std::span<const double> scores, std::span<const double> counts) {
    Moments m;
    for (double c : counts) m.n += c;
    if (m.n <= 0) return m;
    m.mean = 0;
    for (std::size_t i = 0; i < scores.size(); ++i) m.mean += scores[i] * counts[i] / m.n;
    for (std::size_t i = 0; i < scores.size(); ++i)
        m.variance += counts[i] / m.n * (scores[i] - m.mean) * (scores[i] - m.mean);
    return m;
}

Interval interval95(const Moments& m) {
    Interval i{m.mean, m.mean, m.mean};
    if (m.n <= 0) return i;
    const double se = std::sqrt(m.variance / m.n);
    i.low = m.mean - kZ95 * se;
    i.high = m.mean + kZ95 * se;
    return i;
}

Interval wilson95(const Moments& m) {
    Interval i{m.mean, m.mean, m.mean};
    if (m.n <= 0) return i;
    const double p = std::clamp(m.mean, 0.0, 1.0);
    const double z2 = kZ95 * kZ95;
    const double centre = (p + z2 / (2 * m.n)) / (1 + z2 / m.n);
    const double half = kZ95 / (1 + z2 / m.n) * std::sqrt(p * (1 - p) / m.n + z2 / (4 * m.n * m.n));
    i.low = std::max(0.0, centre - half);
    i.high = std::min(1.0, centre + half);
    return i;
}

}  // namespace common
