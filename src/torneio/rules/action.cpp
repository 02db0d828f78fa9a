#include "torneio/rules/action.h"

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "common/text.h"

namespace torneio {

namespace {

using common::makeError;
using Tokens = std::vector<std::string_view>;

// ---- Set-up counting (D2, D3) ----------------------------------------------------------------

// The strength left to split freely once every warrior has its minimum (D3).
int freeStrength(const Geometry& geometry) {
    return geometry.params().strengthTotal - kWarriors * geometry.params().minStrength;
}

// Ways to split `free` points among 3 warriors in order: C(free + 2, 2).
std::uint64_t strengthSplits(int free) {
    const auto f = static_cast<std::uint64_t>(free);
    return (f + 2) * (f + 1) / 2;
}

// The k-th split (0-based) in lexicographic order of (first, second), minimum added back.
std::array<int, kWarriors> nthStrengthSplit(std::uint64_t k, int free, int minimum) {
    for (int first = 0; first <= free; ++first) {
        const auto withFirst = static_cast<std::uint64_t>(free - first + 1);
        if (k < withFirst) {
            const int second = static_cast<int>(k);
            return {first + minimum, second + minimum, free - first - second + minimum};
        }
        k -= withFirst;
    }
    return {minimum, minimum, free + minimum};  // not reached for k < strengthSplits(free)
}

// Ordered choices of 4 different zone squares: n (n-1) (n-2) (n-3).
std::uint64_t squareChoices(std::size_t zoneSize) {
    if (zoneSize < kPiecesPerSeat) return 0;
    const auto n = static_cast<std::uint64_t>(zoneSize);
    return n * (n - 1) * (n - 2) * (n - 3);
}

// Every legal set-up of `seat`, in the documented order.
template <class F>
void forEachSetUp(int seat, const Geometry& geometry, F&& visit) {
    const std::span<const Square> zone = geometry.zone(seat);
    const int free = freeStrength(geometry);
    const int minimum = geometry.params().minStrength;
    const std::uint64_t splits = strengthSplits(free);
    SetUp setUp;
    for (Square king : zone) {
        setUp.king = king;
        for (Square w1 : zone) {
            if (w1 == king) continue;
            for (Square w2 : zone) {
                if (w2 == king || w2 == w1) continue;
                for (Square w3 : zone) {
                    if (w3 == king || w3 == w1 || w3 == w2) continue;
                    setUp.warriors = {w1, w2, w3};
                    for (std::uint64_t k = 0; k < splits; ++k) {
                        setUp.strengths = nthStrengthSplit(k, free, minimum);
                        visit(setUpAction(setUp));
                    }
                }
            }
        }
    }
}

// Every legal reply to a request other than SetUp, in the documented order.
template <class F>
void forEachSmall(const Request& request, const OwnPieces& own, const Geometry& geometry,
                  F&& visit) {
    switch (request.kind) {
        case RequestKind::SetUp:
            return;
        case RequestKind::Turn: {
            for (int piece = 0; piece < kPiecesPerSeat; ++piece)
                for (Square to : pieceDestinations(own, piece, geometry))
                    visit(moveAction(piece, to));
            for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w)
                if (own[w].alive) visit(combatAction(own[w].square));
            if (passAllowed(own, geometry)) visit(passAction());
            return;
        }
        case RequestKind::RetreatOrder: {
            if (!geometry.onBoard(request.from)) return;
            for (Square to : geometry.warriorSteps(request.from)) {
                const bool refused = std::find(request.refused.begin(), request.refused.end(),
                                               to) != request.refused.end();
                if (!refused) visit(orderAction(to));
            }
            return;
        }
        case RequestKind::Withdraw: {
            if (request.piece < kFirstWarrior || request.piece >= kPiecesPerSeat) return;
            if (own[request.piece].square != request.from) return;
            for (Square to : pieceDestinations(own, request.piece, geometry))
                visit(withdrawAction(to));
            return;
        }
        case RequestKind::Reward: {
            for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w)
                if (own[w].alive) visit(rewardAction(w));
            return;
        }
    }
}

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

// ---- Pieces ----------------------------------------------------------------------------------

int OwnPieces::pieceOn(Square s) const {
    for (int i = 0; i < kPiecesPerSeat; ++i)
        if (pieces[static_cast<std::size_t>(i)].alive &&
            pieces[static_cast<std::size_t>(i)].square == s)
            return i;
    return -1;
}

int OwnPieces::livingWarriors() const {
    int count = 0;
    for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w) count += (*this)[w].alive ? 1 : 0;
    return count;
}

OwnPieces piecesOf(const SetUp& setUp) {
    OwnPieces own;
    own[kKing] = Piece{setUp.king, 0, true};
    for (std::size_t i = 0; i < kWarriors; ++i)
        own.pieces[i + 1] = Piece{setUp.warriors[i], setUp.strengths[i], true};
    return own;
}

// ---- Actions ---------------------------------------------------------------------------------

Action setUpAction(const SetUp& setUp) {
    Action a;
    a.kind = ActionKind::SetUp;
    a.setUp = setUp;
    return a;
}

Action moveAction(int piece, Square to) {
    Action a;
    a.kind = ActionKind::Move;
    a.piece = piece;
    a.square = to;
    return a;
}

Action combatAction(Square square) {
    Action a;
    a.kind = ActionKind::Combat;
    a.square = square;
    return a;
}

Action passAction() {
    return Action{};
}

Action orderAction(Square square) {
    Action a;
    a.kind = ActionKind::Order;
    a.square = square;
    return a;
}

Action withdrawAction(Square square) {
    Action a;
    a.kind = ActionKind::Withdraw;
    a.square = square;
    return a;
}

Action rewardAction(int warrior) {
    Action a;
    a.kind = ActionKind::Reward;
    a.piece = warrior;
    return a;
}

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

// ---- Legality --------------------------------------------------------------------------------

SquareList pieceDestinations(const OwnPieces& own, int piece, const Geometry& geometry) {
    SquareList list;
    if (piece < 0 || piece >= kPiecesPerSeat) return list;
    const Piece& p = own[piece];
    if (!p.alive || !geometry.onBoard(p.square)) return list;
    if (piece != kKing) {  // G5: one step in any of the 8 directions, never onto an own piece
        for (Square to : geometry.warriorSteps(p.square))
            if (!own.occupies(to)) list.push(to);
        return list;
    }
    // G5: the king goes one or two squares orthogonally, never onto or over an own piece.
    for (int direction : kOrthogonalDirections) {
        const Square one = geometry.step(p.square, direction);
        if (one == kNoSquare || own.occupies(one)) continue;
        list.push(one);
        const Square two = geometry.step(one, direction);
        if (two != kNoSquare && !own.occupies(two)) list.push(two);
    }
    return list;
}

bool passAllowed(const OwnPieces& own, const Geometry& geometry) {
    if (geometry.params().pass == PassRule::Always) return true;
    // D10: only a seat that can neither move nor call a combat passes.
    if (own.livingWarriors() > 0) return false;
    return pieceDestinations(own, kKing, geometry).empty();
}

common::Result<bool> checkAction(const Request& request, const OwnPieces& own,
                                 const Geometry& geometry, const Action& action) {
    switch (request.kind) {
        case RequestKind::SetUp: {
            if (action.kind != ActionKind::SetUp) return makeError("expected a set-up");
            const SetUp& s = action.setUp;
            const std::array<Square, kPiecesPerSeat> squares{s.king, s.warriors[0], s.warriors[1],
                                                             s.warriors[2]};
            for (std::size_t i = 0; i < squares.size(); ++i) {
                if (!geometry.inZone(request.seat, squares[i]))  // D2: dark zone squares only
                    return makeError(geometry.name(squares[i]) +
                                     " is not a dark square of the seat's zone (D2)");
                for (std::size_t j = 0; j < i; ++j)
                    if (squares[j] == squares[i])
                        return makeError("two pieces on " + geometry.name(squares[i]) + " (G5)");
            }
            int sum = 0;
            for (int strength : s.strengths) {
                if (strength < geometry.params().minStrength)
                    return makeError("a warrior's strength is below the minimum (D3)");
                sum += strength;
            }
            if (sum != geometry.params().strengthTotal)
                return makeError("strengths add up to " + std::to_string(sum) + ", not " +
                                 std::to_string(geometry.params().strengthTotal) + " (G4, D3)");
            return true;
        }
        case RequestKind::Turn: {
            if (action.kind == ActionKind::Move) {
                if (action.piece < 0 || action.piece >= kPiecesPerSeat || !own[action.piece].alive)
                    return makeError("no such piece");
                if (!pieceDestinations(own, action.piece, geometry).contains(action.square))
                    return makeError("that piece cannot move to " + geometry.name(action.square) +
                                     " (G5)");
                return true;
            }
            if (action.kind == ActionKind::Combat) {
                const int piece = own.pieceOn(action.square);
                if (piece < kFirstWarrior)  // G7: an own warrior's square, never the king's
                    return makeError("no warrior of yours on " + geometry.name(action.square) +
                                     " (G7)");
                return true;
            }
            if (action.kind == ActionKind::Pass) {
                if (!passAllowed(own, geometry)) return makeError("passing is not allowed (D10)");
                return true;
            }
            return makeError("expected move, combat or pass");
        }
        case RequestKind::RetreatOrder: {
            if (action.kind != ActionKind::Order) return makeError("expected an order");
            if (!geometry.onBoard(request.from)) return makeError("bad request");
            const auto steps = geometry.warriorSteps(request.from);
            if (std::find(steps.begin(), steps.end(), action.square) == steps.end())
                return makeError(geometry.name(action.square) + " is not one step from " +
                                 geometry.name(request.from) + " (G5, D7)");
            if (std::find(request.refused.begin(), request.refused.end(), action.square) !=
                request.refused.end())
                return makeError(geometry.name(action.square) +
                                 " was already refused for this piece (D12)");
            return true;
        }
        case RequestKind::Withdraw: {
            if (action.kind != ActionKind::Withdraw) return makeError("expected a withdrawal");
            if (request.piece < kFirstWarrior || request.piece >= kPiecesPerSeat ||
                own[request.piece].square != request.from)
                return makeError("bad request");
            if (!pieceDestinations(own, request.piece, geometry).contains(action.square))
                return makeError("the piece cannot withdraw to " + geometry.name(action.square) +
                                 " (G5, G9)");
            return true;
        }
        case RequestKind::Reward: {
            if (action.kind != ActionKind::Reward) return makeError("expected a reward");
            if (action.piece < kFirstWarrior || action.piece >= kPiecesPerSeat ||
                !own[action.piece].alive)
                return makeError("no living warrior " + std::to_string(action.piece) + " (G10)");
            return true;
        }
    }
    return makeError("unknown request");
}

bool isLegal(const Request& request, const OwnPieces& own, const Geometry& geometry,
             const Action& action) {
    return checkAction(request, own, geometry, action).ok();
}

void legalActions(const Request& request, const OwnPieces& own, const Geometry& geometry,
                  std::vector<Action>& out) {
    out.clear();
    const auto add = [&out](const Action& a) { out.push_back(a); };
    if (request.kind == RequestKind::SetUp) {
        out.reserve(static_cast<std::size_t>(countLegalActions(request, own, geometry)));
        forEachSetUp(request.seat, geometry, add);
    } else {
        forEachSmall(request, own, geometry, add);
    }
}

std::vector<Action> legalActions(const Request& request, const OwnPieces& own,
                                 const Geometry& geometry) {
    std::vector<Action> out;
    legalActions(request, own, geometry, out);
    return out;
}

std::uint64_t countLegalActions(const Request& request, const OwnPieces& own,
                                const Geometry& geometry) {
    if (request.kind == RequestKind::SetUp) {
        if (request.seat < 0 || request.seat >= geometry.seats()) return 0;
        return squareChoices(geometry.zone(request.seat).size()) *
               strengthSplits(freeStrength(geometry));
    }
    std::uint64_t count = 0;
    forEachSmall(request, own, geometry, [&count](const Action&) { ++count; });
    return count;
}

common::Result<SetUp> nthSetUp(int seat, std::uint64_t index, const Geometry& geometry) {
    if (seat < 0 || seat >= geometry.seats())
        return makeError("seat " + std::to_string(seat + 1) + " is not in this game");
    const std::span<const Square> zone = geometry.zone(seat);
    const int free = freeStrength(geometry);
    const std::uint64_t splits = strengthSplits(free);
    const std::uint64_t count = squareChoices(zone.size()) * splits;
    if (index >= count)
        return makeError("set-up number " + std::to_string(index) + " out of range 0.." +
                         std::to_string(count == 0 ? 0 : count - 1));
    // Mixed radix, most significant first: king, warrior 1, 2, 3 (each a rank among the zone
    // squares still free, ascending), strength split.
    SetUp setUp;
    setUp.strengths = nthStrengthSplit(index % splits, free, geometry.params().minStrength);
    std::uint64_t rest = index / splits;
    std::array<std::uint64_t, kPiecesPerSeat> rank{};
    for (int i = kPiecesPerSeat - 1; i >= 0; --i) {
        const std::uint64_t radix = zone.size() - static_cast<std::size_t>(i);
        rank[static_cast<std::size_t>(i)] = rest % radix;
        rest /= radix;
    }
    std::vector<Square> left(zone.begin(), zone.end());
    std::array<Square, kPiecesPerSeat> chosen{};
    for (std::size_t i = 0; i < kPiecesPerSeat; ++i) {
        const auto at = left.begin() + static_cast<std::ptrdiff_t>(rank[i]);
        chosen[i] = *at;
        left.erase(at);
    }
    setUp.king = chosen[0];
    setUp.warriors = {chosen[1], chosen[2], chosen[3]};
    return setUp;
}

common::Result<std::uint64_t> setUpNumber(int seat, const SetUp& setUp, const Geometry& geometry) {
    Request request;
    request.kind = RequestKind::SetUp;
    request.seat = seat;
    if (seat < 0 || seat >= geometry.seats())
        return makeError("seat " + std::to_string(seat + 1) + " is not in this game");
    if (auto legal = checkAction(request, OwnPieces{}, geometry, setUpAction(setUp)); !legal)
        return makeError(legal.error());
    const std::span<const Square> zone = geometry.zone(seat);
    std::vector<Square> left(zone.begin(), zone.end());
    std::uint64_t number = 0;
    const std::array<Square, kPiecesPerSeat> squares{setUp.king, setUp.warriors[0],
                                                     setUp.warriors[1], setUp.warriors[2]};
    for (Square s : squares) {
        const auto at = std::find(left.begin(), left.end(), s);
        number = number * left.size() + static_cast<std::uint64_t>(at - left.begin());
        left.erase(at);
    }
    // The split's rank: the splits with a smaller first strength, then the second strength.
    const int free = freeStrength(geometry);
    const int minimum = geometry.params().minStrength;
    const auto first = static_cast<std::uint64_t>(setUp.strengths[0] - minimum);
    const auto second = static_cast<std::uint64_t>(setUp.strengths[1] - minimum);
    const auto f = static_cast<std::uint64_t>(free);
    const std::uint64_t split = first * (2 * f + 3 - first) / 2 + second;
    return number * strengthSplits(free) + split;
}

Action randomAction(const Request& request, const OwnPieces& own, const Geometry& geometry,
                    common::Random& random) {
    if (request.kind == RequestKind::SetUp) {
        if (request.seat < 0 || request.seat >= geometry.seats()) return passAction();
        // A uniformly random ordered choice of 4 zone squares (partial Fisher-Yates), then a
        // uniformly random strength split: together uniform over the legal set-ups.
        const std::span<const Square> zone = geometry.zone(request.seat);
        if (zone.size() < kPiecesPerSeat) return passAction();
        std::vector<Square> squares(zone.begin(), zone.end());
        for (std::size_t i = 0; i < kPiecesPerSeat; ++i)
            std::swap(squares[i], squares[i + random.index(squares.size() - i)]);
        SetUp setUp;
        setUp.king = squares[0];
        setUp.warriors = {squares[1], squares[2], squares[3]};
        const int free = freeStrength(geometry);
        setUp.strengths = nthStrengthSplit(random.below(strengthSplits(free)), free,
                                           geometry.params().minStrength);
        return setUpAction(setUp);
    }
    // At most 4 * 8 moves + 3 combats + pass: count, draw an index, walk again to it.
    const std::uint64_t count = countLegalActions(request, own, geometry);
    if (count == 0) return passAction();
    std::uint64_t chosen = random.below(count);
    Action picked = passAction();
    forEachSmall(request, own, geometry, [&](const Action& a) {
        if (chosen-- == 0) picked = a;
    });
    return picked;
}

}  // namespace torneio
