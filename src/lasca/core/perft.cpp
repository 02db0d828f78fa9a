#include "lasca/core/perft.h"

#include "lasca/core/movegen.h"

namespace lasca {

std::uint64_t perft(Position& pos, int depth) {
    PerftTally tally;
    tally.add(pos, depth);
    return tally.total();
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
