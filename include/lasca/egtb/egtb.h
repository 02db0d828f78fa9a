// Exact endgame tables for Lasca (docs/egtb.md): every position with one column per side and N
// pieces in all, solved by retrograde analysis under R1-R9 (T1/T2 off), written to checksummed
// files and probed by position.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "lasca/core/position.h"

namespace lasca::egtb {

// The piece counts the tables cover: 2 (one piece a side) up to 12 (colour counts stay within
// 11 each for every column pair, so no position of the set needs a further check).
inline constexpr int kMinPieces = 2;
inline constexpr int kMaxPieces = 12;

// Slots of one class: side to move (2) x white column's square (25) x black column's square
// (25). A slot is a position unless both columns share a square or a soldier commands on its
// promotion rank: 1200 of the 1250 slots are positions when both commanders are officers.
inline constexpr std::size_t kSlotsPerClass = 2 * kSquares * kSquares;

// ColumnContent: the pieces of one column, as Position stores them (top first, 2 bits each).
struct ColumnContent {
    ColumnBits bits = 0;
    int height = 0;
    friend bool operator==(const ColumnContent&, const ColumnContent&) = default;
};

// TableClass: the contents of the two columns. The white column's commander is white, the
// black column's black; each holds its commander's block over a (maybe empty) prisoner block.
struct TableClass {
    ColumnContent white;
    ColumnContent black;
    friend bool operator==(const TableClass&, const TableClass&) = default;
};

// Layout: the index of the set "one column per side, N pieces". A column of height h owned by
// one colour has h * 2^h contents (commander block length 1..h, each piece soldier or officer);
// classes are ordered by the white column's height, then the white content, then the black
// content; slot = class * 1250 + side * 625 + whiteSquare * 25 + blackSquare.
class Layout {
  public:
    explicit Layout(int pieces);  // kMinPieces <= pieces <= kMaxPieces
    int pieces() const { return pieces_; }
    std::size_t classCount() const { return classCount_; }
    std::size_t slotCount() const { return classCount_ * kSlotsPerClass; }

    TableClass classAt(std::size_t c) const;
    // The class of two columns, nothing when they are not of this set (heights, owners, more
    // than two colour blocks).
    std::optional<std::size_t> classOf(const TableClass& cls) const;

    // The slot of a position of this set; nothing for any other position.
    std::optional<std::size_t> slotOf(const Position& pos) const;
    // The position of a slot (counters 0 and 1); nothing when the slot is not a position.
    std::optional<Position> positionAt(std::size_t slot) const;

  private:
    int pieces_;
    std::size_t classCount_ = 0;
    std::vector<std::size_t> heightOffset_;  // first class whose white column has height h
};

// The index of a content among the contents of its owner's columns of the same height:
// (commander block length - 1) * 2^h + officer pattern; nothing when the column is empty or
// holds more than two colour blocks.
std::optional<std::size_t> contentIndex(const ColumnContent& column);
ColumnContent contentAt(Color owner, int height, std::size_t index);
inline std::size_t contentCount(int height) {
    return static_cast<std::size_t>(height) << height;
}

// A table entry, one byte a slot:
//   0          draw (neither side can force R9)
//   1..254     decisive: value - 1 plies to the end under best play (the winner wins fastest,
//              the loser loses slowest); an odd count of plies is a win for the side to move,
//              an even one a loss (0: the side to move has no move)
//   255        the slot is not a position
inline constexpr std::uint8_t kDrawValue = 0;
inline constexpr std::uint8_t kNotPosition = 255;
inline constexpr int kMaxDistance = 253;

enum class Wdl : std::int8_t { Loss = -1, Draw = 0, Win = 1 };

// What a table says of a position, for the side to move.
struct Probe {
    Wdl wdl = Wdl::Draw;
    int plies = 0;  // plies to the end under best play; 0 for a draw
};

inline Probe decodeValue(std::uint8_t v) {
    if (v == kDrawValue) return {};
    const int plies = v - 1;
    return {plies % 2 == 1 ? Wdl::Win : Wdl::Loss, plies};
}

// Table: the solved set of N pieces, one byte a slot (see the values above).
struct Table {
    int pieces = 0;
    std::vector<std::uint8_t> values;
};

// Counts of a solved table.
struct TableStats {
    std::size_t positions = 0;
    std::size_t wins = 0;
    std::size_t draws = 0;
    std::size_t losses = 0;
    int maxPlies = 0;  // the longest win or loss
};
TableStats statsOf(const Table& table);

// Solves the set of `pieces` pieces over `jobs` threads (the result does not depend on it).
// An error only when a distance would not fit a byte.
common::Result<Table> generate(int pieces, int jobs);

// Files: `lasca-1v1-<N>.egtb` in a folder (the format: docs/egtb.md).
std::string tableFileName(int pieces);
common::Result<std::size_t> writeTable(const std::filesystem::path& path, const Table& table);
// A table read back, or an error naming the file and what is wrong (missing, truncated, bad
// magic or version, class index, checksum, a value out of range).
common::Result<Table> readTable(const std::filesystem::path& path);

// Tablebase: the tables of a folder, probed by position.
class Tablebase {
  public:
    // Every `lasca-1v1-<N>.egtb` of the folder; an error when the folder is missing or any
    // table file in it is bad (no table is kept then).
    static common::Result<Tablebase> open(const std::filesystem::path& folder);
    void add(Table table);
    std::vector<int> pieceCounts() const;

    // The table's result for the side to move; nothing when no table holds the position.
    std::optional<Probe> probe(const Position& pos) const;
    std::optional<Wdl> probeWdl(const Position& pos) const;
    std::optional<int> probeDistance(const Position& pos) const;  // plies; 0 for a draw

  private:
    std::map<int, Table> tables_;
};

}  // namespace lasca::egtb
