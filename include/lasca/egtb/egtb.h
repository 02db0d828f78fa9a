// Exact endgame tables for Lasca (docs/egtb.md): every position with one column per side, and
// every position with two columns against one, of N pieces in all, solved by retrograde analysis
// under R1-R9 (T1/T2 off), written to checksummed files and probed by position.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "lasca/core/game.h"
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

// Whether a table's result holds for a position whose quiet-ply counter is `quietPlies` under
// `rules`: always without T2; with T2 a decisive result in d plies holds when quietPlies + d <=
// 100 (the winner's shortest line ends the game first), and otherwise the table cannot say
// whether T2 draws it first (docs/egtb.md, "T1 and T2").
inline bool resultHolds(const Probe& probe, int quietPlies, DrawRules rules) {
    return !rules.noProgress || quietPlies + probe.plies <= kNoProgressPlies;
}

// A table's result in words, from the colours' point of view: "White wins in 5 plies", "Black
// wins in 4 plies" (the table's distance: plies from the position to the end of the game under
// best play), "White wins in 1 ply", or "draw".
std::string verdictText(const Probe& probe, Color sideToMove);

// The two families of tables: one column a side (Layout), and two columns against one
// (TrioLayout, either colour with the two).
enum class Family : std::uint8_t { OneAgainstOne = 0, TwoAgainstOne = 1 };

// Table: the solved set of N pieces of one family, one byte a slot (see the values above).
struct Table {
    int pieces = 0;
    std::vector<std::uint8_t> values;
    Family family = Family::OneAgainstOne;
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

// ---- Two columns against one (docs/egtb.md, "Two columns against one").

// The piece counts of the two-against-one tables the generator takes.
inline constexpr int kMinTrioPieces = 3;
inline constexpr int kMaxTrioPieces = 6;

// Slots of one class: side to move (2) x the pair's lower square x its higher square x the lone
// column's square (25 each); only lower < higher, three distinct squares, are positions.
inline constexpr std::size_t kTrioSlotsPerClass = 2 * kSquares * kSquares * kSquares;

// TrioClass: the colour with two columns, their contents (the column on the lower square
// first) and the lone column's content (commanded by the other colour).
struct TrioClass {
    Color pair = Color::White;
    ColumnContent low;
    ColumnContent high;
    ColumnContent lone;
    friend bool operator==(const TrioClass&, const TrioClass&) = default;
};

// TrioLayout: the index of the set "two columns against one, N pieces", both colours with the
// pair. Classes are ordered by the pair's colour, the lower column's height, the higher one's,
// then the three contents; slot = class * 31250 + side * 15625 + low * 625 + high * 25 + lone.
class TrioLayout {
  public:
    explicit TrioLayout(int pieces);  // kMinTrioPieces <= pieces <= kMaxPieces
    int pieces() const { return pieces_; }
    std::size_t classCount() const { return classCount_; }
    std::size_t slotCount() const { return classCount_ * kTrioSlotsPerClass; }
    TrioClass classAt(std::size_t c) const;
    std::optional<std::size_t> classOf(const TrioClass& cls) const;
    std::optional<std::size_t> slotOf(const Position& pos) const;
    std::optional<Position> positionAt(std::size_t slot) const;
    bool isPosition(std::size_t slot) const;
    // Whether slot `within` (0..kTrioSlotsPerClass - 1) of a class of these contents is a
    // position: lower < higher square, three squares, no soldier commanding on its promotion
    // rank.
    static bool fits(const TrioClass& cls, std::size_t within);

  private:
    // Group: the classes of one pair colour and column heights, from `first` on.
    struct Group {
        Color pair;
        int low, high, lone;
        std::size_t first, count;
    };
    int pieces_;
    std::size_t classCount_ = 0;
    std::vector<Group> groups_;
};

// Solves the two-against-one set of `pieces` pieces, given the solved one-column-a-side table
// of the same count (a capture may lead there), over `jobs` threads (the result does not
// depend on it). Errors: a count out of range, a 1v1 table of another count, a distance that
// would not fit a byte.
common::Result<Table> generateTrio(int pieces, const Table& oneAgainstOne, int jobs);

// Files: `lasca-1v1-<N>.egtb` and `lasca-2v1-<N>.egtb` in a folder (the format: docs/egtb.md).
std::string tableFileName(int pieces, Family family = Family::OneAgainstOne);
common::Result<std::size_t> writeTable(const std::filesystem::path& path, const Table& table);
// A table read back, or an error naming the file and what is wrong (missing, truncated, bad
// magic or version, class index, checksum, a value out of range).
common::Result<Table> readTable(const std::filesystem::path& path);
// The same in memory: a table file's bytes (an error for a table whose size does not fit its
// family and piece count), and a file's bytes read back with every check of readTable, `name`
// (the file's path) starting each error.
common::Result<std::vector<std::uint8_t>> tableBytes(const Table& table);
common::Result<Table> parseTable(std::span<const std::uint8_t> bytes, const std::string& name);

// Tablebase: the tables of a folder, probed by position.
class Tablebase {
  public:
    // Every `lasca-1v1-<N>.egtb` and `lasca-2v1-<N>.egtb` of the folder; an error when the
    // folder is missing or any table file in it is bad (no table is kept then).
    static common::Result<Tablebase> open(const std::filesystem::path& folder);
    void add(Table table);
    // The piece counts of the tables of a family held.
    std::vector<int> pieceCounts(Family family = Family::OneAgainstOne) const;

    // The table's result for the side to move; nothing when no table holds the position.
    std::optional<Probe> probe(const Position& pos) const;
    std::optional<Wdl> probeWdl(const Position& pos) const;
    std::optional<int> probeDistance(const Position& pos) const;  // plies; 0 for a draw
    // The probe when its result holds under `rules` with the position's own quiet-ply counter
    // (resultHolds): what the search scores the position with; nothing otherwise.
    std::optional<Probe> probeUnder(const Position& pos, DrawRules rules) const;

  private:
    std::map<std::pair<Family, int>, Table> tables_;
};

}  // namespace lasca::egtb
