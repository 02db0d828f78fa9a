// Shards: a long match split over several runs (machines, or one after another). Each run plays
// the work units u (game pairs in lasca-match, games in torneio-referee) with u % count == index;
// the runs' records are merged afterwards.
#pragma once

#include <string_view>

#include "common/result.h"

namespace common {

// Shard: this run's share of the units.
//   index  0-based, 0 <= index < count (the command line writes it 1-based: `--shard 2/4`)
//   count  number of shards, >= 1
struct Shard {
    int index = 0;
    int count = 1;
    bool holds(int unit) const { return unit % count == index; }
};

// Reads "i/n" with 1 <= i <= n (both decimal, no blanks). Errors say what is expected.
Result<Shard> parseShard(std::string_view text);

}  // namespace common
