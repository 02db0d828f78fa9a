#include "web/lobby/lobby.h"

#include <algorithm>
#include <cmath>

#include "common/seed.h"
#include "web/lasca_tables/duel.h"
#include "web/messages/messages.h"
#include "web/ratings/ratings.h"

namespace web::lobby {

using messages::boolField;
using messages::intField;

namespace {

std::optional<ratings::Clock> ratingClock(const SeekParams& params) {
    if (!params.clock) return std::nullopt;
    return ratings::Clock{static_cast<std::uint32_t>(params.time / 1000),
                          static_cast<std::uint32_t>(params.increment / 1000)};
}

bool optionalFlag(const Json& m, const char* name, bool& flag, std::string& error) {
    if (!m.contains(name)) return true;
    const auto read = boolField(m, name);
    if (!read) {
        error = read.error();
        return false;
    }
    flag = read.value();
    return true;
}

}  // namespace

common::Result<std::optional<lasca_tables::DuelClock>> readClock(const Json& m) {
    if (!m.contains("clock") || m["clock"].is_null())
        return std::optional<lasca_tables::DuelClock>();
    const Json& c = m["clock"];
    if (!c.is_object()) return common::makeError("clock must be null or an object");
    if (auto e = messages::checkFields(c, {"time", "increment"})) return common::makeError(*e);
    const auto time = intField(c, "time", lasca_tables::kMinDuelTime, lasca_tables::kMaxDuelTime);
    if (!time) return common::makeError(time.error());
    const auto increment = intField(c, "increment", 0, lasca_tables::kMaxDuelIncrement);
    if (!increment) return common::makeError(increment.error());
    return std::optional<lasca_tables::DuelClock>(
        lasca_tables::DuelClock{time.value(), increment.value()});
}

common::Result<SeekParams> readSeek(const Json& m) {
    SeekParams params;
    const auto clock = readClock(m);
    if (!clock) return common::makeError(clock.error());
    if (clock.value()) {
        params.clock = true;
        params.time = clock.value()->time;
        params.increment = clock.value()->increment;
    }
    std::string error;
    if (!optionalFlag(m, "rated", params.rated, error)) return common::makeError(error);
    if (m.contains("range") && !m["range"].is_null()) {
        const Json& r = m["range"];
        if (!r.is_array() || r.size() != 2 || !r[0].is_number_integer() ||
            !r[1].is_number_integer())
            return common::makeError("range must be null or [low, high], two whole numbers");
        const auto low = r[0].get<std::int64_t>();
        const auto high = r[1].get<std::int64_t>();
        if (low < kMinRangeRating || high > kMaxRangeRating || low > high)
            return common::makeError("range must be [low, high] with " +
                                     std::to_string(kMinRangeRating) +
                                     " <= low <= high <= " + std::to_string(kMaxRangeRating));
        params.range = std::pair{static_cast<int>(low), static_cast<int>(high)};
    }
    if (params.rated && !ratings::ratedSpeed(ratingClock(params)))
        return common::makeError("a rated game needs a clock");
    return params;
}

std::string category(const SeekParams& params) {
    return std::string(ratings::categoryName(ratingClock(params)));
}

Json seekJson(const SeekParams& params) {
    Json j;
    j["clock"] =
        params.clock ? Json{{"time", params.time}, {"increment", params.increment}} : Json(nullptr);
    j["rated"] = params.rated;
    j["range"] =
        params.range ? Json::array({params.range->first, params.range->second}) : Json(nullptr);
    j["speed"] = category(params);
    return j;
}

common::Result<TorneioParams> readTorneio(const Json& m, int levels) {
    TorneioParams params;
    const auto seats = intField(m, "seats", 2, 4);
    if (!seats) return common::makeError(seats.error());
    params.seats = static_cast<int>(seats.value());
    const auto people = intField(m, "people", 2, params.seats);
    if (!people) return common::makeError(people.error());
    params.people = static_cast<int>(people.value());
    if (m.contains("level")) {
        const auto level = intField(m, "level", 0, std::max(0, levels - 1));
        if (!level) return common::makeError(level.error());
        params.level = static_cast<int>(level.value());
    }
    if (m.contains("rounds")) {
        const auto rounds = intField(m, "rounds", 1, 200);
        if (!rounds) return common::makeError(rounds.error());
        params.rounds = static_cast<int>(rounds.value());
    }
    std::string error;
    if (!optionalFlag(m, "rated", params.rated, error)) return common::makeError(error);
    return params;
}

Json torneioJson(const TorneioParams& params) {
    return {{"seats", params.seats},
            {"people", params.people},
            {"level", params.level},
            {"rounds", params.rounds},
            {"rated", params.rated}};
}

common::Rating Viewer::ratingIn(const std::string& name) const {
    const auto it = ratings.find(name);
    return it == ratings.end() ? common::startRating() : it->second;
}

bool maySee(const SeekParams& params, const Viewer& viewer) {
    if (viewer.guest()) return !params.rated && !params.range;
    if (!params.range) return true;
    const auto rating = static_cast<int>(std::lround(viewer.ratingIn(category(params)).rating));
    return rating >= params.range->first && rating <= params.range->second;
}

bool maySit(const TorneioParams& params, const Viewer& viewer) {
    return !params.rated || !viewer.guest();
}

const DeclineReason* declineReason(std::string_view key) {
    for (const auto& reason : kDeclineReasons)
        if (reason.key == key) return &reason;
    return nullptr;
}

bool makerPlaysWhite() {
    return (common::systemSeed() & 1U) != 0;
}

}  // namespace web::lobby
