#include "common/shard.h"

#include "common/text.h"

namespace common {

namespace {

constexpr std::int64_t kMaxShards = 1000000;

}  // namespace

Result<Shard> parseShard(std::string_view text) {
    const auto slash = text.find('/');
    if (slash == std::string_view::npos)
        return makeError("--shard needs i/n, got '" + printable(text) + "'");
    const auto index = parseBoundedInteger(text.substr(0, slash), 1, kMaxShards);
    const auto count = parseBoundedInteger(text.substr(slash + 1), 1, kMaxShards);
    if (!index || !count || *index > *count)
        return makeError("--shard i/n needs numbers 1 <= i <= n, got '" + printable(text) + "'");
    return Shard{static_cast<int>(*index - 1), static_cast<int>(*count)};
}

}  // namespace common
