// Pieces, action constructors and legality (action.h): what a seat may answer to a request
// (G5-G10, D2-D12). The text forms are action_text.cpp's, set-up numbers setup_numbering.cpp's,
// random actions action_random.cpp's.
#include "torneio/rules/action.h"

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "action_internal.h"

namespace torneio {

using common::makeError;
using detail::forEachSetUp;
using detail::forEachSmall;
using detail::freeStrength;
using detail::squareChoices;
using detail::strengthSplits;

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
}  // namespace torneio
