#include "torneio/rules/geometry.h"

#include <algorithm>

#include "common/text.h"

namespace torneio {

namespace {

// File and rank offsets of the 8 directions, in table order: N, NE, E, SE, S, SW, W, NW.
constexpr std::array<int, kDirections> kFileDelta{0, 1, 1, 1, 0, -1, -1, -1};
constexpr std::array<int, kDirections> kRankDelta{1, 1, 0, -1, -1, -1, 0, 1};

Params usableParams(const Params& params) {
    if (validateParams(params).ok()) return params;
    return defaultParams(std::clamp(params.seats, kMinSeats, kMaxSeats));
}

}  // namespace

std::string squareName(Square square, int boardSize) {
    if (square < 0 || square >= boardSize * boardSize) return "-";
    std::string name(1, static_cast<char>('a' + square % boardSize));
    return name + std::to_string(square / boardSize + 1);
}

common::Result<Square> parseSquare(std::string_view text, int boardSize) {
    const auto bad = [&] {
        return common::makeError("not a square of this board: '" + common::printable(text) + "'");
    };
    if (text.size() < 2 || text[0] < 'a' || text[0] >= 'a' + boardSize) return bad();
    const auto rank = common::parseBoundedInteger(text.substr(1), 1, boardSize);
    if (!rank || text[1] == '0') return bad();
    const int file = text[0] - 'a';
    return static_cast<Square>((*rank - 1) * boardSize + file);
}

bool SquareList::contains(Square s) const {
    return std::find(begin(), end(), s) != end();
}

Geometry::Geometry(const Params& params) : params_(usableParams(params)) {
    const int n = squareCount();
    step_.resize(static_cast<std::size_t>(n));
    warriorStepOffset_.reserve(static_cast<std::size_t>(n) + 1);
    for (Square s = 0; s < n; ++s) {
        warriorStepOffset_.push_back(static_cast<std::uint16_t>(warriorStepData_.size()));
        for (int d = 0; d < kDirections; ++d) {
            const auto du = static_cast<std::size_t>(d);
            const Square to = at(fileOf(s) + kFileDelta[du], rankOf(s) + kRankDelta[du]);
            step_[static_cast<std::size_t>(s)][du] = to;
            if (to != kNoSquare) warriorStepData_.push_back(to);
        }
    }
    warriorStepOffset_.push_back(static_cast<std::uint16_t>(warriorStepData_.size()));

    zoneMask_.assign(static_cast<std::size_t>(n), 0);
    for (int seat = 0; seat < seats(); ++seat) {
        for (Square s = 0; s < n; ++s) {
            if (!isDark(s) || !inHomeZone(params_, seat, fileOf(s), rankOf(s))) continue;
            zones_[static_cast<std::size_t>(seat)].push_back(s);
            zoneMask_[static_cast<std::size_t>(s)] |= static_cast<std::uint8_t>(1u << seat);
        }
    }
}

Square Geometry::at(int file, int rank) const {
    if (file < 0 || file >= size() || rank < 0 || rank >= size()) return kNoSquare;
    return rank * size() + file;
}

Square Geometry::step(Square s, int direction) const {
    return step_[static_cast<std::size_t>(s)][static_cast<std::size_t>(direction)];
}

std::span<const Square> Geometry::warriorSteps(Square s) const {
    const auto first = warriorStepOffset_[static_cast<std::size_t>(s)];
    const auto last = warriorStepOffset_[static_cast<std::size_t>(s) + 1];
    return {warriorStepData_.data() + first, static_cast<std::size_t>(last - first)};
}

std::span<const Square> Geometry::zone(int seat) const {
    return zones_[static_cast<std::size_t>(seat)];
}

bool Geometry::inZone(int seat, Square s) const {
    return onBoard(s) && seat >= 0 && seat < kMaxSeats &&
           (zoneMask_[static_cast<std::size_t>(s)] >> seat & 1u) != 0;
}

common::Result<Geometry> makeGeometry(const Params& params) {
    auto valid = validateParams(params);
    if (!valid) return common::makeError(valid.error());
    return Geometry(params);
}

}  // namespace torneio
