#include "torneio/rules/serialize.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "common/text.h"
#include "torneio/rules/action_index.h"
#include "torneio/rules/step_state.h"

namespace torneio {

namespace {

// The largest strength a start line may give a warrior: above any a game can reach (the
// strength total, at most 1000, plus one point per defeated piece).
constexpr std::int64_t kMaxStartStrength = 1'000'000;

std::string pieceText(const Piece& piece, const Geometry& geometry) {
    return piece.alive ? geometry.name(piece.square) : std::string("-");
}

std::string startText(const StartPosition& start, const Geometry& geometry) {
    std::string text =
        "start " + std::to_string(start.turnSeat + 1) + " " + std::to_string(start.round);
    for (int seat = 0; seat < geometry.seats(); ++seat) {
        const OwnPieces& own = start.pieces[static_cast<std::size_t>(seat)];
        text += seat == 0 ? " " : " / ";
        text += pieceText(own[kKing], geometry);
        for (int w = kFirstWarrior; w <= kWarriors; ++w)
            text += " " + pieceText(own[w], geometry) + ":" + std::to_string(own[w].strength);
    }
    return text;
}

// A square or "-" (dead) of a start line.
common::Result<Square> startSquare(std::string_view text, const Geometry& geometry) {
    if (text == "-") return kNoSquare;
    auto square = geometry.parse(text);
    if (!square) return common::makeError("start: " + square.error());
    return square.value();
}

common::Result<StartPosition> parseStart(const std::vector<std::string_view>& tokens,
                                         const Geometry& geometry) {
    const int seats = geometry.seats();
    const std::size_t expected = 3 + static_cast<std::size_t>(seats) * 5 - 1;
    if (tokens.size() != expected)
        return common::makeError("start: expected " + std::to_string(expected) + " fields, got " +
                                 std::to_string(tokens.size()));
    StartPosition start;
    auto turn = common::parseBoundedInteger(tokens[1], 1, seats);
    auto round = common::parseBoundedInteger(tokens[2], 1, kMaxRoundsLimit);
    if (!turn || !round) return common::makeError("start: bad turn seat or round");
    start.turnSeat = static_cast<int>(*turn) - 1;
    start.round = static_cast<int>(*round);
    std::size_t i = 3;
    for (int seat = 0; seat < seats; ++seat) {
        if (seat > 0 && tokens[i++] != "/") return common::makeError("start: expected '/'");
        OwnPieces& own = start.pieces[static_cast<std::size_t>(seat)];
        const auto king = startSquare(tokens[i++], geometry);
        if (!king) return common::makeError(king.error());
        if (king.value() != kNoSquare) own[kKing] = Piece{king.value(), 0, true};
        for (int w = kFirstWarrior; w <= kWarriors; ++w) {
            const std::string_view field = tokens[i++];
            const std::size_t colon = field.find(':');
            if (colon == std::string_view::npos)
                return common::makeError("start: expected <square>:<strength>");
            const auto square = startSquare(field.substr(0, colon), geometry);
            if (!square) return common::makeError(square.error());
            auto strength =
                common::parseBoundedInteger(field.substr(colon + 1), 0, kMaxStartStrength);
            if (!strength) return common::makeError("start: bad strength");
            own[w] =
                Piece{square.value(), static_cast<int>(*strength), square.value() != kNoSquare};
        }
    }
    return start;
}

}  // namespace

common::Result<std::string> serializeState(const State& state) {
    return serializeState(StepState(state));
}

common::Result<std::string> serializeState(const StepState& steps) {
    auto numbers = steps.historyNumbers();
    if (!numbers) return common::makeError(numbers.error());
    const State& state = steps.state();
    std::string text = "torneio-state 2\nparams " + formatParams(state.params());
    if (state.start()) text += "\n" + startText(*state.start(), state.geometry());
    text += "\nactions";
    for (std::int64_t a : numbers.value()) text += " " + std::to_string(a);
    return text;
}

common::Result<StepState> deserializeState(std::string_view text) {
    if (text.size() > kMaxSerializedLength)
        return common::makeError("serialized state too long (" + std::to_string(text.size()) +
                                 " characters)");
    std::vector<std::string_view> lines;
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        if (end > at) lines.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    if (lines.size() < 3 || lines[0] != "torneio-state 2" || !lines[1].starts_with("params ") ||
        !lines.back().starts_with("actions") || lines.size() > 4)
        return common::makeError(
            "not a serialized state: expected 'torneio-state 2', 'params ...', an optional "
            "'start ...' and 'actions ...' lines");
    const auto params = parseParams(lines[1].substr(7));
    if (!params) return common::makeError(params.error());
    std::optional<State> made;
    if (lines.size() == 4) {
        const Geometry geometry(params.value());
        const std::vector<std::string_view> tokens = common::splitWhitespace(lines[2]);
        if (tokens.empty() || tokens[0] != "start")
            return common::makeError("not a serialized state: expected a 'start ...' line");
        auto start = parseStart(tokens, geometry);
        if (!start) return common::makeError(start.error());
        auto state = State::fromPosition(params.value(), start.value());
        if (!state) return common::makeError(state.error());
        made = std::move(state).value();
    } else {
        auto state = State::create(params.value());
        if (!state) return common::makeError(state.error());
        made = std::move(state).value();
    }
    const std::vector<std::string_view> tokens = common::splitWhitespace(lines.back());
    if (tokens.empty() || tokens[0] != "actions")
        return common::makeError("not a serialized state: expected an 'actions ...' line");
    std::vector<std::int64_t> numbers;
    numbers.reserve(tokens.size() - 1);
    for (std::size_t i = 1; i < tokens.size(); ++i) {
        auto number = common::parseBoundedInteger(tokens[i], 0, INT64_MAX);
        if (!number)
            return common::makeError("action " + std::to_string(i) + ": '" +
                                     common::printable(tokens[i]) + "' is not a number");
        numbers.push_back(*number);
    }
    return replayNumbers(std::move(*made), numbers);
}

}  // namespace torneio
