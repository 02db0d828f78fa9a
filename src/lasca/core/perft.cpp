#include "lasca/core/perft.h"

#include <atomic>

#include "board_moves.h"
#include "lasca/core/movegen.h"

namespace lasca {

using namespace detail;

namespace {

// ---------------------------------------------------------------------------------------------
// Counting many leaves at once.
//
// perft's last ply asks millions of boards one question: how many legal moves has the side to
// move? countMovesOf answers it for one board with a few dozen bitboard operations and two or
// three branches the CPU cannot predict (capture or not, does a capture go on). LeafCounter
// (below) answers it for many boards at once, in one loop without branches that the compiler
// turns into SIMD code.

// The number of squares in b, in a form the compiler can vectorise in the leaf batches: the
// popcount instruction where the batch is compiled for a SIMD one (AVX-512 VPOPCNTDQ:
// kSimdPopcount), else shifts, masks and adds (a SIMD popcount is what makes the batch loop worth
// vectorising: without one, GCC leaves a popcount loop scalar).
template <bool kSimdPopcount>
[[gnu::always_inline]] constexpr std::uint32_t laneCount(Bitboard b) {
    if constexpr (kSimdPopcount)
        return static_cast<std::uint32_t>(popcount(b));
    else
        return static_cast<std::uint32_t>(popcountByShifts(b));
}

// The leaf batches' code paths, compiled each for its instruction set and chosen at run time
// (so one portable binary counts with AVX-512 where the CPU has it): the best the CPU runs,
// unless usePerftSimd chose another. Index into kBatchPaths; -1: not chosen yet.
enum class BatchPath : std::uint8_t { Avx512, Avx2, Plain };
struct BatchPathInfo {
    BatchPath path;
    const char* name;
};
constexpr std::array<BatchPathInfo, 3> kBatchPaths = {
    {{BatchPath::Avx512, "avx512"}, {BatchPath::Avx2, "avx2"}, {BatchPath::Plain, "plain"}}};
std::atomic<int> gBatchPath{-1};

bool cpuRuns(BatchPath path) {
    switch (path) {
        case BatchPath::Avx512:
            return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                   __builtin_cpu_supports("avx512vpopcntdq");
        case BatchPath::Avx2:
            return __builtin_cpu_supports("avx2");
        case BatchPath::Plain:
            return true;
    }
    return false;
}

BatchPath batchPath() {
    int index = gBatchPath.load(std::memory_order_relaxed);
    if (index < 0) {
        index = 0;
        while (!cpuRuns(kBatchPaths[static_cast<std::size_t>(index)].path)) ++index;
        gBatchPath.store(index, std::memory_order_relaxed);
    }
    return kBatchPaths[static_cast<std::size_t>(index)].path;
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
template <int D, Color Us, bool kSimdPopcount>
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
            count += laneCount<kSimdPopcount>(officerSecond & ~officerGoesOn);
            longer |= officerSecond & officerGoesOn;
            if constexpr (Jumps::isForward(D) && Jumps::isForward(e)) {
                const Bitboard soldierSecond =
                    shiftTo<e>(shiftTo<e>(first.soldiersGoingOn & jumpFrom[e]));
                count += laneCount<kSimdPopcount>(soldierSecond & ~soldierGoesOn);
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

    void flush() {
        // Whole vectors only: the boards past size_ are empty and count zero.
        const int rounded = (size_ + kLanes - 1) / kLanes * kLanes;
        for (int i = size_; i < rounded; ++i)
            occupied_[at(i)] = whiteTop_[at(i)] = officerTop_[at(i)] = 0;
        Bitboard anyLonger = 0;
        switch (batchPath()) {
            case BatchPath::Avx512:
                total_ += countAvx512(rounded, anyLonger);
                break;
            case BatchPath::Avx2:
                total_ += countAvx2(rounded, anyLonger);
                break;
            case BatchPath::Plain:
                total_ += countPlain(rounded, anyLonger);
                break;
        }
        if (anyLonger) finishLonger();
        size_ = 0;
    }

    // The batch loop, once per instruction set (the body is the same: the compiler vectorises
    // it for each target).
    [[gnu::target(
        "avx512f,avx512vl,avx512vpopcntdq,avx512bw,avx512dq,avx2,popcnt")]] [[gnu::noinline]] std::
        uint32_t
        countAvx512(int rounded, Bitboard& anyLonger) {
        return countBatch<true>(rounded, anyLonger);
    }
    [[gnu::target("avx2,popcnt")]] [[gnu::noinline]] std::uint32_t countAvx2(int rounded,
                                                                             Bitboard& anyLonger) {
        return countBatch<false>(rounded, anyLonger);
    }
    [[gnu::noinline]] std::uint32_t countPlain(int rounded, Bitboard& anyLonger) {
        return countBatch<false>(rounded, anyLonger);
    }

    template <bool kSimdPopcount>
    [[gnu::always_inline]] std::uint32_t countBatch(int rounded, Bitboard& anyLongerOut) {
        // Locals only in the loop (a write through anyLongerOut could alias the boards and
        // would keep the loop scalar).
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
                captures += laneCount<kSimdPopcount>(l.all & ~l.continuing());
                twoJumps += countTwoJumpCaptures<d, Us, kSimdPopcount>(jumps, l, longer);
                continuing[d] = l.continuing();
                steps += laneCount<kSimdPopcount>(movers.template targets<d>());
            });
            const Bitboard keep = longer ? ~Bitboard{0} : 0;
            for (int d = 0; d < kDirections; ++d)
                continuing_[at(d)][at(i)] = continuing[at(d)] & keep;
            count += jumps.any() ? captures + (longer ? 0 : twoJumps) : steps;
            anyLonger |= longer;
        }
        anyLongerOut = anyLonger;
        return count;
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

}  // namespace

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

std::uint64_t perft(Position& pos, int depth) {
    PerftTally tally;
    tally.add(pos, depth);
    return tally.total();
}

std::vector<DivideLine> divide(Position& pos, int depth) {
    std::vector<DivideLine> lines;
    if (depth <= 0) return lines;
    MoveList list;
    generateMoves(pos, list);
    Undo undo;
    for (const Move& m : list) {
        pos.make(m, undo);
        lines.push_back({m, perft(pos, depth - 1)});
        pos.unmake(m, undo);
    }
    return lines;
}

std::vector<std::string> supportedPerftSimd() {
    std::vector<std::string> names;
    for (const auto& p : kBatchPaths)
        if (cpuRuns(p.path)) names.emplace_back(p.name);
    return names;
}

const char* perftSimdName() {
    return kBatchPaths[static_cast<std::size_t>(static_cast<int>(batchPath()))].name;
}

bool usePerftSimd(std::string_view name) {
    for (std::size_t i = 0; i < kBatchPaths.size(); ++i)
        if (kBatchPaths[i].name == name && cpuRuns(kBatchPaths[i].path)) {
            gBatchPath.store(static_cast<int>(i), std::memory_order_relaxed);
            return true;
        }
    return false;
}

}  // namespace lasca
