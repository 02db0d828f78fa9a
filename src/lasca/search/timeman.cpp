#include "lasca/search/timeman.h"

#include <algorithm>

namespace lasca::search {

namespace {
constexpr std::int64_t kMinimumThinkMs = 1;
constexpr int kMaxMovesToGo = 50;  // a longer control given by the GUI is planned as this
}  // namespace

TimeBudget planTime(const ClockLimits& clock, Color us, std::int64_t overheadMs,
                    const TimeParams& params) {
    TimeBudget budget;
    if (clock.moveTime >= 0) {
        // The overhead is kept back, but never more than half the time: with a tiny movetime
        // (10 ms under a 30 ms overhead) the engine would otherwise only ever finish depth 1.
        const std::int64_t reserve = std::min(overheadMs, clock.moveTime / 2);
        budget.hard = std::max(kMinimumThinkMs, clock.moveTime - reserve);
        budget.soft = budget.hard;
        budget.deepen = budget.hard;
        budget.fixed = true;
        return budget;
    }
    const std::int64_t left = clock.time[index(us)];
    if (left < 0) return budget;  // no clock: depth, nodes or infinite limit the search
    const std::int64_t inc = clock.inc[index(us)];
    const std::int64_t usable = std::max<std::int64_t>(kMinimumThinkMs, left - overheadMs);
    const int movesToGo = clock.movesToGo > 0 ? std::min(clock.movesToGo, kMaxMovesToGo)
                                              : std::max(1, params.movesToGo);

    const std::int64_t share = usable / movesToGo + inc * params.incrementPercent / 100;
    budget.soft = std::clamp<std::int64_t>(
        share, kMinimumThinkMs, std::max(kMinimumThinkMs, usable * params.softMaxPercent / 100));
    // The hard limit: several times the soft one, but never more than a fraction of what is
    // left (a third by default; all but the overhead when this is the last move before the
    // control).
    const std::int64_t ceiling = clock.movesToGo == 1
                                     ? usable - overheadMs
                                     : usable * 100 / std::max(100, params.hardMaxDivisor);
    budget.hard = std::clamp<std::int64_t>(budget.soft * params.hardPercent / 100, kMinimumThinkMs,
                                           std::max(kMinimumThinkMs, ceiling));
    budget.soft = std::min(budget.soft, budget.hard);
    budget.deepen = budget.soft * params.iterationPercent / 100;
    return budget;
}

}  // namespace lasca::search
