#include "common/stats.h"

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

}  // namespace common
