// Helpers shared by the core tests: random games and position builders.
#pragma once

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"
#include "lasca/core/position.h"

namespace lasca::test {

// Plays up to maxPlies random legal moves from `start`, calling visit(position, move) before
// each move is made and visit(position, null move) at the end. Deterministic for a seed.
template <class Visit>
void playRandomGame(Position pos, unsigned seed, int maxPlies, Visit&& visit) {
    std::mt19937 rng(seed);
    for (int ply = 0; ply < maxPlies; ++ply) {
        MoveList list;
        generateMoves(pos, list);
        if (list.empty()) break;
        const Move m = list[rng() % list.size()];
        visit(pos, m);
        Undo undo{};
        pos.make(m, undo);
    }
    visit(pos, Move{});
}

inline Position lfen(const std::string& text) {
    auto result = Position::fromLfen(text);
    if (!result) throw std::runtime_error("bad test LFEN: " + result.error());
    return result.value();
}

// The same position with colours swapped and the board turned round (square s -> 24 - s).
inline Position mirrored(const Position& pos) {
    Position out;
    for (Square s = 0; s < kSquares; ++s) {
        if (pos.height(s) == 0) continue;
        ColumnBits bits = pos.column(s) ^ 0x5555555555555555ULL;  // flip every colour bit
        bits &= (ColumnBits{1} << (2 * pos.height(s))) - 1;
        out.setColumn(makeSquare(kFiles - 1 - fileOf(s), kRanks - 1 - rankOf(s)), bits,
                      pos.height(s));
    }
    out.setSideToMove(~pos.sideToMove());
    return out;
}

// The legal moves of pos, written out and sorted.
inline std::vector<std::string> legalMoveTexts(const Position& pos) {
    MoveList list;
    generateMoves(pos, list);
    std::vector<std::string> texts;
    for (const Move& m : list) texts.push_back(formatMove(m));
    std::sort(texts.begin(), texts.end());
    return texts;
}

}  // namespace lasca::test
