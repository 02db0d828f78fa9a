// Board geometry of Torneio (D1, D2, G5): square names, dark squares, home zones and the
// neighbour tables of warrior and king moves, precomputed once per Params.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "torneio/rules/params.h"

namespace torneio {

// Square: index rank * boardSize + file, files 0.. (a..) west to east, ranks 0.. (1..) south to
// north (D1), so a1 = 0 and, on 10x10, j10 = 99. kNoSquare marks "no square" (a dead piece, an
// unused field). At most 16 * 16 = 256 squares.
using Square = int;
inline constexpr Square kNoSquare = -1;

// Square names like chess (D1): file letter then rank number, "a1", "c10", "j10".
// parseSquare accepts only lowercase names of squares on a board of that size, without
// leading zeros ("a01" is an error).
std::string squareName(Square square, int boardSize);
common::Result<Square> parseSquare(std::string_view text, int boardSize);

// SquareList: a short list of squares (fixed capacity 8, no allocation): the squares one piece
// can reach in one move. Order is fixed by the tables (see Geometry), so results are
// deterministic. Size: 36 bytes.
struct SquareList {
    static constexpr int kCapacity = 8;
    std::array<Square, kCapacity> items{};
    int count = 0;

    void push(Square s) { items[static_cast<std::size_t>(count++)] = s; }
    bool contains(Square s) const;
    const Square* begin() const { return items.data(); }
    const Square* end() const { return items.data() + count; }
    int size() const { return count; }
    bool empty() const { return count == 0; }
    Square operator[](int i) const { return items[static_cast<std::size_t>(i)]; }
};

// The 8 directions of a warrior step (G5), in table order: N, NE, E, SE, S, SW, W, NW.
// The king uses the orthogonal ones (N, E, S, W = directions 0, 2, 4, 6).
inline constexpr int kDirections = 8;
inline constexpr std::array<int, 4> kOrthogonalDirections{0, 2, 4, 6};

// Geometry: everything about the board that does not change during a game.
//
// What it holds
//   params_          the game's Params (validated), so that every function taking a Geometry
//                    also knows the strength total, the pass rule, ...
//   step_[s][d]      the square one step from s in direction d, kNoSquare off the board
//   warriorSteps_[s] the on-board squares one step from s in the 8 directions (G5), in
//                    direction order; 3 (corner), 5 (edge) or 8 squares
//   zones_[seat]     the dark squares of the seat's home zone (D2), ascending
//   zoneMask_        per square, bit `seat` set when the square is in that seat's zone
// Invariants: zones of different seats are disjoint; every zone square is dark; each zone has
// at least 4 squares.
// Size: 224 bytes plus about 65 bytes per square (6.5 KB for 10x10), built once per game and
// shared (State holds it through a shared_ptr).
class Geometry {
  public:
    // params must pass validateParams (checked: an invalid Params gives the defaults of its
    // seat count clamped to 2..4, so that a Geometry is always usable). Prefer makeGeometry.
    explicit Geometry(const Params& params);

    const Params& params() const { return params_; }
    int size() const { return params_.boardSize; }
    int squareCount() const { return params_.boardSize * params_.boardSize; }
    int seats() const { return params_.seats; }

    int fileOf(Square s) const { return s % size(); }
    int rankOf(Square s) const { return s / size(); }
    bool onBoard(Square s) const { return s >= 0 && s < squareCount(); }
    // The square at (file, rank), kNoSquare when off the board.
    Square at(int file, int rank) const;
    // D1: dark when file index + rank index is even (a1 is dark).
    bool isDark(Square s) const { return (fileOf(s) + rankOf(s)) % 2 == 0; }

    std::string name(Square s) const { return squareName(s, size()); }
    common::Result<Square> parse(std::string_view text) const { return parseSquare(text, size()); }

    // One step from s in direction d (0..7, see kDirections), kNoSquare off the board.
    Square step(Square s, int direction) const;
    // G5 warrior moves ignoring other pieces: the on-board neighbours of s in direction order.
    std::span<const Square> warriorSteps(Square s) const;

    // D2 home zone of a seat: its dark squares, ascending (8 on 8x8 with 2 seats, 6 on 10x10).
    std::span<const Square> zone(int seat) const;
    bool inZone(int seat, Square s) const;
    Side side(int seat) const { return sideOfSeat(seats(), seat); }

  private:
    Params params_;
    std::vector<std::array<Square, kDirections>> step_;
    std::vector<Square> warriorStepData_;           // all lists one after the other
    std::vector<std::uint16_t> warriorStepOffset_;  // squareCount + 1 offsets into the data
    std::array<std::vector<Square>, kMaxSeats> zones_;
    std::vector<std::uint8_t> zoneMask_;
};

// A Geometry for params, or the reason the params are not playable (validateParams).
common::Result<Geometry> makeGeometry(const Params& params);

}  // namespace torneio
