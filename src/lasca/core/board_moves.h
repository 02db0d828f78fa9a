// The building blocks of move generation and counting, shared by movegen.cpp (the legal moves)
// and perft.cpp (counting without making moves): the board geometry, the Board the generator
// reads, the walker of capture paths, the first jumps and the steps of the side to move, all
// from bitboards. Private to lasca/core.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>

#include "lasca/core/move.h"
#include "lasca/core/position.h"

namespace lasca::detail {

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

inline constexpr Geometry kGeometry = makeGeometry();

constexpr std::size_t at(int i) {
    return static_cast<std::size_t>(i);
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
constexpr DirectionRange allDirections() {
    return {NorthEast, SouthWest};
}

// Board: all the generator reads of a position, three bitboards and the side to move. Move
// generation and counting never look at the columns, except to find the new commander of a
// jumped column when perft counts the replies of a capture without making it (afterCapture).
// Working on this small value lets perft's last two plies count from the bitboards of a child
// position without building it (countMovePairs). A Board is passed by value: its 16 bytes
// travel in two registers, where a reference to a freshly built child Board would make the
// callee reload it from the stack.
struct Board {
    Bitboard occupied;
    Bitboard whiteTop;
    Bitboard officerTop;
    Color us;

    template <Color Us>
    Bitboard commandedBy() const {
        return Us == Color::White ? whiteTop : occupied & ~whiteTop;
    }
    Bitboard enemy() const {
        return us == Color::White ? commandedBy<Color::Black>() : commandedBy<Color::White>();
    }
    Bitboard empty() const { return ~occupied & kAllSquares; }
};

inline Board boardOf(const Position& pos) {
    return Board{pos.occupied(), pos.commandedBy(Color::White), pos.officers(), pos.sideToMove()};
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

inline JumpContext jumpContextFor(Board board, Square s) {
    const bool officer = (board.officerTop & bit(s)) != 0;
    return JumpContext{board.enemy(), officer ? 0 : promotionRank(board.us),
                       officer ? allDirections() : forwardDirections(board.us)};
}

constexpr int opposite(int d) {
    return kDirections - 1 - d;
}

// A direction known at compile time. The hot loops over directions are written as a generic
// lambda called once per direction (forEachDirection), so that every shift is by a constant and
// every per-direction array lives in registers; a plain loop gets vectorised into variable
// shifts and spills instead. These building blocks, and the other tiny ones the counters use
// in their innermost loops, are forced inline: once the perft counters instantiate them many
// times GCC's inliner starts leaving some of them as calls.
template <int D>
using Dir = std::integral_constant<int, D>;

template <class F>
[[gnu::always_inline]] inline void forEachDirection(F&& f) {
    f(Dir<NorthEast>{});
    f(Dir<NorthWest>{});
    f(Dir<SouthEast>{});
    f(Dir<SouthWest>{});
}

// Moves a set of squares one step in direction D (the caller masks with canStep/canJump).
template <int D>
[[gnu::always_inline]] constexpr Bitboard shiftTo(Bitboard b) {
    constexpr int offset = kDirectionOffset[at(D)];
    if constexpr (offset > 0)
        return (b << offset) & kAllSquares;
    else
        return b >> -offset;
}

// FirstJumps: the first jumps of every capture of the side to move Us, from bitboards.
//   jumpFrom[d]  squares from which a jump in direction d is possible on the board as it
//                stands (enemy commander one step away, empty square two steps away)
//   movers[d]    own commanders that may jump in d (soldiers forward only, R5)
// After a first jump from s over m to t, the column can go on in direction d' exactly when t is
// in jumpFrom[d'] for a direction d' it may use other than back over m (R7): the board seen from
// t differs from the original only on s (now empty) and m, and no jump from t other than the
// one back crosses m or lands on s. So most captures, single jumps, are known to be complete
// without walking, and only the paths that go on are handed to walkJumps.
// The side to move is a template parameter (here and in the counting functions below) so that
// the generated code has no test of the colour.
template <Color Us>
struct FirstJumps {
    static constexpr DirectionRange kForward = forwardDirections(Us);
    static constexpr bool isForward(int d) { return d >= kForward.first && d <= kForward.last; }

    [[gnu::always_inline]] explicit FirstJumps(Board board) {
        const Bitboard own = board.commandedBy<Us>(), enemy = board.commandedBy<~Us>();
        const Bitboard empty = board.empty();
        officers = own & board.officerTop;
        soldiers = own & ~officers;
        forEachDirection([&](auto d) {
            constexpr int back = opposite(d);
            jumpFrom[d] =
                kGeometry.canJump[d] & shiftTo<back>(enemy) & shiftTo<back>(shiftTo<back>(empty));
            movers[d] = (isForward(d) ? own : officers) & jumpFrom[d];
        });
    }
    bool any() const { return (movers[0] | movers[1] | movers[2] | movers[3]) != 0; }

    // Where the first jumps in direction D land: all of them, and those that must go on, by
    // soldiers and by officers.
    struct Landings {
        Bitboard all;
        Bitboard soldiersGoingOn;
        Bitboard officersGoingOn;
        Bitboard continuing() const { return soldiersGoingOn | officersGoingOn; }
    };
    template <int D>
    [[gnu::always_inline]] Landings landings() const {
        // A soldier on the far rank has no forward jump, so R8 (promotion ends the move) holds.
        const Bitboard soldierGoesOn = jumpFrom[at(kForward.first)] | jumpFrom[at(kForward.last)];
        const Bitboard anyJump = jumpFrom[0] | jumpFrom[1] | jumpFrom[2] | jumpFrom[3];
        const Bitboard officerGoesOn = anyJump & ~jumpFrom[at(opposite(D))];
        const Bitboard soldierLandings = shiftTo<D>(shiftTo<D>(movers[D] & soldiers));
        const Bitboard officerLandings = shiftTo<D>(shiftTo<D>(movers[D] & officers));
        return {soldierLandings | officerLandings, soldierLandings & soldierGoesOn,
                officerLandings & officerGoesOn};
    }

    // Calls single(from, to) for each complete one-jump capture and goesOn(from, over, to) for
    // each first jump that must continue, direction by direction (the generation order).
    template <class Single, class GoesOn>
    void forEach(Single&& single, GoesOn&& goesOn) const {
        forEachDirection([&](auto d) {
            if (!movers[d]) return;
            const Landings l = landings<d>();
            constexpr int offset = kDirectionOffset[d];
            for (Bitboard b = l.all; b; b = withoutLowest(b)) {
                const Square to = lowestSquare(b);
                if (l.continuing() & bit(to))
                    goesOn(to - 2 * offset, to - offset, to);
                else
                    single(to - 2 * offset, to);
            }
        });
    }

    std::array<Bitboard, kDirections> jumpFrom{};
    std::array<Bitboard, kDirections> movers{};
    Bitboard officers = 0;
    Bitboard soldiers = 0;
};

// Walks the rest of a capture whose first jump went from `from` over `over` to `to`.
template <class Sink>
void walkOnFrom(Board board, Square from, Square over, Square to, Sink& sink) {
    Move m{};
    m.from = static_cast<std::uint8_t>(from);
    m.capture = true;
    m.path[0] = static_cast<std::uint8_t>(to);
    walkJumps(jumpContextFor(board, from), to, bit(over), board.empty() | bit(from), m, 1, sink);
}

// Number of complete capture paths of a column that has jumped to `from`: walkJumps with a
// sink that only counts.
inline int countJumpPaths(const JumpContext& c, Square from, Bitboard jumped, Bitboard empty) {
    int paths = 0;
    auto count = [&paths](const Move&, int) { ++paths; };
    Move m{};
    walkJumps(c, from, jumped, empty, m, 1, count);
    return paths;
}

// Counts the captures whose first jump lands on a square of continuing[d] (direction d).
[[gnu::noinline]] inline int countContinuing(Board board,
                                             const std::array<Bitboard, kDirections>& continuing) {
    int count = 0;
    forEachDirection([&](auto d) {
        constexpr int offset = kDirectionOffset[d];
        for (Bitboard b = continuing[d]; b; b = withoutLowest(b)) {
            const Square to = lowestSquare(b), from = to - 2 * offset;
            count += countJumpPaths(jumpContextFor(board, from), to, bit(to - offset),
                                    board.empty() | bit(from));
        }
    });
    return count;
}

// Counting needs no order: the complete single jumps are a popcount per direction, computed
// without a branch (a direction with no mover adds zero), and the jump trees are walked out of
// line only when some capture goes on. Branches here are hard to predict, and they cost more
// than the few extra instructions.
template <Color Us>
[[gnu::always_inline]] inline std::uint64_t countCaptures(Board board,
                                                          const FirstJumps<Us>& jumps) {
    int count = 0;
    std::array<Bitboard, kDirections> continuing{};
    forEachDirection([&](auto d) {
        const auto l = jumps.template landings<d>();
        count += popcount(l.all & ~l.continuing());
        continuing[d] = l.continuing();
    });
    if (continuing[0] | continuing[1] | continuing[2] | continuing[3])
        count += countContinuing(board, continuing);
    return static_cast<std::uint64_t>(count);
}

template <Color Us>
void pushCaptures(Board board, const FirstJumps<Us>& jumps, MoveList& list) {
    auto push = [&list](const Move& m, int length) {
        Move complete = m;
        complete.length = static_cast<std::uint8_t>(length);
        list.push(complete);
    };
    jumps.forEach(
        [&list](Square from, Square to) { list.pushSingleJump(from, to); },
        [&](Square from, Square over, Square to) { walkOnFrom(board, from, over, to, push); });
}

// Steps of the side to move Us: every own commander forward, officers also backward (R4).
template <Color Us>
struct StepMovers {
    [[gnu::always_inline]] explicit StepMovers(Board board)
        : all(board.commandedBy<Us>()), officers(all & board.officerTop), empty(board.empty()) {}

    // Where the commanders that may step in direction D land.
    template <int D>
    [[gnu::always_inline]] Bitboard targets() const {
        const Bitboard movers = FirstJumps<Us>::isForward(D) ? all : officers;
        return shiftTo<D>(movers & kGeometry.canStep[D]) & empty;
    }

    Bitboard all;
    Bitboard officers;
    Bitboard empty;
};

template <Color Us>
[[gnu::always_inline]] inline std::uint64_t countSteps(Board board) {
    const StepMovers<Us> movers(board);
    int count = 0;
    forEachDirection([&](auto d) { count += popcount(movers.template targets<d>()); });
    return static_cast<std::uint64_t>(count);
}

// Calls visit(from, to) for every step of Us, in generation order: the forward directions
// first, then the backward ones, each in Direction order. The targets of two directions are
// packed into one 64-bit word, the first direction's in bits 0-24 and the second's in bits
// 32-56, so a single loop visits both in that order: the loop exit, a branch the CPU cannot
// predict well, is taken once per pair instead of once per direction.
template <Color Us, class Visit>
void forEachStep(Board board, Visit&& visit) {
    const StepMovers<Us> movers(board);
    auto inDirections = [&](auto first, auto second) {
        std::uint64_t targets = movers.template targets<first>() |
                                std::uint64_t{movers.template targets<second>()} << 32;
        for (; targets; targets &= targets - 1) {
            const int index = std::countr_zero(targets);
            const Square to = index & 31;
            visit(to - (index < 32 ? kDirectionOffset[first] : kDirectionOffset[second]), to);
        }
    };
    if constexpr (Us == Color::White) {
        inDirections(Dir<NorthEast>{}, Dir<NorthWest>{});
        inDirections(Dir<SouthEast>{}, Dir<SouthWest>{});
    } else {
        inDirections(Dir<SouthEast>{}, Dir<SouthWest>{});
        inDirections(Dir<NorthEast>{}, Dir<NorthWest>{});
    }
}

// The number of legal moves of Us: the leaf of perft. Only the walk of captures that go on
// (countContinuing) is out of line, so the common cases are straight-line code.
template <Color Us>
std::uint64_t countMovesOf(Board board) {
    if (const FirstJumps<Us> jumps(board); jumps.any()) return countCaptures(board, jumps);
    return countSteps<Us>(board);
}

}  // namespace lasca::detail
