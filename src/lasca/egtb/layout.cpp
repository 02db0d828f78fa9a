// The index of the one-column-per-side set: column contents, classes and slots.
#include "lasca/egtb/egtb.h"
#include "two_columns.h"

namespace lasca::egtb {

std::optional<std::size_t> contentIndex(const ColumnContent& column) {
    const int h = column.height;
    if (h < 1 || h > kMaxPieces) return std::nullopt;
    if (h < kMaxColumnHeight && (column.bits >> (2 * h)) != 0) return std::nullopt;
    const auto pieceAt = [&](int i) { return static_cast<Piece>((column.bits >> (2 * i)) & 3); };
    const Color owner = colorOf(pieceAt(0));
    int block = 0;
    while (block < h && colorOf(pieceAt(block)) == owner) ++block;
    std::size_t pattern = 0;
    for (int i = 0; i < h; ++i) {
        if (i >= block && colorOf(pieceAt(i)) == owner) return std::nullopt;  // a third block
        if (isOfficer(pieceAt(i))) pattern |= std::size_t{1} << i;
    }
    return (static_cast<std::size_t>(block - 1) << h) | pattern;
}

ColumnContent contentAt(Color owner, int height, std::size_t index) {
    const std::size_t block = (index >> height) + 1;
    ColumnContent c{0, height};
    for (int i = 0; i < height; ++i) {
        const Color colour = static_cast<std::size_t>(i) < block ? owner : ~owner;
        const Piece p = makePiece(colour, ((index >> i) & 1) != 0);
        c.bits |= static_cast<ColumnBits>(p) << (2 * i);
    }
    return c;
}

Layout::Layout(int pieces) : pieces_(pieces), heightOffset_(static_cast<std::size_t>(pieces) + 1) {
    for (int a = 1; a < pieces; ++a) {
        heightOffset_[static_cast<std::size_t>(a)] = classCount_;
        classCount_ += contentCount(a) * contentCount(pieces - a);
    }
    heightOffset_[static_cast<std::size_t>(pieces)] = classCount_;
}

TableClass Layout::classAt(std::size_t c) const {
    int a = 1;
    while (heightOffset_[static_cast<std::size_t>(a) + 1] <= c) ++a;
    const std::size_t rest = c - heightOffset_[static_cast<std::size_t>(a)];
    const std::size_t blackCount = contentCount(pieces_ - a);
    return {contentAt(Color::White, a, rest / blackCount),
            contentAt(Color::Black, pieces_ - a, rest % blackCount)};
}

std::optional<std::size_t> Layout::classOf(const TableClass& cls) const {
    const int a = cls.white.height;
    if (a < 1 || cls.black.height < 1 || a + cls.black.height != pieces_) return std::nullopt;
    if (colorOf(static_cast<Piece>(cls.white.bits & 3)) != Color::White) return std::nullopt;
    if (colorOf(static_cast<Piece>(cls.black.bits & 3)) != Color::Black) return std::nullopt;
    const auto w = contentIndex(cls.white);
    const auto b = contentIndex(cls.black);
    if (!w || !b) return std::nullopt;
    return heightOffset_[static_cast<std::size_t>(a)] + *w * contentCount(cls.black.height) + *b;
}

std::optional<std::size_t> Layout::slotOf(const Position& pos) const {
    if (popcount(pos.occupied()) != 2) return std::nullopt;
    const Bitboard white = pos.commandedBy(Color::White);
    const Bitboard black = pos.commandedBy(Color::Black);
    if (popcount(white) != 1 || popcount(black) != 1) return std::nullopt;
    const Square ws = lowestSquare(white);
    const Square bs = lowestSquare(black);
    const auto c = classOf({{pos.column(ws), pos.height(ws)}, {pos.column(bs), pos.height(bs)}});
    if (!c) return std::nullopt;
    return detail::slotIndex(*c, pos.sideToMove(), ws, bs);
}

std::optional<Position> Layout::positionAt(std::size_t slot) const {
    if (slot >= slotCount()) return std::nullopt;
    const TableClass cls = classAt(slot / kSlotsPerClass);
    const detail::SlotSquares at = detail::slotSquares(slot % kSlotsPerClass);
    if (!detail::isPosition(cls, at.white, at.black)) return std::nullopt;
    Position pos;
    pos.setColumn(at.white, cls.white.bits, cls.white.height);
    pos.setColumn(at.black, cls.black.bits, cls.black.height);
    pos.setSideToMove(at.side);
    return pos;
}

}  // namespace lasca::egtb
