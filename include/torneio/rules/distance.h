// Distances on a Torneio board that players reason with (G5, D1, D2): how many warrior steps
// separate two squares, and how far a square is from a seat's own side.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "torneio/rules/geometry.h"

namespace torneio {

// Warrior steps (8 directions, G5) from a to b on an empty board: the Chebyshev distance.
inline int chebyshev(const Geometry& g, Square a, Square b) {
    return std::max(std::abs(g.fileOf(a) - g.fileOf(b)), std::abs(g.rankOf(a) - g.rankOf(b)));
}

// G5: moves a king needs from a to b (one or two squares orthogonally per move, ignoring
// blockers).
inline int kingMoves(const Geometry& g, Square a, Square b) {
    const int dx = std::abs(g.fileOf(a) - g.fileOf(b));
    const int dy = std::abs(g.rankOf(a) - g.rankOf(b));
    return (dx + 1) / 2 + (dy + 1) / 2;
}

// Lines between the square and the seat's own side of the board (0 on the edge line, D1/D2).
inline int edgeDistance(const Geometry& g, int seat, Square s) {
    switch (g.side(seat)) {
        case Side::South:
            return g.rankOf(s);
        case Side::North:
            return g.size() - 1 - g.rankOf(s);
        case Side::West:
            return g.fileOf(s);
        case Side::East:
            return g.size() - 1 - g.fileOf(s);
    }
    return 0;
}

// The squares of the seat's zone on its own edge line (edgeDistance 0), in the zone's order:
// where the `back` and `corner` set-ups put the king, front() and back() the line's two ends.
inline std::vector<Square> backLine(const Geometry& g, int seat) {
    std::vector<Square> line;
    for (Square s : g.zone(seat))
        if (edgeDistance(g, seat, s) == 0) line.push_back(s);
    return line;
}

}  // namespace torneio
