// The text forms of set-ups, actions and requests (action.h; protocol.md, "The Torneio player
// protocol").
#include <string>
#include <utility>
#include <vector>

#include "common/text.h"
#include "torneio/rules/action.h"

namespace torneio {

namespace {

using common::makeError;
using Tokens = std::vector<std::string_view>;

// ---- Text helpers ----------------------------------------------------------------------------

common::Result<int> parseNumber(std::string_view text, std::int64_t low, std::int64_t high,
                                std::string_view what) {
    const auto number = common::parseBoundedInteger(text, low, high);
    if (!number)
        return makeError(std::string(what) + " must be a number in " + std::to_string(low) + ".." +
                         std::to_string(high) + ", not '" + common::printable(text) + "'");
    return static_cast<int>(*number);
}

common::Result<bool> expectCount(const Tokens& tokens, std::size_t count, std::string_view form) {
    if (tokens.size() != count) return makeError("expected '" + std::string(form) + "'");
    return true;
}

// "<sq>:<n>" of a set-up warrior.
common::Result<std::pair<Square, int>> parseWarrior(std::string_view text,
                                                    const Geometry& geometry) {
    const std::size_t colon = text.find(':');
    if (colon == std::string_view::npos)
        return makeError("expected <square>:<strength>, not '" + common::printable(text) + "'");
    auto square = geometry.parse(text.substr(0, colon));
    if (!square) return makeError(square.error());
    auto strength =
        parseNumber(text.substr(colon + 1), 0, geometry.params().strengthTotal, "strength");
    if (!strength) return makeError(strength.error());
    return std::pair{square.value(), strength.value()};
}

common::Result<SetUp> parseSetUpTokens(const Tokens& tokens, std::size_t first,
                                       const Geometry& geometry) {
    constexpr std::string_view kForm = "king <sq> warriors <sq>:<n> <sq>:<n> <sq>:<n>";
    if (tokens.size() != first + 6 || tokens[first] != "king" || tokens[first + 2] != "warriors")
        return makeError("expected '" + std::string(kForm) + "'");
    SetUp setUp;
    auto king = geometry.parse(tokens[first + 1]);
    if (!king) return makeError(king.error());
    setUp.king = king.value();
    for (std::size_t i = 0; i < kWarriors; ++i) {
        auto warrior = parseWarrior(tokens[first + 3 + i], geometry);
        if (!warrior) return makeError(warrior.error());
        setUp.warriors[i] = warrior.value().first;
        setUp.strengths[i] = warrior.value().second;
    }
    return setUp;
}

}  // namespace

// ---- Text ------------------------------------------------------------------------------------

std::string formatSetUp(const SetUp& setUp, const Geometry& geometry) {
    std::string text = "king " + geometry.name(setUp.king) + " warriors";
    for (std::size_t i = 0; i < kWarriors; ++i)
        text += " " + geometry.name(setUp.warriors[i]) + ":" + std::to_string(setUp.strengths[i]);
    return text;
}

common::Result<SetUp> parseSetUp(std::string_view text, const Geometry& geometry) {
    return parseSetUpTokens(common::splitWhitespace(text), 0, geometry);
}

std::string formatAction(const Action& action, const Geometry& geometry) {
    switch (action.kind) {
        case ActionKind::SetUp:
            return "setup " + formatSetUp(action.setUp, geometry);
        case ActionKind::Move:
            return "move " + std::to_string(action.piece) + " " + geometry.name(action.square);
        case ActionKind::Combat:
            return "combat " + geometry.name(action.square);
        case ActionKind::Pass:
            return "pass";
        case ActionKind::Order:
            return "order " + geometry.name(action.square);
        case ActionKind::Withdraw:
            return "withdraw " + geometry.name(action.square);
        case ActionKind::Reward:
            return "reward " + std::to_string(action.piece);
    }
    return "?";
}

common::Result<Action> parseAction(std::string_view text, const Geometry& geometry) {
    const Tokens tokens = common::splitWhitespace(text);
    if (tokens.empty()) return makeError("empty action");
    const std::string_view word = tokens[0];
    if (word == "setup") {
        auto setUp = parseSetUpTokens(tokens, 1, geometry);
        if (!setUp) return makeError(setUp.error());
        return setUpAction(setUp.value());
    }
    if (word == "pass") {
        if (auto ok = expectCount(tokens, 1, "pass"); !ok) return makeError(ok.error());
        return passAction();
    }
    if (word == "move") {
        if (auto ok = expectCount(tokens, 3, "move <piece> <square>"); !ok)
            return makeError(ok.error());
        auto piece = parseNumber(tokens[1], 0, kPiecesPerSeat - 1, "piece");
        if (!piece) return makeError(piece.error());
        auto to = geometry.parse(tokens[2]);
        if (!to) return makeError(to.error());
        return moveAction(piece.value(), to.value());
    }
    if (word == "reward") {
        if (auto ok = expectCount(tokens, 2, "reward <warrior>"); !ok) return makeError(ok.error());
        auto warrior = parseNumber(tokens[1], kFirstWarrior, kPiecesPerSeat - 1, "warrior");
        if (!warrior) return makeError(warrior.error());
        return rewardAction(warrior.value());
    }
    if (word == "combat" || word == "order" || word == "withdraw") {
        if (auto ok = expectCount(tokens, 2, std::string(word) + " <square>"); !ok)
            return makeError(ok.error());
        auto square = geometry.parse(tokens[1]);
        if (!square) return makeError(square.error());
        if (word == "combat") return combatAction(square.value());
        if (word == "order") return orderAction(square.value());
        return withdrawAction(square.value());
    }
    return makeError("unknown action '" + common::printable(word) + "'");
}

std::string formatRequest(const Request& request, const Geometry& geometry) {
    switch (request.kind) {
        case RequestKind::SetUp:
            return "request setup";
        case RequestKind::Turn:
            return "request turn " + std::to_string(request.round);
        case RequestKind::RetreatOrder: {
            std::string text =
                "request order " + seatText(request.loser) + " " + geometry.name(request.from);
            if (!request.refused.empty()) {
                text += " refused";
                for (Square s : request.refused) text += " " + geometry.name(s);
            }
            return text;
        }
        case RequestKind::Withdraw:
            return "request withdraw " + std::to_string(request.piece) + " " +
                   geometry.name(request.from);
        case RequestKind::Reward:
            return "request reward " + std::to_string(request.points);
    }
    return "request ?";
}

common::Result<Request> parseRequest(std::string_view text, int seat, const Geometry& geometry) {
    const Tokens tokens = common::splitWhitespace(text);
    if (tokens.size() < 2 || tokens[0] != "request")
        return makeError("expected 'request <kind> ...'");
    if (seat < 0 || seat >= geometry.seats()) return makeError("no such seat");
    Request request;
    request.seat = seat;
    const std::string_view kind = tokens[1];
    if (kind == "setup") {
        if (auto ok = expectCount(tokens, 2, "request setup"); !ok) return makeError(ok.error());
        request.kind = RequestKind::SetUp;
        return request;
    }
    if (kind == "turn") {
        if (auto ok = expectCount(tokens, 3, "request turn <round>"); !ok)
            return makeError(ok.error());
        auto round = parseNumber(tokens[2], 1, geometry.params().maxRounds, "round");
        if (!round) return makeError(round.error());
        request.kind = RequestKind::Turn;
        request.round = round.value();
        return request;
    }
    if (kind == "order") {
        constexpr std::string_view kForm = "request order <seat> <square> [refused <square> ...]";
        if (tokens.size() < 4 || (tokens.size() > 4 && tokens[4] != "refused") ||
            tokens.size() == 5 || tokens.size() > 5 + SquareList::kCapacity)
            return makeError("expected '" + std::string(kForm) + "'");
        auto loser = parseSeat(tokens[2], geometry.seats());
        if (!loser) return makeError(loser.error());
        auto from = geometry.parse(tokens[3]);
        if (!from) return makeError(from.error());
        request.kind = RequestKind::RetreatOrder;
        request.loser = loser.value();
        request.from = from.value();
        for (std::size_t i = 5; i < tokens.size(); ++i) {
            auto refused = geometry.parse(tokens[i]);
            if (!refused) return makeError(refused.error());
            if (std::find(request.refused.begin(), request.refused.end(), refused.value()) !=
                request.refused.end())
                return makeError("square refused twice");
            request.refused.push_back(refused.value());
        }
        return request;
    }
    if (kind == "withdraw") {
        if (auto ok = expectCount(tokens, 4, "request withdraw <warrior> <square>"); !ok)
            return makeError(ok.error());
        auto piece = parseNumber(tokens[2], kFirstWarrior, kPiecesPerSeat - 1, "warrior");
        if (!piece) return makeError(piece.error());
        auto from = geometry.parse(tokens[3]);
        if (!from) return makeError(from.error());
        request.kind = RequestKind::Withdraw;
        request.piece = piece.value();
        request.from = from.value();
        return request;
    }
    if (kind == "reward") {
        if (auto ok = expectCount(tokens, 3, "request reward <points>"); !ok)
            return makeError(ok.error());
        auto points = parseNumber(tokens[2], 1, kMaxStrengthTotal, "points");
        if (!points) return makeError(points.error());
        request.kind = RequestKind::Reward;
        request.points = points.value();
        return request;
    }
    return makeError("unknown request '" + common::printable(kind) + "'");
}

}  // namespace torneio
