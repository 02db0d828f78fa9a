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

// TimeBudget: soft = do not start another iteration after this; hard = abort the search.
// Both already have the move overhead (time lost in pipes and the GUI) taken off.
struct TimeBudget {
    std::int64_t soft = -1;  // -1: no limit
    std::int64_t hard = -1;
    bool fixed = false;  // movetime: use the whole time, never stop between iterations
    bool limited() const { return hard >= 0; }
};

// The budget for the side to move. Sudden death assumes about 30 more moves to play (a Lasca
// game rarely lasts longer) and spends a fixed share of the increment; the hard limit never
// exceeds what the clock can afford, keeping `overhead` in reserve, so the engine never loses on
// time while its replies reach the GUI within the overhead.
TimeBudget planTime(const ClockLimits& clock, Color us, std::int64_t overheadMs);

}  // namespace lasca::search
