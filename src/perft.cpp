#include "lasca/perft.h"

#include "lasca/movegen.h"

namespace lasca {

namespace {

// Make/unmake down to four plies above the leaves; the tally counts the rest (see PerftTally).
void addLeaves(Position& pos, int depth, PerftTally& tally) {
    if (depth <= 4) {
        tally.add(pos, depth);
        return;
    }
    MoveList list;
    generateMoves(pos, list);
    Undo undo;
    for (const Move& m : list) {
        pos.make(m, undo);
        addLeaves(pos, depth - 1, tally);
        pos.unmake(m, undo);
    }
}

}  // namespace

std::uint64_t perft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    PerftTally tally;
    addLeaves(pos, depth, tally);
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
