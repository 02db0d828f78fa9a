// The moves of a two-column position, written for the generator on its own (it does not use
// the core's move generator, so that the tests' brute force over the core checks it).
#pragma once

#include <cstddef>

#include "lasca/egtb/egtb.h"

namespace lasca::egtb::detail {

// False when a soldier commands on its own promotion rank (R8 would have promoted it).
inline bool commanderFits(const ColumnContent& column, Square s) {
    const Piece top = static_cast<Piece>(column.bits & 3);
    return isOfficer(top) || (bit(s) & promotionRank(colorOf(top))) == 0;
}

// A slot within its class: side to move x white column's square x black column's square
// (Layout in egtb.h).
struct SlotSquares {
    Color side = Color::White;
    Square white = 0;
    Square black = 0;
};
inline SlotSquares slotSquares(std::size_t within) {
    return {within < kSquares * kSquares ? Color::White : Color::Black,
            static_cast<Square>(within / kSquares % kSquares),
            static_cast<Square>(within % kSquares)};
}
inline std::size_t slotIndex(std::size_t cls, Color side, Square white, Square black) {
    return cls * kSlotsPerClass +
           static_cast<std::size_t>(index(side) * kSquares * kSquares + white * kSquares + black);
}

// Whether the class's columns on these squares are a position: two squares, and no soldier
// commanding on its promotion rank.
inline bool isPosition(const TableClass& contents, Square white, Square black) {
    return white != black && commanderFits(contents.white, white) &&
           commanderFits(contents.black, black);
}

// The successor of a move that ends the game: the opponent is left without a column (R5, R9).
inline constexpr std::size_t kGameOver = static_cast<std::size_t>(-1);

// Calls visit(slot) for the position after each legal move of the slot's position (R4-R8), or
// visit(kGameOver) when the move leaves the opponent without a column; returns the number of
// moves. With one enemy column a capture is a single jump (R7 forbids jumping it again).
template <class Visit>
int forEachSuccessor(const Layout& layout, std::size_t cls, const TableClass& contents, Color side,
                     Square ws, Square bs, Visit&& visit) {
    const bool white = side == Color::White;
    const ColumnContent& mover = white ? contents.white : contents.black;
    const ColumnContent& enemy = white ? contents.black : contents.white;
    const Square from = white ? ws : bs;
    const Square target = white ? bs : ws;
    const Piece top = static_cast<Piece>(mover.bits & 3);
    const bool officer = isOfficer(top);
    const auto allowed = [&](int d) {
        if (officer) return true;
        return white ? (d == NorthEast || d == NorthWest) : (d == SouthEast || d == SouthWest);
    };
    const auto promoted = [&](ColumnContent c, Square to) {
        if (!officer && (bit(to) & promotionRank(side)) != 0) c.bits |= 2;
        return c;
    };
    const auto slotOf = [&](std::size_t c, Square moverSquare) {
        return white ? slotIndex(c, ~side, moverSquare, target)
                     : slotIndex(c, ~side, target, moverSquare);
    };
    int moves = 0;
    for (int d = 0; d < kDirections; ++d) {
        if (!allowed(d) || neighbour(from, d) != target) continue;
        const Square land = neighbour(target, d);
        if (land == kNoSquare) continue;
        ++moves;
        ColumnContent taker{mover.bits | ((enemy.bits & 3) << (2 * mover.height)),
                            mover.height + 1};
        taker = promoted(taker, land);
        const ColumnContent rest{enemy.bits >> 2, enemy.height - 1};
        if (rest.height == 0 || colorOf(static_cast<Piece>(rest.bits & 3)) == side) {
            visit(kGameOver);
            continue;
        }
        const TableClass next = white ? TableClass{taker, rest} : TableClass{rest, taker};
        visit(slotOf(*layout.classOf(next), land));
    }
    if (moves > 0) return moves;  // R6: a capture is compulsory
    for (int d = 0; d < kDirections; ++d) {
        if (!allowed(d)) continue;
        const Square to = neighbour(from, d);
        if (to == kNoSquare || to == target) continue;
        ++moves;
        const ColumnContent stepped = promoted(mover, to);
        if (stepped == mover) {
            visit(slotOf(cls, to));
        } else {
            const TableClass next =
                white ? TableClass{stepped, contents.black} : TableClass{contents.white, stepped};
            visit(slotOf(*layout.classOf(next), to));
        }
    }
    return moves;
}

}  // namespace lasca::egtb::detail
