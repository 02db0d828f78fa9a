#include "lasca/core/position.h"

#include <bit>
#include <vector>

#include "common/text.h"

namespace lasca {

namespace {

constexpr std::uint64_t kKeySeed = 0x6c617363615f3131ULL;  // "lasca_11": the fixed seed

// splitmix64's finalizer: a bijection on 64-bit words with good avalanche.
constexpr std::uint64_t mix64(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

constexpr std::size_t at(Square s) {
    return static_cast<std::size_t>(s);
}

// The colour blocks of a column of `height` pieces (1 to kMaxColumnHeight): its runs of pieces
// of one colour, top to bottom. Play makes at most two, the commander's colour over the
// other's: a capture adds the taken piece, of the other colour, at the bottom, and being
// captured removes the top.
constexpr int colourBlocks(ColumnBits bits, int height) {
    constexpr ColumnBits kColourBits = 0x5555555555555555ULL;  // bit 0 of each piece: black
    const ColumnBits colours = bits & kColourBits & ((ColumnBits{1} << (2 * height)) - 1);
    const ColumnBits pairs = (ColumnBits{1} << (2 * (height - 1))) - 1;  // all but the last
    return 1 + std::popcount((colours ^ (colours >> 2)) & pairs);
}
static_assert(colourBlocks(0b0001, 2) == 2 && colourBlocks(0b010001, 3) == 3);
static_assert(colourBlocks(0b0101, 2) == 1 && colourBlocks(0b11, 1) == 1);

}  // namespace

Key columnKey(Square s, ColumnBits bits, int height) {
    const std::uint64_t tuple =
        bits ^ (static_cast<std::uint64_t>(height) << 44) ^ (static_cast<std::uint64_t>(s) << 49);
    return mix64(tuple ^ kKeySeed);
}

Key sideKey() {
    return mix64(kKeySeed ^ 0xffffffffffffffffULL);
}

std::string columnText(ColumnBits bits, int height) {
    if (height == 0) return "-";
    std::string text;
    for (int i = 0; i < height; ++i) text += pieceChar(static_cast<Piece>((bits >> (2 * i)) & 3));
    return text;
}

Position::Position() = default;

Position Position::startPosition() {
    return fromLfen(kStartLfen).value();
}

int Position::pieceCount(Color c) const {
    int count = 0;
    for (Square s = 0; s < kSquares; ++s)
        for (int i = 0; i < height(s); ++i) count += colorOf(pieceAt(s, i)) == c;
    return count;
}

Key Position::computeKey() const {
    Key k = sideToMove_ == Color::Black ? sideKey() : 0;
    for (Square s = 0; s < kSquares; ++s)
        if (heights_[at(s)] > 0) k ^= columnKey(s, columns_[at(s)], heights_[at(s)]);
    return k;
}

void Position::refreshCommander(Square s) {
    const Piece top = static_cast<Piece>(columns_[at(s)] & 3);
    const Bitboard b = bit(s);
    whiteTop_ = colorOf(top) == Color::White ? whiteTop_ | b : whiteTop_ & ~b;
    officerTop_ = isOfficer(top) ? officerTop_ | b : officerTop_ & ~b;
}

void Position::placeColumn(Square s, ColumnBits bits, int height) {
    columns_[at(s)] = bits;
    heights_[at(s)] = static_cast<std::uint8_t>(height);
    occupied_ |= bit(s);
    refreshCommander(s);
    key_ ^= columnKey(s, bits, height);
}

void Position::removeColumn(Square s) {
    key_ ^= columnKey(s, columns_[at(s)], heights_[at(s)]);
    columns_[at(s)] = 0;
    heights_[at(s)] = 0;
    occupied_ &= ~bit(s);
    whiteTop_ &= ~bit(s);
    officerTop_ &= ~bit(s);
}

void Position::setColumn(Square s, ColumnBits bits, int height) {
    if (heights_[at(s)] > 0) removeColumn(s);
    if (height > 0) placeColumn(s, bits, height);
}

void Position::setSideToMove(Color c) {
    if (c != sideToMove_) key_ ^= sideKey();
    sideToMove_ = c;
}

void Position::setCounters(int quietPlies, int moveNumber) {
    quietPlies_ = quietPlies;
    moveNumber_ = moveNumber;
}

// A step changes two squares: the column moves, possibly promoting its commander (R8).
void Position::makeStep(const Move& m, Undo& undo) {
    const Square from = m.from, to = m.path[0];
    const Bitboard fromBit = bit(from), toBit = bit(to);
    const ColumnBits before = columns_[at(from)];
    const int h = heights_[at(from)];
    const bool soldier = (before & 2) == 0;
    const bool promotes = soldier && (promotionRank(sideToMove_) & toBit);
    const ColumnBits after = before | (promotes ? 2 : 0);

    undo.key = key_;
    undo.quietPlies = quietPlies_;
    undo.moverColumn = before;
    undo.moverHeight = static_cast<std::uint8_t>(h);
    undo.takenTops = 0;

    columns_[at(from)] = 0;
    heights_[at(from)] = 0;
    columns_[at(to)] = after;
    heights_[at(to)] = static_cast<std::uint8_t>(h);
    occupied_ ^= fromBit | toBit;
    if (whiteTop_ & fromBit) whiteTop_ ^= fromBit | toBit;
    if ((after & 2) != 0) officerTop_ = (officerTop_ & ~fromBit) | toBit;
    key_ ^= columnKey(from, before, h) ^ columnKey(to, after, h) ^ sideKey();

    if (soldier) {
        quietPlies_ = 0;
    } else if (quietPlies_ < kMaxQuietPlies) {
        ++quietPlies_;
    }
    if (sideToMove_ == Color::Black && moveNumber_ < kMaxMoveNumber) ++moveNumber_;
    sideToMove_ = ~sideToMove_;
}

void Position::make(const Move& m, Undo& undo) {
    if (!m.capture) {
        makeStep(m, undo);
        return;
    }
    const Square from = m.from;
    ColumnBits mover = columns_[at(from)];
    int moverHeight = heights_[at(from)];
    const bool soldier = (mover & 2) == 0;

    undo.key = key_;
    undo.quietPlies = quietPlies_;
    undo.moverColumn = mover;
    undo.moverHeight = static_cast<std::uint8_t>(moverHeight);
    undo.takenTops = 0;

    removeColumn(from);
    if (m.capture) {
        for (int i = 0; i < m.length; ++i) {
            const Square victim = m.jumped(i);
            const ColumnBits taken = columns_[at(victim)] & 3;
            const ColumnBits rest = columns_[at(victim)] >> 2;
            const int restHeight = heights_[at(victim)] - 1;
            removeColumn(victim);
            if (restHeight > 0) placeColumn(victim, rest, restHeight);  // next piece commands
            undo.takenTops |= static_cast<std::uint32_t>(taken) << (2 * i);
            mover |= taken << (2 * moverHeight);  // the prisoner goes to the bottom (R5)
            ++moverHeight;
        }
        quietPlies_ = 0;
    } else if (soldier) {
        quietPlies_ = 0;
    } else if (quietPlies_ < kMaxQuietPlies) {
        ++quietPlies_;
    }

    const Square to = m.destination();
    if (soldier && (promotionRank(sideToMove_) & bit(to))) mover |= 2;  // R8: commander only
    placeColumn(to, mover, moverHeight);

    if (sideToMove_ == Color::Black && moveNumber_ < kMaxMoveNumber) ++moveNumber_;
    sideToMove_ = ~sideToMove_;
    key_ ^= sideKey();
}

void Position::unmake(const Move& m, const Undo& undo) {
    sideToMove_ = ~sideToMove_;
    if (sideToMove_ == Color::Black) --moveNumber_;
    key_ = undo.key;
    quietPlies_ = undo.quietPlies;

    if (!m.capture) {
        const Square from = m.from, to = m.path[0];
        const Bitboard fromBit = bit(from), toBit = bit(to);
        columns_[at(to)] = 0;
        heights_[at(to)] = 0;
        columns_[at(from)] = undo.moverColumn;
        heights_[at(from)] = undo.moverHeight;
        occupied_ ^= fromBit | toBit;
        if (whiteTop_ & toBit) whiteTop_ ^= fromBit | toBit;
        officerTop_ &= ~toBit;
        if ((undo.moverColumn & 2) != 0) officerTop_ |= fromBit;
        return;
    }

    const Square to = m.destination();
    columns_[at(to)] = 0;
    heights_[at(to)] = 0;
    occupied_ &= ~bit(to);
    whiteTop_ &= ~bit(to);
    officerTop_ &= ~bit(to);

    if (m.capture) {
        for (int i = m.length - 1; i >= 0; --i) {
            const Square victim = m.jumped(i);
            const ColumnBits taken = (undo.takenTops >> (2 * i)) & 3;
            columns_[at(victim)] = (columns_[at(victim)] << 2) | taken;
            ++heights_[at(victim)];
            occupied_ |= bit(victim);
            refreshCommander(victim);
        }
    }
    const Square from = m.from;
    columns_[at(from)] = undo.moverColumn;
    heights_[at(from)] = undo.moverHeight;
    occupied_ |= bit(from);
    refreshCommander(from);
}

std::string Position::validate() const {
    Bitboard occ = 0, white = 0, officer = 0;
    for (Square s = 0; s < kSquares; ++s) {
        const int h = heights_[at(s)];
        if (h < 0 || h > kMaxColumnHeight) return "bad height on " + squareName(s);
        if (h == 0) {
            if (columns_[at(s)] != 0) return "pieces on empty square " + squareName(s);
            continue;
        }
        if (h < 32 && (columns_[at(s)] >> (2 * h)) != 0)
            return "bits above the column's height on " + squareName(s);
        occ |= bit(s);
        const Piece top = commander(s);
        if (colorOf(top) == Color::White) white |= bit(s);
        if (isOfficer(top)) officer |= bit(s);
        if (top == Piece::WhiteSoldier && (kRank7 & bit(s)))
            return "white soldier commands on rank 7 at " + squareName(s);
        if (top == Piece::BlackSoldier && (kRank1 & bit(s)))
            return "black soldier commands on rank 1 at " + squareName(s);
        if (colourBlocks(columns_[at(s)], h) > 2)
            return "more than two colour blocks on " + squareName(s);
    }
    if (occ != occupied_) return "occupied bitboard disagrees with columns";
    if (white != whiteTop_) return "white-commander bitboard disagrees with columns";
    if (officer != officerTop_) return "officer bitboard disagrees with columns";
    if (pieceCount(Color::White) > kPiecesPerSide) return "more than 11 white pieces";
    if (pieceCount(Color::Black) > kPiecesPerSide) return "more than 11 black pieces";
    if (quietPlies_ < 0 || quietPlies_ > kMaxQuietPlies) return "T2 ply counter out of range";
    if (moveNumber_ < 1 || moveNumber_ > kMaxMoveNumber) return "move number out of range";
    if (key_ != computeKey()) return "hash key disagrees with a from-scratch computation";
    return {};
}

// ---------------------------------------------------------------------------------------------
// LFEN

namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
        if (end == std::string_view::npos) return parts;
        start = end + 1;
    }
}

std::optional<int> parseCounter(std::string_view text, int low, int high) {
    const auto value = common::parseBoundedInteger(text, low, high);
    return value ? std::optional<int>(static_cast<int>(*value)) : std::nullopt;
}

}  // namespace

common::Result<Position> Position::fromLfen(std::string_view lfen) {
    const auto fields = common::splitWhitespace(lfen);
    if (fields.size() < 2)
        return common::makeError("LFEN needs a board and a side to move, got '" +
                                 common::printable(lfen) + "'");
    if (fields.size() > 4)
        return common::makeError("LFEN has " + std::to_string(fields.size()) +
                                 " fields, at most 4 (board, side, T2 plies, move number)");

    const auto ranks = split(fields[0], '/');
    if (ranks.size() != kRanks)
        return common::makeError("LFEN board has " + std::to_string(ranks.size()) +
                                 " ranks, expected 7 separated by '/'");

    Position pos;
    int pieces[2] = {0, 0};
    for (int row = 0; row < kRanks; ++row) {
        const int rank = kRanks - 1 - row;
        const auto cells = split(ranks[static_cast<std::size_t>(row)], ',');
        const std::size_t expected = rank % 2 == 0 ? 4 : 3;
        if (cells.size() != expected)
            return common::makeError("LFEN rank " + std::to_string(rank + 1) + " has " +
                                     std::to_string(cells.size()) + " squares, expected " +
                                     std::to_string(expected));
        for (std::size_t i = 0; i < cells.size(); ++i) {
            const int file = static_cast<int>(2 * i) + (rank % 2);
            const Square s = makeSquare(file, rank);
            const std::string_view cell = cells[i];
            if (cell.empty() || cell == "-") continue;
            if (cell.size() > kMaxColumnHeight)
                return common::makeError("LFEN column on " + squareName(s) + " has " +
                                         std::to_string(cell.size()) + " pieces, more than 22");
            ColumnBits bits = 0;
            for (std::size_t k = 0; k < cell.size(); ++k) {
                const auto piece = pieceFromChar(cell[k]);
                if (!piece)
                    return common::makeError("LFEN unknown piece letter '" +
                                             common::printable(cell.substr(k, 1)) + "' on " +
                                             squareName(s) + " (expected w, W, b, B or -)");
                bits |= static_cast<ColumnBits>(*piece) << (2 * k);
                ++pieces[index(colorOf(*piece))];
            }
            const int blocks = colourBlocks(bits, static_cast<int>(cell.size()));
            if (blocks > 2)
                return common::makeError("LFEN column '" + std::string(cell) + "' on " +
                                         squareName(s) + " has " + std::to_string(blocks) +
                                         " colour blocks; play makes at most two (the "
                                         "commander's colour over the other's)");
            pos.placeColumn(s, bits, static_cast<int>(cell.size()));
            const Piece top = pos.commander(s);
            if (top == Piece::WhiteSoldier && rank == kRanks - 1)
                return common::makeError("LFEN white soldier commands on " + squareName(s) +
                                         " (rank 7): it would have been promoted (R8)");
            if (top == Piece::BlackSoldier && rank == 0)
                return common::makeError("LFEN black soldier commands on " + squareName(s) +
                                         " (rank 1): it would have been promoted (R8)");
        }
    }
    if (pieces[0] > kPiecesPerSide)
        return common::makeError("LFEN has " + std::to_string(pieces[0]) +
                                 " white pieces, at most 11");
    if (pieces[1] > kPiecesPerSide)
        return common::makeError("LFEN has " + std::to_string(pieces[1]) +
                                 " black pieces, at most 11");

    if (fields[1] == "w") {
        pos.setSideToMove(Color::White);
    } else if (fields[1] == "b") {
        pos.setSideToMove(Color::Black);
    } else {
        return common::makeError("LFEN bad side to move '" + common::printable(fields[1]) +
                                 "' (expected w or b)");
    }

    int quiet = 0, moveNumber = 1;
    if (fields.size() >= 3) {
        const auto value = parseCounter(fields[2], 0, kMaxQuietPlies);
        if (!value)
            return common::makeError("LFEN bad T2 ply counter '" + common::printable(fields[2]) +
                                     "' (expected 0.." + std::to_string(kMaxQuietPlies) + ")");
        quiet = *value;
    }
    if (fields.size() == 4) {
        const auto value = parseCounter(fields[3], 1, kMaxMoveNumber);
        if (!value)
            return common::makeError("LFEN bad move number '" + common::printable(fields[3]) +
                                     "' (expected 1.." + std::to_string(kMaxMoveNumber) + ")");
        moveNumber = *value;
    }
    pos.setCounters(quiet, moveNumber);
    return pos;
}

std::string Position::toLfen() const {
    std::string text;
    for (int rank = kRanks - 1; rank >= 0; --rank) {
        for (int file = rank % 2; file < kFiles; file += 2) {
            const Square s = makeSquare(file, rank);
            if (file > 1) text += ',';
            text += columnText(column(s), height(s));
        }
        if (rank > 0) text += '/';
    }
    text += sideToMove_ == Color::White ? " w " : " b ";
    text += std::to_string(quietPlies_) + ' ' + std::to_string(moveNumber_);
    return text;
}

}  // namespace lasca
