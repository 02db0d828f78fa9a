#include "lasca/perft.h"

#include "lasca/movegen.h"

namespace lasca {

std::uint64_t perft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return countMoves(pos);
    if (depth == 2) return countMovePairs(pos);
    if (depth == 3) return countMoveTriples(pos);
    if (depth == 4) return countMoveQuadruples(pos);
    MoveList list;
    generateMoves(pos, list);
    std::uint64_t nodes = 0;
    Undo undo;
    for (const Move& m : list) {
        pos.make(m, undo);
        nodes += perft(pos, depth - 1);
        pos.unmake(m, undo);
    }
    return nodes;
}

std::vector<DivideLine> divide(Position& pos, int depth) {
    std::vector<DivideLine> lines;
    if (depth <= 0) return lines;
    MoveList list;
    generateMoves(pos, list);
    Undo undo;
    for (const Move& m : list) {
        pos.make(m, undo);
        lines.push_back({m, perft(pos, depth - 1)});
        pos.unmake(m, undo);
    }
    return lines;
}

}  // namespace lasca
