// Moves as ordered paths, and the fixed-capacity list the generator fills.
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "lasca/core/types.h"

namespace lasca {

// The most jumps one capture can make: every jump crosses a different square (R7) and only the
// 13 squares off the board's edge can be jumped.
inline constexpr int kMaxJumps = 13;

// Move: one step or one whole capture sequence (R4-R6), 16 bytes.
//   from      the square the column starts on
//   length    number of landing squares (1 for a step, number of jumps for a capture)
//   capture   true for a capture; the jumped squares are the midpoints of consecutive path
//             squares, so the landing squares alone determine the move (and its notation)
//   path      landing squares in the order they are reached; the order matters because it
//             decides the order in which prisoners go under the column (R5)
// Two moves are equal when from and the landing squares are equal.
// Move is trivially constructible so that a MoveList is not zeroed on creation: write
// `Move m{}` for a zeroed (null) move.
struct Move {
    std::uint8_t from;
    std::uint8_t length;
    bool capture;
    std::array<std::uint8_t, kMaxJumps> path;

    Square origin() const { return from; }
    Square destination() const { return path[static_cast<std::size_t>(length - 1)]; }
    Square landing(int i) const { return path[static_cast<std::size_t>(i)]; }
    // Square jumped by the i-th jump (captures only): the midpoint of the two path squares.
    Square jumped(int i) const { return ((i == 0 ? from : landing(i - 1)) + landing(i)) / 2; }
    bool isNull() const { return length == 0; }

    friend bool operator==(const Move& a, const Move& b) {
        if (a.from != b.from || a.length != b.length || a.capture != b.capture) return false;
        for (int i = 0; i < a.length; ++i)
            if (a.path[static_cast<std::size_t>(i)] != b.path[static_cast<std::size_t>(i)])
                return false;
        return true;
    }
};
static_assert(sizeof(Move) == 16);
static_assert(std::is_trivial_v<Move>);

// MoveList: the legal moves of one position, in generation order (by square, then by
// direction), with room for the worst case. kMaxMoves is an upper bound found by searching for
// the positions with the most legal moves (see tests/lasca/core/movegen_test.cpp, WorstCaseFitsTheList);
// the largest count we could construct is far below it.
inline constexpr std::size_t kMaxMoves = 256;

class MoveList {
  public:
    void push(const Move& m) {
        assert(count_ < kMaxMoves);
        moves_[count_++] = m;
    }
    // Appends a step, written in place (building a Move elsewhere and copying it in costs a
    // store-forwarding stall on the generator's hot path).
    void pushStep(Square from, Square to) { pushOneLanding(from, to, false); }
    void pushSingleJump(Square from, Square to) { pushOneLanding(from, to, true); }
    std::size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    void clear() { count_ = 0; }
    const Move& operator[](std::size_t i) const { return moves_[i]; }
    Move& operator[](std::size_t i) { return moves_[i]; }
    const Move* begin() const { return moves_.data(); }
    const Move* end() const { return moves_.data() + count_; }
    Move* begin() { return moves_.data(); }
    Move* end() { return moves_.data() + count_; }
    bool contains(const Move& m) const {
        for (const Move& x : *this)
            if (x == m) return true;
        return false;
    }

  private:
    void pushOneLanding(Square from, Square to, bool capture) {
        assert(count_ < kMaxMoves);
        Move& m = moves_[count_++];
        m = Move{};
        m.from = static_cast<std::uint8_t>(from);
        m.length = 1;
        m.capture = capture;
        m.path[0] = static_cast<std::uint8_t>(to);
    }

    std::size_t count_ = 0;
    std::array<Move, kMaxMoves> moves_;  // only [0, count_) is initialised
};

}  // namespace lasca
