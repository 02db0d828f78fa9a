// Time management: how long one move may think, from the clock the GUI sends.
#pragma once

#include <cstdint>

#include "lasca/core/types.h"

namespace lasca::search {

// What `go` said about time (milliseconds; -1 when not given).
struct ClockLimits {
    std::int64_t time[2] = {-1, -1};  // remaining time per colour (index(Color))
    std::int64_t inc[2] = {0, 0};     // increment per move
    int movesToGo = 0;                // moves to the next time control, 0 = sudden death
    std::int64_t moveTime = -1;       // fixed time for this move
};

// TimeParams: the numbers of the time manager, engine options of the names in brackets
// (protocol.md, "Tuning parameters") so that `lasca-tune spsa` can tune them. All are whole
// numbers; the engine's options keep each in its range (engine.cpp). With `usable` the time left
// less the overhead:
//   movesToGo          [TimeMovesToGo] the moves still to play assumed in sudden death (1..)
//   incrementPercent   [TimeIncrementPercent] the share of the increment added to each move's
//                      soft budget, in percent
//   softMaxPercent     [TimeSoftMaxPercent] the soft budget is at most this share of `usable`
//   hardPercent        [TimeHardPercent] the hard limit is this many percent of the soft budget
//   hardMaxDivisor     [TimeHardMaxDivisor] the hard limit is at most `usable` divided by
//                      hardMaxDivisor / 100 (hundredths: 300 is a third; not when the next move
//                      is the last before the control, which may use all but the overhead)
//   iterationPercent   [TimeIterationPercent] no new iteration starts after this share of the
//                      soft budget has passed (another iteration takes longer than all before it)
// The defaults are the numbers the time manager was written with.
struct TimeParams {
    int movesToGo = 30;
    int incrementPercent = 75;
    int softMaxPercent = 50;
    int hardPercent = 400;
    int hardMaxDivisor = 300;
    int iterationPercent = 55;
    bool operator==(const TimeParams&) const = default;
};

// TimeBudget: soft = do not start another iteration after this; hard = abort the search.
// Both already have the move overhead (time lost in pipes and the GUI) taken off.
// `deepen` is the elapsed time after which no new iteration starts (TimeParams::iterationPercent
// of soft).
struct TimeBudget {
    std::int64_t soft = -1;  // -1: no limit
    std::int64_t hard = -1;
    std::int64_t deepen = -1;
    bool fixed = false;  // movetime: use the whole time, never stop between iterations
    bool limited() const { return hard >= 0; }
};

// The budget for the side to move. Sudden death assumes params.movesToGo more moves to play
// (30: a Lasca game rarely lasts longer) and spends a fixed share of the increment; the hard
// limit never exceeds what the clock can afford, keeping `overhead` in reserve, so the engine
// never loses on time while its replies reach the GUI within the overhead.
TimeBudget planTime(const ClockLimits& clock, Color us, std::int64_t overheadMs,
                    const TimeParams& params = {});

}  // namespace lasca::search
