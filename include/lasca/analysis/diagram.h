// Drawings as SVG text, for articles, reports and the web page: a board diagram of a position
// with every column readable, and the evaluation graph of an analysed game. No I/O: the
// callers write the text where they like (`lasca diagram`, `lasca analyse --svg`).
#pragma once

#include <string>
#include <vector>

#include "lasca/core/position.h"

namespace lasca::analysis {

// DiagramOptions: what a board diagram shows.
//   flip         Black's side at the bottom (rank 7 nearest the reader, file g on the left)
//   lastMove     the squares of the move that led to the position, start first (moveSquares
//                of notation.h): they are tinted and joined by a line; empty for none
//   squareSize   pixels per square (at least 24); the drawing scales with it
//   coordinates  file letters under the board and rank numbers on its left
//   caption      "White to move" / "Black to move" under the board
struct DiagramOptions {
    bool flip = false;
    std::vector<Square> lastMove;
    int squareSize = 64;
    bool coordinates = true;
    bool caption = true;
};

// The position as a standalone SVG document. Each column is drawn as a side view of stacked
// discs, the commander on top and the bottom piece lowest, so that every piece is visible:
// white pieces light, black pieces dark, an officer with a gold band round its side and, when
// it commands, a gold ring on its top face. Discs get thinner as a column grows (22 pieces
// still fit a square), and a column of two or more pieces shows its height in a badge in the
// square's top right corner.
std::string diagramSvg(const Position& pos, const DiagramOptions& options = {});

// ChancePoint: one position of an analysed game on the evaluation graph.
//   whiteChance  White's winning chance there, 0..1
//   mark         the mark of the move that led to it: 0 none, 1 ?!, 2 ?, 3 ??
//   (lasca::analysis::Mark)
struct ChancePoint {
    double whiteChance = 0.5;
    int mark = 0;
};

// GraphOptions: the size and title of an evaluation graph.
struct GraphOptions {
    std::string title;
    int width = 640;
    int height = 220;
};

// The evaluation graph as a standalone SVG document: plies from left to right, White's winning
// chance from bottom (0) to top (1) as a light area over a dark ground, the 50% line dashed,
// and a dot on each marked move (?! yellow, ? orange, ?? red).
std::string chanceGraphSvg(const std::vector<ChancePoint>& points,
                           const GraphOptions& options = {});

}  // namespace lasca::analysis
