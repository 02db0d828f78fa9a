#include "lasca/core/movegen.h"

#include <type_traits>

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

Board boardOf(const Position& pos) {
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

JumpContext jumpContextFor(Board board, Square s) {
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

// Number of complete capture paths of a column that has jumped to `from`: walkJumps without
// building the moves, for counting.
int countJumpPaths(const JumpContext& c, Square from, Bitboard jumped, Bitboard empty) {
    int paths = 0;
    bool extended = false;
    for (int d = c.directions.first; d <= c.directions.last; ++d) {
        const Square over = kGeometry.jumpOver[at(from)][at(d)];
        if (over == kNoSquare) continue;
        const Square to = kGeometry.jumpTo[at(from)][at(d)];
        if (!(c.enemy & bit(over)) || (jumped & bit(over)) || !(empty & bit(to))) continue;
        extended = true;
        paths += (c.promotion & bit(to)) ? 1 : countJumpPaths(c, to, jumped | bit(over), empty);
    }
    return extended ? paths : 1;
}

// Counts the captures whose first jump lands on a square of continuing[d] (direction d).
[[gnu::noinline]] int countContinuing(Board board,
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

// ---------------------------------------------------------------------------------------------
// Counting many leaves at once.
//
// perft's last ply asks millions of boards one question: how many legal moves has the side to
// move? countMovesOf answers it for one board with a few dozen bitboard operations and two or
// three branches the CPU cannot predict (capture or not, does a capture go on). LeafCounter
// (below) answers it for many boards at once, in one loop without branches that the compiler
// turns into SIMD code.

// The number of squares in b, in a form the compiler can vectorise in the leaf batches: the
// popcount instruction where the target has a SIMD one (AVX-512 VPOPCNTDQ), else shifts, masks
// and adds (a SIMD popcount is what makes the batch loop worth vectorising: without one, GCC
// leaves a popcount loop scalar).
[[gnu::always_inline]] constexpr std::uint32_t laneCount(Bitboard b) {
#if defined(__AVX512VPOPCNTDQ__) && defined(__AVX512VL__)
    return static_cast<std::uint32_t>(popcount(b));
#else
    return static_cast<std::uint32_t>(popcountByShifts(b));
#endif
}

// The captures of exactly two jumps of the side to move whose first jump goes in direction D,
// without walking: every first jump that goes on (`first`, from FirstJumps::landings) lands on
// l, and its second jumps are the directions e it may use, other than back, with l in
// jumpFrom[e]. This reads the board as it stands, which is exact here: of the squares the move
// changes, a second jump can cross the first jumped square or land on the start square only by
// going back, and a single piece taken leaves an empty square a column can never land on (see
// walkJumps). The same holds for a third jump from the second landing square, so whether the
// capture goes on from there is also a jumpFrom test; `longer` collects the second landing
// squares from which it does (three jumps or more), and the caller walks those boards instead.
template <int D, Color Us>
[[gnu::always_inline]] inline std::uint32_t countTwoJumpCaptures(
    const FirstJumps<Us>& jumps, const typename FirstJumps<Us>::Landings& first, Bitboard& longer) {
    using Jumps = FirstJumps<Us>;
    const auto& jumpFrom = jumps.jumpFrom;
    const Bitboard soldierGoesOn =
        jumpFrom[at(Jumps::kForward.first)] | jumpFrom[at(Jumps::kForward.last)];
    const std::array<Bitboard, kDirections> jumpsExcept = {
        jumpFrom[1] | jumpFrom[2] | jumpFrom[3], jumpFrom[0] | jumpFrom[2] | jumpFrom[3],
        jumpFrom[0] | jumpFrom[1] | jumpFrom[3], jumpFrom[0] | jumpFrom[1] | jumpFrom[2]};
    std::uint32_t count = 0;
    forEachDirection([&](auto e) {
        if constexpr (e != opposite(D)) {
            // Not anyJump & ~jumpFrom[back] as for a first jump (FirstJumps::landings, where
            // the way back lands on the start square, still occupied): the way back from the
            // second landing square leads to the first one, which is empty.
            const Bitboard officerGoesOn = jumpsExcept[opposite(e)];
            const Bitboard officerSecond =
                shiftTo<e>(shiftTo<e>(first.officersGoingOn & jumpFrom[e]));
            count += laneCount(officerSecond & ~officerGoesOn);
            longer |= officerSecond & officerGoesOn;
            if constexpr (Jumps::isForward(D) && Jumps::isForward(e)) {
                const Bitboard soldierSecond =
                    shiftTo<e>(shiftTo<e>(first.soldiersGoingOn & jumpFrom[e]));
                count += laneCount(soldierSecond & ~soldierGoesOn);
                longer |= soldierSecond & soldierGoesOn;
            }
        }
    });
    return count;
}

// LeafCounter: boards, all with Us to move, whose legal moves are to be counted, and the sum so
// far. Boards wait in a batch of kBatch; a full batch is counted by one loop without branches
// (16 boards per instruction with AVX-512, 8 with AVX2): per board it counts the steps, the
// complete single jumps and the complete two-jump captures, and keeps the captures when there
// is one (R6); a board without a capture has no landings, so nothing of it goes on. Only the
// boards with a capture of three jumps or more are finished one by one, walking their jump
// trees (countContinuing). Counting needs no order, so boards of any number of positions can
// share a batch; the sum is the same however they are grouped.
template <Color Us>
class LeafCounter {
  public:
    LeafCounter() = default;
    LeafCounter(const LeafCounter&) = delete;
    LeafCounter& operator=(const LeafCounter&) = delete;

    [[gnu::always_inline]] void add(Board board) {
        occupied_[at(size_)] = board.occupied;
        whiteTop_[at(size_)] = board.whiteTop;
        officerTop_[at(size_)] = board.officerTop;
        if (++size_ == kBatch) flush();
    }
    // The sum over every board added so far.
    std::uint64_t total() {
        flush();
        return total_;
    }

  private:
    static constexpr int kBatch = 64;
    static constexpr int kLanes = 16;  // boards per SIMD instruction with AVX-512

    [[gnu::noinline]] void flush() {
        // Whole vectors only: the boards past size_ are empty and count zero.
        const int rounded = (size_ + kLanes - 1) / kLanes * kLanes;
        for (int i = size_; i < rounded; ++i)
            occupied_[at(i)] = whiteTop_[at(i)] = officerTop_[at(i)] = 0;
        std::uint32_t count = 0;
        Bitboard anyLonger = 0;
        for (int i = 0; i < rounded; ++i) {
            const Board board{occupied_[at(i)], whiteTop_[at(i)], officerTop_[at(i)], Us};
            const FirstJumps<Us> jumps(board);
            const StepMovers<Us> movers(board);
            std::uint32_t captures = 0, twoJumps = 0, steps = 0;
            Bitboard longer = 0;
            std::array<Bitboard, kDirections> continuing{};
            forEachDirection([&](auto d) {
                const auto l = jumps.template landings<d>();
                captures += laneCount(l.all & ~l.continuing());
                twoJumps += countTwoJumpCaptures<d>(jumps, l, longer);
                continuing[d] = l.continuing();
                steps += laneCount(movers.template targets<d>());
            });
            const Bitboard keep = longer ? ~Bitboard{0} : 0;
            for (int d = 0; d < kDirections; ++d)
                continuing_[at(d)][at(i)] = continuing[at(d)] & keep;
            count += jumps.any() ? captures + (longer ? 0 : twoJumps) : steps;
            anyLonger |= longer;
        }
        total_ += count;
        if (anyLonger) finishLonger();
        size_ = 0;
    }

    // The boards with a capture of three jumps or more: all their captures that go on are
    // walked (their two-jump captures were not counted above).
    void finishLonger() {
        for (int i = 0; i < size_; ++i) {
            const std::array<Bitboard, kDirections> continuing = {
                continuing_[0][at(i)], continuing_[1][at(i)], continuing_[2][at(i)],
                continuing_[3][at(i)]};
            if (continuing[0] | continuing[1] | continuing[2] | continuing[3]) {
                const Board board{occupied_[at(i)], whiteTop_[at(i)], officerTop_[at(i)], Us};
                total_ += static_cast<std::uint64_t>(countContinuing(board, continuing));
            }
        }
    }

    // The boards, one array per bitboard so that a SIMD load reads one bitboard of many
    // boards; continuing_[d] holds each board's first jumps in direction d that go on.
    // Deliberately left uninitialised: every entry is written before it is read.
    alignas(64) std::array<Bitboard, kBatch> occupied_;
    alignas(64) std::array<Bitboard, kBatch> whiteTop_;
    alignas(64) std::array<Bitboard, kBatch> officerTop_;
    alignas(64) std::array<std::array<Bitboard, kBatch>, kDirections> continuing_;
    int size_ = 0;
    std::uint64_t total_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Two-ply counting without make/unmake.
//
// The number of replies depends only on the Board (see Board), so perft's last two plies need
// the child's three bitboards, not the child position: no columns to move, no key to mix, no
// Undo to save and restore. The child board follows from the move:
//   a step       moves the commander bits from `from` to `to`, and sets the officer bit on `to`
//                for a soldier reaching the far rank (R8);
//   a capture    lifts the mover from `from`, makes each jumped square show its next piece (or
//                empties it when it held one piece: R5), then puts the mover on its last landing
//                square (which may be `from` again, R7: so lift first, land last). The jumped
//                columns are the only thing read from the position.

template <Color Us>
[[gnu::always_inline]] inline Board afterStep(Board board, Square from, Square to) {
    const Bitboard moved = bit(from) | bit(to);
    const bool officer = (board.officerTop & bit(from)) != 0;
    Board next = board;
    next.occupied ^= moved;
    if (Us == Color::White) next.whiteTop ^= moved;
    if (officer)
        next.officerTop ^= moved;
    else
        next.officerTop |= promotionRank(Us) & bit(to);
    next.us = ~Us;
    return next;
}

// Column views: where the counters read the columns of a position they did not build.
// afterCapture reads a jumped column's height and second piece; the views below also give a
// whole column (ColumnBits), so that views can be stacked: the position after one, two or
// three moves that were not made. A view is a small object over the one below it (held by
// reference), overriding only the squares the move changed.
//
// The position itself...
struct ColumnsOf {
    const Position& pos;

    int height(Square s) const { return pos.height(s); }
    ColumnBits column(Square s) const { return pos.column(s); }
    Piece second(Square s) const { return pos.pieceAt(s, 1); }
};

// ...or the position after a step from `from` to `to` that was not made: the column standing
// on `to` is the one the view below holds on `from`, its commander promoted when a soldier
// reached the far rank (R8); `from` is empty. Every other column is unchanged.
template <class Base>
class ColumnsAfterStep {
  public:
    ColumnsAfterStep(const Base& base, Square from, Square to, bool promoted)
        : base_(base), from_(from), to_(to), promoted_(promoted) {}

    int height(Square s) const {
        if (s == to_) return base_.height(from_);
        return s == from_ ? 0 : base_.height(s);
    }
    // Read lazily: perft's last level only reads heights and second pieces.
    ColumnBits column(Square s) const {
        if (s == to_) return base_.column(from_) | (promoted_ ? ColumnBits{2} : 0);
        return s == from_ ? 0 : base_.column(s);
    }
    Piece second(Square s) const {
        if (s == to_) return base_.second(from_);
        return s == from_ ? Piece::WhiteSoldier : base_.second(s);
    }

  private:
    const Base& base_;
    Square from_;
    Square to_;
    bool promoted_;
};

// Shows the commander under the top of the column on `victim` (or an empty square).
template <class Columns>
[[gnu::always_inline]] inline void takeTop(const Columns& columns, Board& next, Square victim) {
    const Bitboard b = bit(victim);
    next.occupied &= ~b;
    next.whiteTop &= ~b;
    next.officerTop &= ~b;
    if (columns.height(victim) == 1) return;
    const Piece top = columns.second(victim);
    next.occupied |= b;
    if (colorOf(top) == Color::White) next.whiteTop |= b;
    if (isOfficer(top)) next.officerTop |= b;
}

// `path` holds the `length` landing squares of a capture from `from`.
template <Color Us, class Columns>
Board afterCapture(const Columns& columns, Board board, Square from, const std::uint8_t* path,
                   int length) {
    const Bitboard fromBit = bit(from);
    const bool officer = (board.officerTop & fromBit) != 0;
    Board next = board;
    next.occupied &= ~fromBit;
    next.whiteTop &= ~fromBit;
    next.officerTop &= ~fromBit;
    Square at = from;
    for (int i = 0; i < length; ++i) {
        const Square to = path[i];
        takeTop(columns, next, (at + to) / 2);
        at = to;
    }
    const Bitboard toBit = bit(at);
    next.occupied |= toBit;
    if (Us == Color::White) next.whiteTop |= toBit;
    if (officer || (promotionRank(Us) & toBit)) next.officerTop |= toBit;
    next.us = ~Us;
    return next;
}

// Adds the positions after each legal move of Us to `leaves`: perft(2) of the position that
// `board` and `columns` describe, once the leaves are counted.
template <Color Us, class Columns>
void countMovePairs(const Columns& columns, Board board, LeafCounter<~Us>& leaves) {
    if (const FirstJumps<Us> jumps(board); jumps.any()) {
        auto addAfter = [&](const Move& m, int length) {
            leaves.add(afterCapture<Us>(columns, board, m.from, m.path.data(), length));
        };
        jumps.forEach(
            [&](Square from, Square to) {
                const std::uint8_t path[1] = {static_cast<std::uint8_t>(to)};
                leaves.add(afterCapture<Us>(columns, board, from, path, 1));
            },
            [&](Square from, Square over, Square to) {
                walkOnFrom(board, from, over, to, addAfter);
            });
        return;
    }
    forEachStep<Us>(board,
                    [&](Square from, Square to) { leaves.add(afterStep<Us>(board, from, to)); });
}

// ...or the position after a capture from `from` along `path` that was not made: the
// capturing column stands on its last landing square, one piece taller per jump, the taken
// commanders under it in jump order (R5), its own commander promoted when a soldier reached
// the far rank (R8); each jumped column has lost its commander. `from`, unless it is the
// landing square again (R7), is empty; a jumped column left empty is not jumped again.
template <class Base>
class ColumnsAfterCapture {
  public:
    ColumnsAfterCapture(const Base& base, Square from, const std::uint8_t* path, int length,
                        bool promoted)
        : base_(base), path_(path), length_(length), from_(from), promoted_(promoted) {
        Square at = from;
        for (int i = 0; i < length; ++i) {
            jumped_ |= bit((at + path[i]) / 2);
            at = path[i];
        }
        to_ = at;
        moverHeight_ = base.height(from) + length;
    }

    int height(Square s) const {
        if (s == to_) return moverHeight_;
        if (s == from_) return 0;
        return base_.height(s) - static_cast<int>((jumped_ >> s) & 1);
    }
    // The mover's column is read lazily: perft's last level only reads heights and second
    // pieces.
    ColumnBits column(Square s) const {
        if (s == to_) return moverColumn();
        if (s == from_) return 0;
        return base_.column(s) >> (2 * ((jumped_ >> s) & 1));
    }
    Piece second(Square s) const {
        if (s == to_) {
            // The mover's own second piece, or the first prisoner under a single piece.
            if (moverHeight_ - length_ >= 2) return base_.second(from_);
            return static_cast<Piece>(base_.column((from_ + path_[0]) / 2) & 3);
        }
        if (s == from_) return Piece::WhiteSoldier;
        return static_cast<Piece>((base_.column(s) >> (2 + 2 * ((jumped_ >> s) & 1))) & 3);
    }

  private:
    ColumnBits moverColumn() const {
        const int h = moverHeight_ - length_;
        ColumnBits mover = base_.column(from_) | (promoted_ ? ColumnBits{2} : 0);
        Square at = from_;
        for (int i = 0; i < length_; ++i) {
            mover |= (base_.column((at + path_[i]) / 2) & 3) << (2 * (h + i));
            at = path_[i];
        }
        return mover;
    }

    const Base& base_;
    const std::uint8_t* path_;  // the landing squares, owned by the caller
    int length_;
    Square from_;
    bool promoted_;
    Square to_ = 0;
    Bitboard jumped_ = 0;
    int moverHeight_ = 0;
};

// Calls child(columns, board) for the position after each legal move of Us, without making
// the moves: each child position is a Board and a column view over `columns`.
template <Color Us, class Columns, class Child>
void forEachChild(const Columns& columns, Board board, Child&& child) {
    if (const FirstJumps<Us> jumps(board); jumps.any()) {
        auto afterCapture = [&](Square from, const std::uint8_t* path, int length) {
            const bool promoted = (board.officerTop & bit(from)) == 0 &&
                                  (promotionRank(Us) & bit(path[length - 1])) != 0;
            child(ColumnsAfterCapture<Columns>(columns, from, path, length, promoted),
                  lasca::afterCapture<Us>(columns, board, from, path, length));
        };
        jumps.forEach(
            [&](Square from, Square to) {
                const std::uint8_t path[1] = {static_cast<std::uint8_t>(to)};
                afterCapture(from, path, 1);
            },
            [&](Square from, Square over, Square to) {
                auto visit = [&](const Move& m, int length) {
                    afterCapture(m.from, m.path.data(), length);
                };
                walkOnFrom(board, from, over, to, visit);
            });
        return;
    }
    forEachStep<Us>(board, [&](Square from, Square to) {
        const bool promoted =
            (board.officerTop & bit(from)) == 0 && (promotionRank(Us) & bit(to)) != 0;
        child(ColumnsAfterStep<Columns>(columns, from, to, promoted),
              afterStep<Us>(board, from, to));
    });
}

// perft(3) and perft(4) without make/unmake: each first move's subtree is counted on the board
// after it, reading the columns through a ColumnsAfterStep or ColumnsAfterCapture view; the
// positions two plies before the leaves hand their children to `leaves`.
template <Color Us, class Columns>
void countMoveTriples(const Columns& columns, Board board, LeafCounter<Us>& leaves) {
    forEachChild<Us>(columns, board, [&](const auto& next, Board nextBoard) {
        countMovePairs<~Us>(next, nextBoard, leaves);
    });
}

template <Color Us>
void countMoveQuadruples(const Position& pos, Board board, LeafCounter<~Us>& leaves) {
    forEachChild<Us>(ColumnsOf{pos}, board, [&](const auto& next, Board nextBoard) {
        countMoveTriples<~Us>(next, nextBoard, leaves);
    });
}

template <Color Us>
void generateMoves(Board board, MoveList& list) {
    if (const FirstJumps<Us> jumps(board); jumps.any()) {
        pushCaptures(board, jumps, list);
        return;
    }
    forEachStep<Us>(board, [&list](Square from, Square to) { list.pushStep(from, to); });
}

}  // namespace

bool hasCapture(const Position& pos) {
    const Board board = boardOf(pos);
    return board.us == Color::White ? FirstJumps<Color::White>(board).any()
                                    : FirstJumps<Color::Black>(board).any();
}

bool hasLegalMove(const Position& pos) {
    const Board board = boardOf(pos);
    return board.us == Color::White
               ? FirstJumps<Color::White>(board).any() || countSteps<Color::White>(board) > 0
               : FirstJumps<Color::Black>(board).any() || countSteps<Color::Black>(board) > 0;
}

template <Color By>
JumpThreats jumpThreatsOf(Board board) {
    const FirstJumps<By> jumps(board);
    JumpThreats threats;
    forEachDirection([&](auto d) {
        threats.jumpers |= jumps.movers[d];
        threats.targets |= shiftTo<d>(jumps.movers[d]);
    });
    return threats;
}

JumpThreats jumpThreats(const Position& pos, Color by) {
    const Board board = boardOf(pos);
    return by == Color::White ? jumpThreatsOf<Color::White>(board)
                              : jumpThreatsOf<Color::Black>(board);
}

int stepCount(const Position& pos, Color by) {
    const Board board = boardOf(pos);
    return static_cast<int>(by == Color::White ? countSteps<Color::White>(board)
                                               : countSteps<Color::Black>(board));
}

std::uint64_t countMoves(const Position& pos) {
    const Board board = boardOf(pos);
    return board.us == Color::White ? countMovesOf<Color::White>(board)
                                    : countMovesOf<Color::Black>(board);
}

// One batch of leaves per side to move.
struct PerftTally::Batches {
    LeafCounter<Color::White> white;
    LeafCounter<Color::Black> black;

    template <Color Us>
    LeafCounter<Us>& of() {
        if constexpr (Us == Color::White)
            return white;
        else
            return black;
    }
    template <Color Us>
    void add(const Position& pos, Board board, int plies) {
        if (plies == 2) countMovePairs<Us>(ColumnsOf{pos}, board, of<~Us>());
        if (plies == 3) countMoveTriples<Us>(ColumnsOf{pos}, board, of<Us>());
        if (plies == 4) countMoveQuadruples<Us>(pos, board, of<~Us>());
    }
};

PerftTally::PerftTally() : batches_(std::make_unique<Batches>()) {
}
PerftTally::~PerftTally() = default;

void PerftTally::add(const Position& pos, int plies) {
    if (plies <= 1) {
        counted_ += plies == 1 ? countMoves(pos) : 1;
        return;
    }
    if (plies > 4) {
        Position copy = pos;
        addAfterEachMove(copy, plies);
        return;
    }
    const Board board = boardOf(pos);
    if (board.us == Color::White)
        batches_->add<Color::White>(pos, board, plies);
    else
        batches_->add<Color::Black>(pos, board, plies);
}

void PerftTally::addAfterEachMove(Position& pos, int plies) {
    MoveList list;
    generateMoves(pos, list);
    Undo undo{};
    for (const Move& m : list) {
        pos.make(m, undo);
        if (plies - 1 > 4)
            addAfterEachMove(pos, plies - 1);
        else
            add(pos, plies - 1);
        pos.unmake(m, undo);
    }
}

std::uint64_t PerftTally::total() {
    return counted_ + batches_->white.total() + batches_->black.total();
}

std::uint64_t countMovePairs(const Position& pos) {
    PerftTally tally;
    tally.add(pos, 2);
    return tally.total();
}

std::uint64_t countMoveTriples(const Position& pos) {
    PerftTally tally;
    tally.add(pos, 3);
    return tally.total();
}

std::uint64_t countMoveQuadruples(const Position& pos) {
    PerftTally tally;
    tally.add(pos, 4);
    return tally.total();
}

void generateMoves(const Position& pos, MoveList& list) {
    list.clear();
    const Board board = boardOf(pos);
    if (board.us == Color::White)
        generateMoves<Color::White>(board, list);
    else
        generateMoves<Color::Black>(board, list);
}

}  // namespace lasca
