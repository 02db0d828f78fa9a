#include "torneio/rules/action_index.h"

#include <algorithm>
#include <string>

namespace torneio {

namespace {

using common::makeError;

std::int64_t squares(const Geometry& geometry) {
    return static_cast<std::int64_t>(geometry.squareCount());
}

// Offsets of each kind's run in the layout of action_index.h.
struct Layout {
    std::int64_t q;
    std::int64_t combat() const { return 4 * q; }
    std::int64_t pass() const { return 5 * q; }
    std::int64_t order() const { return 5 * q + 1; }
    std::int64_t withdraw() const { return 6 * q + 1; }
    std::int64_t reward() const { return 7 * q; }  // + warrior 1..3
    std::int64_t setUp() const { return 7 * q + 4; }
};

std::int64_t setUpCount(int seat, const Geometry& geometry) {
    Request request;
    request.kind = RequestKind::SetUp;
    request.seat = seat;
    return static_cast<std::int64_t>(countLegalActions(request, OwnPieces{}, geometry));
}

}  // namespace

std::int64_t firstSetUpAction(const Geometry& geometry) {
    return Layout{squares(geometry)}.setUp();
}

std::int64_t actionCount(const Geometry& geometry) {
    std::int64_t most = 0;
    for (int seat = 0; seat < geometry.seats(); ++seat)
        most = std::max(most, setUpCount(seat, geometry));
    return firstSetUpAction(geometry) + most;
}

common::Result<std::int64_t> actionNumber(int seat, const Action& action,
                                          const Geometry& geometry) {
    const Layout at{squares(geometry)};
    const auto square = [&](std::int64_t base) -> common::Result<std::int64_t> {
        if (!geometry.onBoard(action.square)) return makeError("the action has no square");
        return base + action.square;
    };
    switch (action.kind) {
        case ActionKind::Move:
            if (action.piece < 0 || action.piece >= kPiecesPerSeat)
                return makeError("piece " + std::to_string(action.piece) + " out of range 0..3");
            return square(action.piece * at.q);
        case ActionKind::Combat:
            return square(at.combat());
        case ActionKind::Pass:
            return at.pass();
        case ActionKind::Order:
            return square(at.order());
        case ActionKind::Withdraw:
            return square(at.withdraw());
        case ActionKind::Reward:
            if (action.piece < kFirstWarrior || action.piece > kWarriors)
                return makeError("warrior " + std::to_string(action.piece) + " out of range 1..3");
            return at.reward() + action.piece;
        case ActionKind::SetUp: {
            auto number = setUpNumber(seat, action.setUp, geometry);
            if (!number) return makeError(number.error());
            return at.setUp() + static_cast<std::int64_t>(number.value());
        }
    }
    return makeError("unknown action kind");
}

common::Result<Action> actionOfNumber(int seat, std::int64_t number, const Geometry& geometry) {
    const Layout at{squares(geometry)};
    if (number < 0 || number >= actionCount(geometry))
        return makeError("action " + std::to_string(number) + " out of range 0.." +
                         std::to_string(actionCount(geometry) - 1));
    if (number < at.combat())
        return moveAction(static_cast<int>(number / at.q), static_cast<Square>(number % at.q));
    if (number < at.pass()) return combatAction(static_cast<Square>(number - at.combat()));
    if (number == at.pass()) return passAction();
    if (number < at.withdraw()) return orderAction(static_cast<Square>(number - at.order()));
    if (number < at.reward() + kFirstWarrior)
        return withdrawAction(static_cast<Square>(number - at.withdraw()));
    if (number < at.setUp()) return rewardAction(static_cast<int>(number - at.reward()));
    auto setUp = nthSetUp(seat, static_cast<std::uint64_t>(number - at.setUp()), geometry);
    if (!setUp) return makeError(setUp.error());
    return setUpAction(setUp.value());
}

void legalActionNumbers(const Request& request, const OwnPieces& own, const Geometry& geometry,
                        std::vector<std::int64_t>& out) {
    out.clear();
    if (request.kind == RequestKind::SetUp) {
        const std::int64_t first = firstSetUpAction(geometry);
        const std::int64_t count = setUpCount(request.seat, geometry);
        out.reserve(static_cast<std::size_t>(count));
        for (std::int64_t i = 0; i < count; ++i) out.push_back(first + i);
        return;
    }
    thread_local std::vector<Action> actions;
    legalActions(request, own, geometry, actions);
    for (const Action& a : actions)
        if (auto number = actionNumber(request.seat, a, geometry)) out.push_back(number.value());
    std::sort(out.begin(), out.end());
}

}  // namespace torneio
