#include "lasca/movegen.h"

namespace lasca {

namespace {

// Board geometry, computed at compile time.
//   stepTo[s][d]   neighbour of s in direction d, or -1
//   jumpOver[s][d] the square a jump from s in direction d crosses, or -1
//   jumpTo[s][d]   where that jump lands, or -1
//   canStep[d], canJump[d]: squares from which a step / a jump in d stays on the board
struct Geometry {
    std::array<std::array<std::int8_t, kDirections>, kSquares> stepTo{};
    std::array<std::array<std::int8_t, kDirections>, kSquares> jumpOver{};
    std::array<std::array<std::int8_t, kDirections>, kSquares> jumpTo{};
    std::array<Bitboard, kDirections> canStep{};
    std::array<Bitboard, kDirections> canJump{};
};

constexpr Geometry makeGeometry() {
    Geometry g;
    for (Square s = 0; s < kSquares; ++s) {
        for (int d = 0; d < kDirections; ++d) {
            const Square one = neighbour(s, d);
            const Square two = one == kNoSquare ? kNoSquare : neighbour(one, d);
            g.stepTo[static_cast<std::size_t>(s)][static_cast<std::size_t>(d)] =
                static_cast<std::int8_t>(one);
            g.jumpOver[static_cast<std::size_t>(s)][static_cast<std::size_t>(d)] =
                static_cast<std::int8_t>(two == kNoSquare ? kNoSquare : one);
            g.jumpTo[static_cast<std::size_t>(s)][static_cast<std::size_t>(d)] =
                static_cast<std::int8_t>(two);
            if (one != kNoSquare) g.canStep[static_cast<std::size_t>(d)] |= bit(s);
            if (two != kNoSquare) g.canJump[static_cast<std::size_t>(d)] |= bit(s);
        }
    }
    return g;
}

constexpr Geometry kGeometry = makeGeometry();

constexpr std::size_t at(int i) {
    return static_cast<std::size_t>(i);
}

// Moves a set of squares one step in direction d (the caller masks with canStep/canJump).
constexpr Bitboard shift(Bitboard b, int d) {
    const int offset = kDirectionOffset[at(d)];
    return offset > 0 ? (b << offset) & kAllSquares : b >> -offset;
}

// Directions a commander may use (R4, R5): soldiers forward only, officers both ways.
struct DirectionRange {
    int first;
    int last;
};
constexpr DirectionRange forwardDirections(Color c) {
    return c == Color::White ? DirectionRange{NorthEast, NorthWest}
                             : DirectionRange{SouthEast, SouthWest};
}
constexpr DirectionRange backwardDirections(Color c) {
    return forwardDirections(~c);
}
constexpr DirectionRange allDirections() {
    return {NorthEast, SouthWest};
}

// What stays fixed while one column makes a capture sequence.
struct JumpContext {
    Bitboard enemy;      // squares commanded by the opponent when the move starts
    Bitboard promotion;  // far rank for a soldier commander (R8), empty for an officer
    DirectionRange directions;
};

// Walks every capture path from `from` in path order (R6: the column keeps jumping while it
// can). `jumped` holds the squares already crossed (R7), `empty` the squares the column may
// land on: those empty at the start plus its own start square (R7). A square emptied by taking
// a single piece never needs adding: landing squares are an even number of files and ranks
// away from the start, jumped squares an odd number, so the column can never land on one.
// Calls sink(move, length) once for each complete path.
template <class Sink>
void walkJumps(const JumpContext& c, Square from, Bitboard jumped, Bitboard empty, Move& m,
               int length, Sink& sink) {
    bool extended = false;
    for (int d = c.directions.first; d <= c.directions.last; ++d) {
        const Square over = kGeometry.jumpOver[at(from)][at(d)];
        if (over == kNoSquare) continue;
        const Square to = kGeometry.jumpTo[at(from)][at(d)];
        if (!(c.enemy & bit(over)) || (jumped & bit(over)) || !(empty & bit(to))) continue;
        extended = true;
        m.path[at(length)] = static_cast<std::uint8_t>(to);
        if (c.promotion & bit(to)) {  // R8: promotion ends the move
            sink(m, length + 1);
            m.path[at(length)] = 0;
            continue;
        }
        walkJumps(c, to, jumped | bit(over), empty, m, length + 1, sink);
    }
    m.path[at(length)] = 0;  // keeps the squares past the path zero: moves stay canonical
    if (!extended && length > 0) sink(m, length);
}

JumpContext jumpContextFor(const Position& pos, Square s) {
    const Color us = pos.sideToMove();
    const bool officer = (pos.officers() & bit(s)) != 0;
    return JumpContext{pos.commandedBy(~us), officer ? 0 : promotionRank(us),
                       officer ? allDirections() : forwardDirections(us)};
}

constexpr int opposite(int d) {
    return kDirections - 1 - d;
}

// FirstJumps: the first jumps of every capture of the side to move, from bitboards.
//   jumpFrom[d]  squares from which a jump in direction d is possible on the board as it
//                stands (enemy commander one step away, empty square two steps away)
//   movers[d]    own commanders that may jump in d (soldiers forward only, R5)
// After a first jump from s over m to t, the column can go on in direction d' exactly when t is
// in jumpFrom[d'] for a direction d' it may use other than back over m (R7): the board seen from
// t differs from the original only on s (now empty) and m, and no jump from t other than the
// one back crosses m or lands on s. So most captures, single jumps, are known to be complete
// without walking, and only the paths that go on are handed to walkJumps.
struct FirstJumps {
    explicit FirstJumps(const Position& pos) {
        const Color us = pos.sideToMove();
        const Bitboard own = pos.commandedBy(us), enemy = pos.commandedBy(~us);
        const Bitboard empty = pos.empty();
        officers = own & pos.officers();
        soldiers = own & ~officers;
        forward = forwardDirections(us);
        for (int d = 0; d < kDirections; ++d) {
            const int back = opposite(d);
            jumpFrom[at(d)] =
                kGeometry.canJump[at(d)] & shift(enemy, back) & shift(shift(empty, back), back);
            movers[at(d)] = (isForward(d) ? own : officers) & jumpFrom[at(d)];
        }
    }
    bool isForward(int d) const { return d >= forward.first && d <= forward.last; }
    bool any() const { return (movers[0] | movers[1] | movers[2] | movers[3]) != 0; }

    // Calls single(from, to) for each complete one-jump capture and goesOn(from, over, to) for
    // each first jump that must continue, direction by direction.
    template <class Single, class GoesOn>
    void forEach(Single&& single, GoesOn&& goesOn) const {
        Bitboard soldierGoesOn = 0;  // a soldier on the far rank has no forward jump: R8 holds
        for (int d = forward.first; d <= forward.last; ++d) soldierGoesOn |= jumpFrom[at(d)];
        const Bitboard anyJump = jumpFrom[0] | jumpFrom[1] | jumpFrom[2] | jumpFrom[3];
        for (int d = 0; d < kDirections; ++d) {
            if (!movers[at(d)]) continue;
            const Bitboard officerGoesOn = anyJump & ~jumpFrom[at(opposite(d))];
            const Bitboard soldierLandings = shift(shift(movers[at(d)] & soldiers, d), d);
            const Bitboard officerLandings = shift(shift(movers[at(d)] & officers, d), d);
            const Bitboard continuing =
                (soldierLandings & soldierGoesOn) | (officerLandings & officerGoesOn);
            const int offset = kDirectionOffset[at(d)];
            for (Bitboard b = soldierLandings | officerLandings; b; b = withoutLowest(b)) {
                const Square to = lowestSquare(b);
                if (continuing & bit(to))
                    goesOn(to - 2 * offset, to - offset, to);
                else
                    single(to - 2 * offset, to);
            }
        }
    }

    std::array<Bitboard, kDirections> jumpFrom{};
    std::array<Bitboard, kDirections> movers{};
    Bitboard officers = 0;
    Bitboard soldiers = 0;
    DirectionRange forward{};
};

// Walks the rest of a capture whose first jump went from `from` over `over` to `to`.
template <class Sink>
void walkOnFrom(const Position& pos, Square from, Square over, Square to, Sink& sink) {
    Move m{};
    m.from = static_cast<std::uint8_t>(from);
    m.capture = true;
    m.path[0] = static_cast<std::uint8_t>(to);
    walkJumps(jumpContextFor(pos, from), to, bit(over), pos.empty() | bit(from), m, 1, sink);
}

std::uint64_t countCaptures(const Position& pos, const FirstJumps& jumps) {
    std::uint64_t count = 0;
    auto counter = [&count](const Move&, int) { ++count; };
    jumps.forEach(
        [&count](Square, Square) { ++count; },
        [&](Square from, Square over, Square to) { walkOnFrom(pos, from, over, to, counter); });
    return count;
}

void pushCaptures(const Position& pos, const FirstJumps& jumps, MoveList& list) {
    auto push = [&list](const Move& m, int length) {
        Move complete = m;
        complete.length = static_cast<std::uint8_t>(length);
        list.push(complete);
    };
    jumps.forEach(
        [&list](Square from, Square to) { list.pushSingleJump(from, to); },
        [&](Square from, Square over, Square to) { walkOnFrom(pos, from, over, to, push); });
}

int countSteps(Bitboard movers, DirectionRange r, Bitboard empty) {
    int count = 0;
    for (int d = r.first; d <= r.last; ++d)
        count += popcount(shift(movers & kGeometry.canStep[at(d)], d) & empty);
    return count;
}

// Appends the steps of `movers` in directions r, direction by direction.
void pushSteps(Bitboard movers, DirectionRange r, Bitboard empty, MoveList& list) {
    for (int d = r.first; d <= r.last; ++d) {
        const int offset = kDirectionOffset[at(d)];
        for (Bitboard targets = shift(movers & kGeometry.canStep[at(d)], d) & empty; targets;
             targets = withoutLowest(targets)) {
            const Square to = lowestSquare(targets);
            list.pushStep(to - offset, to);
        }
    }
}

}  // namespace

bool hasCapture(const Position& pos) {
    return FirstJumps(pos).any();
}

bool hasLegalMove(const Position& pos) {
    const Color us = pos.sideToMove();
    const Bitboard own = pos.commandedBy(us), empty = pos.empty();
    return hasCapture(pos) || countSteps(own, forwardDirections(us), empty) > 0 ||
           countSteps(own & pos.officers(), backwardDirections(us), empty) > 0;
}

std::uint64_t countMoves(const Position& pos) {
    if (const FirstJumps jumps(pos); jumps.any()) return countCaptures(pos, jumps);
    const Color us = pos.sideToMove();
    const Bitboard own = pos.commandedBy(us), empty = pos.empty();
    return static_cast<std::uint64_t>(
        countSteps(own, forwardDirections(us), empty) +
        countSteps(own & pos.officers(), backwardDirections(us), empty));
}

void generateMoves(const Position& pos, MoveList& list) {
    list.clear();
    if (const FirstJumps jumps(pos); jumps.any()) {
        pushCaptures(pos, jumps, list);
        return;
    }
    const Color us = pos.sideToMove();
    const Bitboard own = pos.commandedBy(us), empty = pos.empty();
    pushSteps(own, forwardDirections(us), empty, list);
    pushSteps(own & pos.officers(), backwardDirections(us), empty, list);
}

}  // namespace lasca
