#include "torneio/rules/params.h"

#include <algorithm>
#include <array>
#include <optional>

#include "common/text.h"

namespace torneio {

namespace {

// The fewest dark squares in any seat's zone (D2).
int fewestDarkZoneSquares(const Params& p) {
    int fewest = p.boardSize * p.boardSize;
    for (int seat = 0; seat < p.seats; ++seat) {
        int count = 0;
        for (int rank = 0; rank < p.boardSize; ++rank)
            for (int file = 0; file < p.boardSize; ++file)
                if ((file + rank) % 2 == 0 && inHomeZone(p, seat, file, rank)) ++count;
        fewest = std::min(fewest, count);
    }
    return fewest;
}

struct ParamsKey {
    std::string_view name;
    int Params::*field;
    std::int64_t low;
    std::int64_t high;
};

constexpr std::array<ParamsKey, 7> kIntegerKeys{{
    {"seats", &Params::seats, kMinSeats, kMaxSeats},
    {"board", &Params::boardSize, kMinBoardSize, kMaxBoardSize},
    {"depth", &Params::zoneDepth, 1, kMaxBoardSize},
    {"trim", &Params::zoneTrim, 0, kMaxBoardSize},
    {"strength", &Params::strengthTotal, 0, kMaxStrengthTotal},
    {"minstrength", &Params::minStrength, 0, kMaxStrengthTotal},
    {"rounds", &Params::maxRounds, 1, kMaxRoundsLimit},
}};

}  // namespace

Params defaultParams(int seats) {
    Params p;
    p.seats = seats;
    if (seats >= 3) {  // D1, D2
        p.boardSize = 10;
        p.zoneTrim = 2;
    }
    return p;
}

common::Result<Params> validateParams(const Params& p) {
    using common::makeError;
    if (p.seats < kMinSeats || p.seats > kMaxSeats)
        return makeError("seats must be 2..4, not " + std::to_string(p.seats));
    if (p.boardSize < kMinBoardSize || p.boardSize > kMaxBoardSize)
        return makeError("board size must be 4..16, not " + std::to_string(p.boardSize));
    if (p.zoneDepth < 1) return makeError("zone depth must be at least 1");
    if (p.zoneTrim < 0) return makeError("zone trim must not be negative");
    if (2 * p.zoneDepth > p.boardSize) return makeError("zones of opposite sides overlap");
    if (p.seats >= 3 && p.zoneTrim < p.zoneDepth)
        return makeError("with 3-4 seats the zone trim must be at least the zone depth");
    if (2 * p.zoneTrim >= p.boardSize) return makeError("zone trim leaves no square");
    if (fewestDarkZoneSquares(p) < 4) return makeError("a zone has fewer than 4 dark squares");
    if (p.strengthTotal < 0 || p.strengthTotal > kMaxStrengthTotal)
        return makeError("strength total must be 0..1000");
    if (p.minStrength < 0 || 3 * p.minStrength > p.strengthTotal)
        return makeError("min strength must be 0..strength total / 3");
    if (p.maxRounds < 1 || p.maxRounds > kMaxRoundsLimit)
        return makeError("rounds must be 1..100000");
    if (p.pass != PassRule::WhenStuck && p.pass != PassRule::Always)
        return makeError("unknown pass rule");
    return p;
}

std::string formatParams(const Params& p) {
    std::string text;
    for (const ParamsKey& key : kIntegerKeys) {
        if (!text.empty()) text += ' ';
        text += std::string(key.name) + "=" + std::to_string(p.*key.field);
    }
    text += p.pass == PassRule::Always ? " pass=always" : " pass=stuck";
    return text;
}

common::Result<Params> parseParams(std::string_view text) {
    using common::makeError;
    std::array<std::optional<int>, kIntegerKeys.size()> values;
    std::optional<PassRule> pass;
    for (std::string_view token : common::splitWhitespace(text)) {
        const std::size_t eq = token.find('=');
        if (eq == std::string_view::npos)
            return makeError("expected key=value, got '" + common::printable(token) + "'");
        const std::string_view name = token.substr(0, eq);
        const std::string_view value = token.substr(eq + 1);
        if (name == "pass") {
            if (pass) return makeError("pass given twice");
            if (value == "stuck") {
                pass = PassRule::WhenStuck;
            } else if (value == "always") {
                pass = PassRule::Always;
            } else {
                return makeError("pass must be stuck or always");
            }
            continue;
        }
        bool known = false;
        for (std::size_t i = 0; i < kIntegerKeys.size(); ++i) {
            if (kIntegerKeys[i].name != name) continue;
            known = true;
            if (values[i]) return makeError(std::string(name) + " given twice");
            const auto number =
                common::parseBoundedInteger(value, kIntegerKeys[i].low, kIntegerKeys[i].high);
            if (!number)
                return makeError(std::string(name) + " must be a number in " +
                                 std::to_string(kIntegerKeys[i].low) + ".." +
                                 std::to_string(kIntegerKeys[i].high));
            values[i] = static_cast<int>(*number);
        }
        if (!known) return makeError("unknown parameter '" + common::printable(name) + "'");
    }
    if (!values[0]) return makeError("seats=N is required");
    Params p = defaultParams(*values[0]);
    for (std::size_t i = 0; i < kIntegerKeys.size(); ++i)
        if (values[i]) p.*kIntegerKeys[i].field = *values[i];
    if (pass) p.pass = *pass;
    return validateParams(p);
}

Side sideOfSeat(int seats, int seat) {
    // D1/D9: clockwise from south; with 2 seats the second sits opposite (north).
    if (seats == 2) return seat == 0 ? Side::South : Side::North;
    return static_cast<Side>(seat & 3);
}

std::string_view sideName(Side side) {
    switch (side) {
        case Side::South:
            return "south";
        case Side::West:
            return "west";
        case Side::North:
            return "north";
        case Side::East:
            return "east";
    }
    return "?";
}

bool inHomeZone(const Params& p, int seat, int file, int rank) {
    const int last = p.boardSize - 1;
    const auto alongInside = [&](int along) {
        return along >= p.zoneTrim && along <= last - p.zoneTrim;
    };
    switch (sideOfSeat(p.seats, seat)) {
        case Side::South:
            return rank < p.zoneDepth && alongInside(file);
        case Side::North:
            return rank > last - p.zoneDepth && alongInside(file);
        case Side::West:
            return file < p.zoneDepth && alongInside(rank);
        case Side::East:
            return file > last - p.zoneDepth && alongInside(rank);
    }
    return false;
}

std::string seatText(int seat) {
    return std::to_string(seat + 1);
}

common::Result<int> parseSeat(std::string_view text, int seats) {
    const auto number = common::parseBoundedInteger(text, 1, seats);
    if (!number)
        return common::makeError("seat must be 1.." + std::to_string(seats) + ", not '" +
                                 common::printable(text) + "'");
    return static_cast<int>(*number - 1);
}

}  // namespace torneio
