// What the files of the Python module lasca._lasca share: the Python-side values (a Move with
// its promotion, a list of moves, a Position with its stack of pushed moves, a Game with its
// draw rules), the checks of text handed over from Python, and the bind* function of each file,
// called by lasca_module.cpp:
//   lasca_position.cpp  Move, MoveList, Position
//   lasca_game.cpp      Status, Outcome, Game
//   lasca_pdn.cpp       PdnLine, PdnVariation, PdnGame, PdnEntry, PdnReader, read/write_pdn
//   lasca_tablebase.cpp Tablebase
//   lasca_replies.cpp   the reader of the engine's reply lines (for lasca/engine.py)
// The rules are the core's; errors (common::Result) become Python exceptions here.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "lasca/core/game.h"
#include "lasca/core/move.h"
#include "lasca/core/pdn.h"
#include "lasca/core/position.h"

namespace lasca_python {

namespace py = pybind11;

// The deepest perft Python may ask for: perft(20) from the start takes about ten seconds.
inline constexpr int kMaxPythonPerftDepth = 20;
// Longest text any entry point reads (an LFEN, a move, a square; PDN has its own limit).
inline constexpr std::size_t kMaxTokenLength = 4096;

// The value of a core result, or a ValueError with the core's message.
template <class T>
T valueOrThrow(common::Result<T> result) {
    if (!result) throw py::value_error(result.error());
    return std::move(result).value();
}

// ValueError when text is longer than limit; `what` names it.
void checkLength(const std::string& text, std::size_t limit, const char* what);

// An LFEN as Python code hands it over: surrounding white space (a line read from a file with
// its newline, a leading space) is not part of it.
lasca::Position positionFromLfen(const std::string& lfen);

const char* colourName(lasca::Color c);  // "white", "black"

// python-chess's ply(): half-moves since the numbering began (2 * (move number - 1), plus 1
// when Black is to move).
inline int plyOf(const lasca::Position& pos) {
    return 2 * (pos.moveNumber() - 1) + (pos.sideToMove() == lasca::Color::Black ? 1 : 0);
}

// PyMove: a move as a value: the core's move (start, landing squares, capture) and whether it
// promotes its soldier (R8), which only a position can tell: nullopt for a move read from text
// alone. Equal moves have the same start and landing squares (promotion follows from them).
struct PyMove {
    lasca::Move move{};
    std::optional<bool> promotion;
};

// A move's text as the engine writes it (c3-d4, d2xb4xd6); "0000" for the null move.
std::string moveText(const PyMove& move);
// A generated move of pos, with its promotion.
PyMove moveIn(const lasca::Position& pos, const lasca::Move& move);
// A move read without a position (lasca::moveShape); ValueError when it has no move's shape.
// "0000" is the null move (python-chess's Move.null(): length 0, never legal).
PyMove moveFromText(const std::string& text);
// The legal move of pos that text names; ValueError when unreadable or not legal here.
PyMove parseLegalMove(const lasca::Position& pos, const std::string& text);
// A Move or a move text given for a position: the legal move it names, or ValueError.
PyMove legalMoveOf(const lasca::Position& pos, const py::handle& given);

// PyMoveList: moves as a Python sequence (legal_moves, move_stack): len, iteration, indexing,
// `in` (a Move or a move text). Calling it gives the moves' texts as a list, the older
// spelling (pos.legal_moves(), pos.move_stack()).
struct PyMoveList {
    std::vector<PyMove> moves;

    std::vector<std::string> texts() const;
    bool contains(const py::handle& item) const;
};

PyMoveList legalMovesOf(const lasca::Position& pos);

// PyPosition: a position with the moves pushed onto it, so that pop() takes them back.
//   pos     the current position
//   played  each pushed move with the Undo that takes it back, oldest first
// Invariant: unmaking played from the back leads to the position it was created with.
struct PyPosition {
    lasca::Position pos = lasca::Position::startPosition();
    std::vector<std::pair<PyMove, lasca::Undo>> played;

    // Plays a Move or a move text; returns the move as the engine writes it.
    std::string push(const py::handle& given);
    // Takes back the last pushed move and returns it; IndexError when there is none.
    PyMove pop();
    PyMoveList moveStack() const;
    // The position before every pushed move.
    lasca::Position root() const;
    // The position as a game from root() with the pushed moves (for the rules' verdict).
    lasca::Game game() const;
};

// PyGame: a game from a start position, with the draw rules in force; pop() takes back the
// last move (lasca::Game::takeBack).
// Invariant: no move follows the end of the game under `rules` (push refuses it).
struct PyGame {
    lasca::Game game;
    lasca::DrawRules rules;

    // Plays a Move or a move text; returns the move as the engine writes it. RuntimeError once
    // the game is over.
    std::string push(const py::handle& given);
    // Takes back the last move and returns it; IndexError when there is none.
    PyMove pop();
    std::vector<std::string> moveTexts() const;
    // The moves played, each with its promotion (replayed from the start).
    PyMoveList moveStack() const;
};

// The `stack` argument of copy(stack=True): how many of the last `size` moves to keep (True all,
// False none, an int n the last n); ValueError for a negative int, TypeError for other types.
std::size_t stackDepth(const py::handle& stack, std::size_t size);

// The game a PdnGame records (lasca::gameOfPdn, default draw rules); ValueError at a bad move.
PyGame gameOfPdn(const lasca::PdnGame& pdn);

// PyOutcome: how a game ended, python-chess's Outcome: the winner (true White, false Black,
// nullopt a draw), the termination ("no legal move", "threefold repetition", "no progress")
// and the rule (R9, T1, T2).
struct PyOutcome {
    std::optional<bool> winner;
    std::string termination;
    std::string rule;
};

// lasca_game.cpp: the rules' verdict in python-chess's terms: an Outcome, or nullopt while the
// game goes on; the result as python-chess writes it ("1-0", "0-1", "1/2-1/2", "*").
std::optional<PyOutcome> outcomeOf(const lasca::GameStatus& status);
std::string chessResult(lasca::Outcome outcome);

// The board diagram as SVG (lasca::analysis::diagramSvg); ValueError for a bad size or move.
std::string svgOf(const lasca::Position& pos, bool flip, int size,
                  const std::optional<std::string>& lastMove);

void bindMoves(py::module_& m);      // lasca_position.cpp
void bindPosition(py::module_& m);   // lasca_position.cpp
void bindGame(py::module_& m);       // lasca_game.cpp
void bindPdn(py::module_& m);        // lasca_pdn.cpp
void bindTablebase(py::module_& m);  // lasca_tablebase.cpp
void bindReplies(py::module_& m);    // lasca_replies.cpp

}  // namespace lasca_python
