// The board: columns of pieces on the 25 squares, side to move, counters and hash key.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"
#include "lasca/core/move.h"
#include "lasca/core/types.h"

namespace lasca {

using Key = std::uint64_t;

// Column: the pieces stacked on one square, top (commander) first, 2 bits per piece as in
// Piece: piece i from the top sits in bits 2i (black) and 2i+1 (officer). With the top in the
// low bits, taking the commander is a shift right by 2 and putting a prisoner under the column
// is an OR at bit 2*height. The height is kept beside it, since a white soldier is 00.
// A column holds at most 22 pieces (11 of each colour), so 44 bits are used.
using ColumnBits = std::uint64_t;
inline constexpr int kMaxColumnHeight = 22;
inline constexpr int kPiecesPerSide = 11;

// Everything make() changes that unmake() cannot recompute, saved per ply by the caller.
struct Undo {
    Key key;
    ColumnBits moverColumn;   // the moving column before the move
    std::uint32_t takenTops;  // commanders taken, 2 bits each in jump order
    std::int32_t quietPlies;
    std::uint8_t moverHeight;
};

// Position: the state of a game at one moment.
//
// What it holds
//   occupied_      squares holding a column
//   whiteTop_      squares whose commander is white   (subset of occupied_)
//   officerTop_    squares whose commander is an officer (subset of occupied_)
//   columns_[s]    the column on s (ColumnBits), 0 when empty
//   heights_[s]    number of pieces on s, 0 when empty
//   sideToMove_, quietPlies_ (T2: plies since the last capture or soldier move),
//   moveNumber_ (starts at 1, grows after each Black move), key_ (hash of all the above
//   that defines the game state for repetition: columns and side to move).
// Invariants (checked by validate())
//   the three bitboards agree with the commanders of columns_; heights_[s] == 0 exactly when
//   s is empty; at most 11 pieces of each colour on the board; no white soldier commands on
//   rank 7 and no black soldier on rank 1 (it would have been promoted); every column has at
//   most two colour blocks (its commander's colour over the other's); key_ == computeKey().
// Size: 3*4 + 25*8 + 25 + 1 + 4 + 4 + 8 bytes, padded to 264 bytes.
//
// The key: the XOR over occupied squares of columnKey(s, column, height), plus a constant when
// Black is to move. columnKey mixes the 54-bit tuple (square, height, column bits) with a fixed
// seed through a bijective 64-bit mixer, so a whole column's key costs one mix to add or remove
// whatever its height. That is Zobrist hashing with the table entry computed on demand: a table
// over every column content would be astronomically large.
class Position {
  public:
    Position();  // empty board, White to move
    static Position startPosition();
    static common::Result<Position> fromLfen(std::string_view lfen);
    std::string toLfen() const;

    // Board queries.
    Bitboard occupied() const { return occupied_; }
    Bitboard empty() const { return ~occupied_ & kAllSquares; }
    Bitboard commandedBy(Color c) const {
        return c == Color::White ? whiteTop_ : occupied_ & ~whiteTop_;
    }
    Bitboard officers() const { return officerTop_; }
    Bitboard soldiers() const { return occupied_ & ~officerTop_; }
    int height(Square s) const { return heights_[static_cast<std::size_t>(s)]; }
    ColumnBits column(Square s) const { return columns_[static_cast<std::size_t>(s)]; }
    Piece pieceAt(Square s, int depthFromTop) const {
        return static_cast<Piece>((column(s) >> (2 * depthFromTop)) & 3);
    }
    Piece commander(Square s) const { return pieceAt(s, 0); }
    int pieceCount(Color c) const;  // pieces of colour c anywhere, prisoners included

    Color sideToMove() const { return sideToMove_; }
    int quietPlies() const { return quietPlies_; }
    int moveNumber() const { return moveNumber_; }
    Key key() const { return key_; }
    Key computeKey() const;  // from scratch, for tests

    // Make a legal move (from the generator); the caller keeps the Undo for unmake.
    void make(const Move& m, Undo& undo);
    void unmake(const Move& m, const Undo& undo);

    // Editing, for set-up and tests. Keep the key and bitboards in step.
    void setColumn(Square s, ColumnBits bits, int height);
    void clearSquare(Square s) { setColumn(s, 0, 0); }
    void setSideToMove(Color c);
    void setCounters(int quietPlies, int moveNumber);

    // Empty string when every invariant above holds, else what is wrong.
    std::string validate() const;

    friend bool operator==(const Position&, const Position&) = default;

    static constexpr int kMaxQuietPlies = 1'000'000;
    static constexpr int kMaxMoveNumber = 1'000'000;

  private:
    void makeStep(const Move& m, Undo& undo);
    void placeColumn(Square s, ColumnBits bits, int height);
    void removeColumn(Square s);
    void refreshCommander(Square s);

    Bitboard occupied_ = 0;
    Bitboard whiteTop_ = 0;
    Bitboard officerTop_ = 0;
    std::array<ColumnBits, kSquares> columns_{};
    std::array<std::uint8_t, kSquares> heights_{};
    Color sideToMove_ = Color::White;
    std::int32_t quietPlies_ = 0;
    std::int32_t moveNumber_ = 1;
    Key key_ = 0;
};

Key columnKey(Square s, ColumnBits bits, int height);
Key sideKey();

// Column text as in LFEN: top first, "w" "W" "b" "B" per piece; "-" for an empty square.
std::string columnText(ColumnBits bits, int height);

inline constexpr std::string_view kStartLfen =
    "b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w 0 1";

}  // namespace lasca
