#include "torneio/rules/action_index.h"

#include <algorithm>
#include <string>

#include "common/text.h"

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
    std::int64_t place() const { return 7 * q + 4; }
    std::int64_t strength() const { return 8 * q + 4; }
};

Layout layoutOf(const Geometry& geometry) {
    return Layout{squares(geometry)};
}

// Whether step `made` (0..5) places a piece (else it gives the warrior just placed a strength).
bool placesPiece(int made) {
    return made == 0 || made % 2 == 1;
}
// The warrior (1..3) step `made` places or gives a strength to; 0 for the king.
int warriorOfStep(int made) {
    return (made + 1) / 2;
}

}  // namespace

std::int64_t firstSetUpAction(const Geometry& geometry) {
    return layoutOf(geometry).place();
}

std::int64_t firstStrengthAction(const Geometry& geometry) {
    return layoutOf(geometry).strength();
}

std::int64_t actionCount(const Geometry& geometry) {
    return firstStrengthAction(geometry) + geometry.params().strengthTotal + 1;
}

bool isSetUpStep(std::int64_t number, const Geometry& geometry) {
    return number >= firstSetUpAction(geometry) && number < actionCount(geometry);
}

common::Result<std::int64_t> actionNumber(int seat, const Action& action,
                                          const Geometry& geometry) {
    (void)seat;
    const Layout at = layoutOf(geometry);
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
        case ActionKind::SetUp:
            return makeError("a set-up has no one number: it is placed as six steps");
    }
    return makeError("unknown action kind");
}

common::Result<Action> actionOfNumber(int seat, std::int64_t number, const Geometry& geometry) {
    (void)seat;
    const Layout at = layoutOf(geometry);
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
    if (number < at.place()) return rewardAction(static_cast<int>(number - at.reward()));
    return makeError("action " + std::to_string(number) + " is a set-up step, not a whole action");
}

void legalActionNumbers(const Request& request, const OwnPieces& own, const Geometry& geometry,
                        std::vector<std::int64_t>& out) {
    out.clear();
    if (request.kind == RequestKind::SetUp) {
        legalSetUpSteps(SetUpSteps{request.seat, 0, {}}, geometry, out);
        return;
    }
    thread_local std::vector<Action> actions;
    legalActions(request, own, geometry, actions);
    for (const Action& a : actions)
        if (auto number = actionNumber(request.seat, a, geometry)) out.push_back(number.value());
    std::sort(out.begin(), out.end());
}

void legalSetUpSteps(const SetUpSteps& steps, const Geometry& geometry,
                     std::vector<std::int64_t>& out) {
    out.clear();
    if (steps.complete() || steps.seat < 0 || steps.seat >= geometry.seats()) return;
    const Layout at = layoutOf(geometry);
    if (placesPiece(steps.made)) {
        const SetUp& s = steps.setUp;
        for (Square square : geometry.zone(steps.seat)) {
            const bool taken = square == s.king || std::find(s.warriors.begin(), s.warriors.end(),
                                                             square) != s.warriors.end();
            if (!taken) out.push_back(at.place() + square);
        }
        return;
    }
    const Params& params = geometry.params();
    const int warrior = warriorOfStep(steps.made);  // 1 or 2
    int used = 0;
    for (int w = kFirstWarrior; w < warrior; ++w)
        used += steps.setUp.strengths[static_cast<std::size_t>(w - 1)];
    const int laterWarriors = kWarriors - warrior;
    const int most = params.strengthTotal - used - laterWarriors * params.minStrength;
    for (int n = params.minStrength; n <= most; ++n) out.push_back(at.strength() + n);
}

common::Result<bool> applySetUpStep(SetUpSteps& steps, std::int64_t number,
                                    const Geometry& geometry) {
    thread_local std::vector<std::int64_t> legal;
    legalSetUpSteps(steps, geometry, legal);
    if (!std::binary_search(legal.begin(), legal.end(), number)) {
        if (steps.complete()) return makeError("the set-up is complete");
        auto text = stepText(number, geometry);
        return makeError((text ? "'" + text.value() + "'" : "action " + std::to_string(number)) +
                         (placesPiece(steps.made) ? " is not a free square of the zone (D2)"
                                                  : " is not a strength the split allows (D3)"));
    }
    const Layout at = layoutOf(geometry);
    const int piece = warriorOfStep(steps.made);
    SetUp& s = steps.setUp;
    if (!placesPiece(steps.made)) {
        s.strengths[static_cast<std::size_t>(piece - 1)] = static_cast<int>(number - at.strength());
    } else if (piece == kKing) {
        s.king = static_cast<Square>(number - at.place());
    } else {
        s.warriors[static_cast<std::size_t>(piece - 1)] = static_cast<Square>(number - at.place());
    }
    ++steps.made;
    if (steps.complete())
        s.strengths[kWarriors - 1] =
            geometry.params().strengthTotal - s.strengths[0] - s.strengths[1];
    return steps.complete();
}

common::Result<std::array<std::int64_t, kSetUpSteps>> setUpStepNumbers(const SetUp& setUp,
                                                                       const Geometry& geometry) {
    const Layout at = layoutOf(geometry);
    const int total = geometry.params().strengthTotal;
    std::array<std::int64_t, kSetUpSteps> out{};
    if (!geometry.onBoard(setUp.king)) return makeError("the set-up's king has no square");
    out[0] = at.place() + setUp.king;
    for (int w = kFirstWarrior; w <= kWarriors; ++w) {
        const auto i = static_cast<std::size_t>(w - 1);
        if (!geometry.onBoard(setUp.warriors[i]))
            return makeError("warrior " + std::to_string(w) + " of the set-up has no square");
        if (setUp.strengths[i] < 0 || setUp.strengths[i] > total)
            return makeError("warrior " + std::to_string(w) + "'s strength out of range");
        out[static_cast<std::size_t>(2 * w - 1)] = at.place() + setUp.warriors[i];
        if (w < kWarriors)
            out[static_cast<std::size_t>(2 * w)] = at.strength() + setUp.strengths[i];
    }
    return out;
}

std::vector<std::int64_t> takenSteps(const SetUpSteps& steps, const Geometry& geometry) {
    const Layout at = layoutOf(geometry);
    const SetUp& s = steps.setUp;
    std::vector<std::int64_t> out;
    for (int i = 0; i < steps.made; ++i) {
        const auto w = static_cast<std::size_t>(std::max(0, warriorOfStep(i) - 1));
        out.push_back(i == 0           ? at.place() + s.king
                      : placesPiece(i) ? at.place() + s.warriors[w]
                                       : at.strength() + s.strengths[w]);
    }
    return out;
}

common::Result<std::string> stepText(std::int64_t number, const Geometry& geometry) {
    const Layout at = layoutOf(geometry);
    if (!isSetUpStep(number, geometry))
        return makeError("action " + std::to_string(number) + " is not a set-up step");
    if (number < at.strength())
        return "place " + geometry.name(static_cast<Square>(number - at.place()));
    return "strength " + std::to_string(number - at.strength());
}

common::Result<std::int64_t> parseStep(std::string_view text, const Geometry& geometry) {
    const Layout at = layoutOf(geometry);
    const std::vector<std::string_view> tokens = common::splitWhitespace(text);
    if (tokens.size() == 2 && tokens[0] == "place") {
        auto square = geometry.parse(tokens[1]);
        if (!square) return makeError(square.error());
        return at.place() + square.value();
    }
    if (tokens.size() == 2 && tokens[0] == "strength") {
        auto n = common::parseBoundedInteger(tokens[1], 0, geometry.params().strengthTotal);
        if (!n)
            return makeError("a strength is a whole number 0.." +
                             std::to_string(geometry.params().strengthTotal));
        return at.strength() + *n;
    }
    return makeError("not a set-up step: expected 'place <square>' or 'strength <n>'");
}

std::string stepsText(const SetUpSteps& steps, const Geometry& geometry) {
    const SetUp& s = steps.setUp;
    if (steps.made == 0) return "nothing placed";
    std::string text = "king " + geometry.name(s.king);
    for (int w = kFirstWarrior; w <= kWarriors && 2 * w - 1 < steps.made; ++w) {
        const auto i = static_cast<std::size_t>(w - 1);
        text += (w == kFirstWarrior ? " warriors " : " ") + geometry.name(s.warriors[i]);
        if (2 * w < steps.made || steps.complete()) text += ":" + std::to_string(s.strengths[i]);
    }
    return text;
}

}  // namespace torneio
