#include "lasca/core/movegen.h"

#include "board_moves.h"

namespace lasca {

using namespace detail;

namespace {

template <Color Us>
void generateMoves(Board board, MoveList& list) {
    if (const FirstJumps<Us> jumps(board); jumps.any()) {
        pushCaptures(board, jumps, list);
        return;
    }
    forEachStep<Us>(board, [&list](Square from, Square to) { list.pushStep(from, to); });
}

}  // namespace

bool promotes(const Position& pos, const Move& move) {
    const Piece mover = pos.commander(move.origin());
    const bool soldier = mover == Piece::WhiteSoldier || mover == Piece::BlackSoldier;
    return soldier && (promotionRank(colorOf(mover)) & bit(move.destination())) != 0;
}

bool hasCapture(const Position& pos) {
    const Board board = boardOf(pos);
    return board.us == Color::White ? FirstJumps<Color::White>(board).any()
                                    : FirstJumps<Color::Black>(board).any();
}

bool hasLegalMove(const Position& pos) {
    const Board board = boardOf(pos);
    return board.us == Color::White
               ? FirstJumps<Color::White>(board).any() || countSteps<Color::White>(board) > 0
               : FirstJumps<Color::Black>(board).any() || countSteps<Color::Black>(board) > 0;
}

template <Color By>
JumpThreats jumpThreatsOf(Board board) {
    const FirstJumps<By> jumps(board);
    JumpThreats threats;
    forEachDirection([&](auto d) {
        threats.jumpers |= jumps.movers[d];
        threats.targets |= shiftTo<d>(jumps.movers[d]);
    });
    return threats;
}

JumpThreats jumpThreats(const Position& pos, Color by) {
    const Board board = boardOf(pos);
    return by == Color::White ? jumpThreatsOf<Color::White>(board)
                              : jumpThreatsOf<Color::Black>(board);
}

int stepCount(const Position& pos, Color by) {
    const Board board = boardOf(pos);
    return static_cast<int>(by == Color::White ? countSteps<Color::White>(board)
                                               : countSteps<Color::Black>(board));
}

std::uint64_t countMoves(const Position& pos) {
    const Board board = boardOf(pos);
    return board.us == Color::White ? countMovesOf<Color::White>(board)
                                    : countMovesOf<Color::Black>(board);
}

void generateMoves(const Position& pos, MoveList& list) {
    list.clear();
    const Board board = boardOf(pos);
    if (board.us == Color::White)
        generateMoves<Color::White>(board, list);
    else
        generateMoves<Color::Black>(board, list);
}

}  // namespace lasca
