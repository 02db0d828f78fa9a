// Basic vocabulary of the rules core: squares, colours, pieces, bitboards and board geometry.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lasca {

// Square: index 0..24 of a playable square (R1). A square on file f (0..6, a..g) and rank r
// (0..6, 1..7) has index (7*r + f) / 2, so a1=0, c1=1, e1=2, g1=3, b2=4, ..., g7=24.
// With this numbering the four diagonal neighbours are fixed offsets:
//   north-east +4, north-west +3, south-east -3, south-west -4
// which lets whole sets of squares move with one shift (edge files are masked off).
using Square = int;
inline constexpr int kSquares = 25;
inline constexpr int kFiles = 7;
inline constexpr int kRanks = 7;
inline constexpr Square kNoSquare = -1;

// Bitboard: bit s set <=> square s is in the set. Only the low 25 bits are ever used.
using Bitboard = std::uint32_t;
inline constexpr Bitboard kAllSquares = (Bitboard{1} << kSquares) - 1;

constexpr Bitboard bit(Square s) {
    return Bitboard{1} << s;
}
constexpr int popcount(Bitboard b) {
    return std::popcount(b);
}
// popcount from shifts, masks and adds only: the same result, in a form compilers can vectorise
// for SIMD targets without a vector popcount instruction (movegen's leaf batches).
constexpr int popcountByShifts(Bitboard b) {
    b = b - ((b >> 1) & 0x55555555u);
    b = (b & 0x33333333u) + ((b >> 2) & 0x33333333u);
    b = (b + (b >> 4)) & 0x0F0F0F0Fu;
    b += b >> 8;
    b += b >> 16;
    return static_cast<int>(b & 0x3Fu);
}
constexpr Square lowestSquare(Bitboard b) {
    return std::countr_zero(b);
}
constexpr Bitboard withoutLowest(Bitboard b) {
    return b & (b - 1);
}

constexpr int fileOf(Square s) {
    return (2 * s) % kFiles;
}
constexpr int rankOf(Square s) {
    return (2 * s) / kFiles;
}
constexpr bool isPlayable(int file, int rank) {
    return file >= 0 && file < kFiles && rank >= 0 && rank < kRanks && (file + rank) % 2 == 0;
}
constexpr Square makeSquare(int file, int rank) {
    return isPlayable(file, rank) ? (kFiles * rank + file) / 2 : kNoSquare;
}

enum class Color : std::uint8_t { White = 0, Black = 1 };
constexpr Color operator~(Color c) {
    return c == Color::White ? Color::Black : Color::White;
}
constexpr int index(Color c) {
    return static_cast<int>(c);
}

// The colour's name as every protocol and file writes it: "white" or "black".
constexpr std::string_view colorName(Color c) {
    return c == Color::White ? "white" : "black";
}
// The colour named "white" or "black"; nothing for any other text.
constexpr std::optional<Color> parseColorName(std::string_view name) {
    if (name == "white") return Color::White;
    if (name == "black") return Color::Black;
    return std::nullopt;
}

// Piece: one piece of a column, 2 bits: bit 0 = black, bit 1 = officer (R3). Pieces never
// change colour; a soldier becomes an officer only by promotion while commanding (R8).
enum class Piece : std::uint8_t {
    WhiteSoldier = 0,
    BlackSoldier = 1,
    WhiteOfficer = 2,
    BlackOfficer = 3,
};
constexpr Color colorOf(Piece p) {
    return (static_cast<int>(p) & 1) ? Color::Black : Color::White;
}
constexpr bool isOfficer(Piece p) {
    return (static_cast<int>(p) & 2) != 0;
}
constexpr Piece makePiece(Color c, bool officer) {
    return static_cast<Piece>(index(c) | (officer ? 2 : 0));
}
char pieceChar(Piece p);                     // 'w', 'b', 'W', 'B'
std::optional<Piece> pieceFromChar(char c);  // inverse of pieceChar

// Diagonal directions, in the order the generator tries them (fixes move order everywhere).
enum Direction : int { NorthEast = 0, NorthWest = 1, SouthEast = 2, SouthWest = 3 };
inline constexpr int kDirections = 4;
inline constexpr std::array<int, kDirections> kDirectionOffset = {4, 3, -3, -4};

namespace detail {
constexpr Bitboard squaresWhere(bool (*pred)(int file, int rank)) {
    Bitboard b = 0;
    for (int s = 0; s < kSquares; ++s)
        if (pred(fileOf(s), rankOf(s))) b |= bit(s);
    return b;
}
}  // namespace detail

// Edge masks: a shift by +3/-4 must start off file a, a shift by +4/-3 off file g.
inline constexpr Bitboard kNotFileA = detail::squaresWhere([](int f, int) { return f != 0; });
inline constexpr Bitboard kNotFileG = detail::squaresWhere([](int f, int) { return f != 6; });
inline constexpr Bitboard kRank1 = detail::squaresWhere([](int, int r) { return r == 0; });
inline constexpr Bitboard kRank7 = detail::squaresWhere([](int, int r) { return r == 6; });

// The rank on which a soldier of this colour is promoted (R8).
constexpr Bitboard promotionRank(Color c) {
    return c == Color::White ? kRank7 : kRank1;
}

// Neighbour of s one step in direction d, or kNoSquare off the board.
constexpr Square neighbour(Square s, int d) {
    const int df = (d == NorthEast || d == SouthEast) ? 1 : -1;
    const int dr = (d == NorthEast || d == NorthWest) ? 1 : -1;
    return makeSquare(fileOf(s) + df, rankOf(s) + dr);
}

// The value of a position for the side to move, in centi-soldiers: a soldier commanding a
// single-piece column is worth about 100 (the evaluation's scale, shared by the search, the
// analysis and every program that reports scores). Scores beyond kMateBound mean a forced win
// (R9) and encode the distance: kMate - plies to the win.
using Score = int;
inline constexpr Score kMate = 30000;
inline constexpr Score kMaxPly = 128;
inline constexpr Score kMateBound = kMate - 2 * kMaxPly;
inline constexpr Score kInfinite = kMate + 1;
inline constexpr Score kDraw = 0;

// Square names "a1".."g7".
std::string squareName(Square s);
std::optional<Square> parseSquare(std::string_view text);

}  // namespace lasca
