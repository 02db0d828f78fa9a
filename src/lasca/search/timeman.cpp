#include "lasca/search/timeman.h"

#include <algorithm>

namespace lasca::search {

namespace {
constexpr int kAssumedMovesToGo = 30;
constexpr std::int64_t kMinimumThinkMs = 1;
}  // namespace

TimeBudget planTime(const ClockLimits& clock, Color us, std::int64_t overheadMs) {
    TimeBudget budget;
    if (clock.moveTime >= 0) {
        // The overhead is kept back, but never more than half the time: with a tiny movetime
        // (10 ms under a 30 ms overhead) the engine would otherwise only ever finish depth 1.
        const std::int64_t reserve = std::min(overheadMs, clock.moveTime / 2);
        budget.hard = std::max(kMinimumThinkMs, clock.moveTime - reserve);
        budget.soft = budget.hard;
        budget.fixed = true;
        return budget;
    }
    const std::int64_t left = clock.time[index(us)];
    if (left < 0) return budget;  // no clock: depth, nodes or infinite limit the search
    const std::int64_t inc = clock.inc[index(us)];
    const std::int64_t usable = std::max<std::int64_t>(kMinimumThinkMs, left - overheadMs);
    const int movesToGo = clock.movesToGo > 0 ? std::min(clock.movesToGo, 50) : kAssumedMovesToGo;

    const std::int64_t share = usable / movesToGo + inc * 3 / 4;
    budget.soft =
        std::clamp<std::int64_t>(share, kMinimumThinkMs, std::max(kMinimumThinkMs, usable / 2));
    // The hard limit: several times the soft one, but never more than a fraction of what is
    // left (a third; all but the overhead when this is the last move before the control).
    const std::int64_t ceiling = movesToGo == 1 ? usable - overheadMs : usable / 3;
    budget.hard = std::clamp<std::int64_t>(budget.soft * 4, kMinimumThinkMs,
                                           std::max(kMinimumThinkMs, ceiling));
    budget.soft = std::min(budget.soft, budget.hard);
    return budget;
}

}  // namespace lasca::search
