// The Python module `lasca._lasca`: a thin pybind11 layer over the Lasca rules core
// (position, move generation, notation, game verdicts, perft), PDN (lasca::match) and the SVG
// diagrams (lasca::diagram). Every question of legality goes to the core, and its errors
// (common::Result) become Python exceptions at this boundary (ValueError for bad input,
// RuntimeError for a request the state cannot answer). Two small readings of a move are made
// here, for the Move value, because the core has no function for them: a move's shape read
// without a position (a diagonal step, or jumps of two squares) and whether a generated move
// promotes its soldier (R8). The package lasca/__init__.py re-exports these names and adds the
// engine clients (lasca/engine.py) and the PDN tree (lasca/pdn.py). Guide: docs/python.md.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "lasca/analysis/diagram.h"
#include "lasca/core/game.h"
#include "lasca/core/move.h"
#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"
#include "lasca/core/pdn.h"
#include "lasca/core/perft.h"
#include "lasca/core/position.h"
#include "lasca/core/types.h"
#include "lasca/egtb/egtb.h"

namespace py = pybind11;

namespace {

// The deepest perft Python may ask for: perft(20) from the start takes about ten seconds.
constexpr int kMaxPythonPerftDepth = 20;
// Longest text any entry point reads (an LFEN, a move, a square; PDN has its own limit).
constexpr std::size_t kMaxTokenLength = 4096;
// Longest PDN text read_pdn accepts (64 MB).
constexpr std::size_t kMaxPdnLength = std::size_t{64} << 20;

// The value of a core result, or a ValueError with the core's message.
template <class T>
T valueOrThrow(common::Result<T> result) {
    if (!result) throw py::value_error(result.error());
    return std::move(result).value();
}

void checkLength(const std::string& text, std::size_t limit, const char* what) {
    if (text.size() > limit)
        throw py::value_error(std::string(what) + " too long (" + std::to_string(text.size()) +
                              " characters, at most " + std::to_string(limit) + ")");
}

// An LFEN as Python code hands it over: surrounding white space (a line read from a file with
// its newline, a leading space) is not part of it.
lasca::Position positionFromLfen(const std::string& lfen) {
    checkLength(lfen, kMaxTokenLength, "LFEN");
    constexpr const char* kSpace = " \t\r\n\v\f";
    const auto first = lfen.find_first_not_of(kSpace);
    const std::string trimmed = first == std::string::npos
                                    ? ""
                                    : lfen.substr(first, lfen.find_last_not_of(kSpace) - first + 1);
    return valueOrThrow(lasca::Position::fromLfen(trimmed));
}

lasca::Square squareFromText(const std::string& text) {
    checkLength(text, kMaxTokenLength, "square");
    std::optional<lasca::Square> square = lasca::parseSquare(text);
    if (!square || *square < 0 || *square >= lasca::kSquares)
        throw py::value_error("not a square of the board: '" + text + "' (a1..g7, dark squares)");
    return *square;
}

const char* colourName(lasca::Color c) {
    return c == lasca::Color::White ? "white" : "black";
}

// PyMove: a move as a value: the core's move (start, landing squares, capture) and whether it
// promotes its soldier (R8), which only a position can tell: nullopt for a move read from text
// alone. Equal moves have the same start and landing squares (promotion follows from them).
struct PyMove {
    lasca::Move move{};
    std::optional<bool> promotion;
};

// The move a position makes of a generated move: promotion when a soldier lands on its
// colour's last rank.
PyMove moveIn(const lasca::Position& pos, const lasca::Move& move) {
    const lasca::Piece mover = pos.commander(move.origin());
    const bool soldier = mover == lasca::Piece::WhiteSoldier || mover == lasca::Piece::BlackSoldier;
    const bool lastRank =
        (lasca::promotionRank(lasca::colorOf(mover)) & lasca::bit(move.destination())) != 0;
    return PyMove{move, soldier && lastRank};
}

// A move read without a position ("c3-d4", "e5xc3", "c3d4"): a step to a diagonal neighbour,
// or one or more jumps of two squares along a diagonal. Legality is not checked.
PyMove moveFromText(const std::string& text) {
    checkLength(text, kMaxTokenLength, "move");
    const std::vector<lasca::Square> squares = valueOrThrow(lasca::moveSquares(text));
    lasca::Move move{};
    move.from = static_cast<std::uint8_t>(squares[0]);
    move.length = static_cast<std::uint8_t>(squares.size() - 1);
    for (std::size_t i = 1; i < squares.size(); ++i) {
        const int df = lasca::fileOf(squares[i]) - lasca::fileOf(squares[i - 1]);
        const int dr = lasca::rankOf(squares[i]) - lasca::rankOf(squares[i - 1]);
        const int reach = df < 0 ? -df : df;
        if (reach != (dr < 0 ? -dr : dr) || reach < 1 || reach > 2)
            throw py::value_error("move '" + text +
                                  "': each square must be one diagonal step or one jump (two "
                                  "squares along a diagonal) from the one before");
        const bool jump = reach == 2;
        if (i == 1) move.capture = jump;
        if (jump != move.capture || (!jump && squares.size() > 2))
            throw py::value_error("move '" + text + "' mixes steps and jumps");
        move.path[i - 1] = static_cast<std::uint8_t>(squares[i]);
    }
    const bool writtenCapture = text.find('x') != std::string::npos;
    const bool writtenStep = text.find('-') != std::string::npos;
    if ((writtenCapture && !move.capture) || (writtenStep && move.capture))
        throw py::value_error("move '" + text + "': written with '" + (writtenCapture ? "x" : "-") +
                              "' but it is a " + (move.capture ? "capture" : "step"));
    return PyMove{move, std::nullopt};
}

// The legal move of pos that text names; ValueError when unreadable or not legal here.
PyMove parseLegalMove(const lasca::Position& pos, const std::string& text) {
    checkLength(text, kMaxTokenLength, "move");
    return moveIn(pos, valueOrThrow(lasca::parseMove(pos, text)));
}

// A Move or a move text given for a position: the legal move it names, or ValueError.
PyMove legalMoveOf(const lasca::Position& pos, const py::handle& given) {
    if (py::isinstance<py::str>(given)) return parseLegalMove(pos, given.cast<std::string>());
    if (!py::isinstance<PyMove>(given))
        throw py::type_error(std::string("a move is a lasca.Move or its text, got ") +
                             std::string(py::str(py::type::of(given).attr("__name__"))));
    const lasca::Move& move = given.cast<const PyMove&>().move;
    lasca::MoveList legal;
    lasca::generateMoves(pos, legal);
    if (!legal.contains(move))
        throw py::value_error("move '" + lasca::formatMove(move) +
                              "' is not legal in this position");
    return moveIn(pos, move);
}

// PyMoveList: moves as a Python sequence (legal_moves, move_stack): len, iteration, indexing,
// `in` (a Move or a move text). Calling it gives the moves' texts as a list, the older
// spelling (pos.legal_moves(), pos.move_stack()).
struct PyMoveList {
    std::vector<PyMove> moves;

    std::vector<std::string> texts() const {
        std::vector<std::string> out;
        out.reserve(moves.size());
        for (const PyMove& m : moves) out.push_back(lasca::formatMove(m.move));
        return out;
    }

    bool contains(const py::handle& item) const {
        lasca::Move wanted{};
        if (py::isinstance<PyMove>(item)) {
            wanted = item.cast<const PyMove&>().move;
        } else if (py::isinstance<py::str>(item)) {
            try {  // a text that is no move, or not even UTF-8 (a lone surrogate), is not in it
                const auto text = item.cast<std::string>();
                if (text.size() > kMaxTokenLength) return false;
                wanted = moveFromText(text).move;
            } catch (const py::value_error&) {
                return false;
            } catch (const py::cast_error&) {
                return false;
            }
        } else {
            return false;
        }
        for (const PyMove& m : moves)
            if (m.move == wanted) return true;
        return false;
    }
};

PyMoveList legalMovesOf(const lasca::Position& pos) {
    lasca::MoveList list;
    lasca::generateMoves(pos, list);
    PyMoveList out;
    out.moves.reserve(list.size());
    for (const lasca::Move& m : list) out.moves.push_back(moveIn(pos, m));
    return out;
}

// The board as text, White at the bottom: a row per rank (7 at the top), each playable square
// shown by its column's top piece (w b soldiers, W B officers) followed by the column's height
// when it holds more than one piece ("w3", "B12"), "." when empty; under it the files and the
// side to move. Each square takes three characters and a space.
std::string boardText(const lasca::Position& pos) {
    constexpr char kLetters[] = {'w', 'b', 'W', 'B'};
    const std::string border = "  +" + std::string(29, '-') + "+\n";
    std::string out = border;
    for (int rank = lasca::kRanks - 1; rank >= 0; --rank) {
        out += std::to_string(rank + 1) + " |";
        for (int file = 0; file < lasca::kFiles; ++file) {
            std::string cell;
            const lasca::Square s = lasca::makeSquare(file, rank);
            if (s != lasca::kNoSquare && pos.height(s) == 0) cell = ".";
            if (s != lasca::kNoSquare && pos.height(s) > 0) {
                cell = kLetters[static_cast<int>(pos.commander(s))];
                if (pos.height(s) > 1) cell += std::to_string(pos.height(s));
            }
            cell.resize(3, ' ');
            out += " " + cell;
        }
        out += " |\n";
    }
    out += border + "    a   b   c   d   e   f   g\n";
    return out + colourName(pos.sideToMove()) + " to move";
}

// PyPosition: a position with the moves pushed onto it, so that pop() takes them back.
//   pos     the current position
//   played  each pushed move with the Undo that takes it back, oldest first
// Invariant: unmaking played from the back leads to the position it was created with.
struct PyPosition {
    lasca::Position pos = lasca::Position::startPosition();
    std::vector<std::pair<PyMove, lasca::Undo>> played;

    // Plays a Move or a move text; returns the move as the engine writes it.
    std::string push(const py::handle& given) {
        const PyMove move = legalMoveOf(pos, given);
        lasca::Undo undo{};
        pos.make(move.move, undo);
        played.emplace_back(move, undo);
        return lasca::formatMove(move.move);
    }

    std::string pop() {
        if (played.empty()) throw std::runtime_error("pop: no move to take back");
        auto [move, undo] = played.back();
        played.pop_back();
        pos.unmake(move.move, undo);
        return lasca::formatMove(move.move);
    }

    PyMoveList moveStack() const {
        PyMoveList list;
        for (const auto& entry : played) list.moves.push_back(entry.first);
        return list;
    }
};

std::uint64_t perftOf(const PyPosition& self, int depth) {
    if (depth < 0 || depth > kMaxPythonPerftDepth)
        throw py::value_error("perft depth must be in 0.." + std::to_string(kMaxPythonPerftDepth) +
                              ", got " + std::to_string(depth));
    lasca::Position copy = self.pos;
    py::gil_scoped_release release;  // the count needs no Python object
    return lasca::perft(copy, depth);
}

std::optional<std::string> columnOn(const lasca::Position& pos, const std::string& square) {
    lasca::Square s = squareFromText(square);
    if (pos.height(s) == 0) return std::nullopt;
    return lasca::columnText(pos.column(s), pos.height(s));
}

std::string svgOf(const lasca::Position& pos, bool flip, int size,
                  const std::optional<std::string>& lastMove) {
    if (size < 24 || size > 1024)
        throw py::value_error("square size must be in 24..1024, got " + std::to_string(size));
    lasca::analysis::DiagramOptions options;
    options.flip = flip;
    options.squareSize = size;
    if (lastMove) {
        checkLength(*lastMove, kMaxTokenLength, "move");
        options.lastMove = valueOrThrow(lasca::moveSquares(*lastMove));
    }
    return lasca::analysis::diagramSvg(pos, options);
}

// StatusInfo: the rules' verdict on a game in words.
//   outcome      "ongoing", "white wins", "black wins", "draw" (lasca::outcomeName)
//   termination  "none", "no legal move", ... (lasca::terminationName)
//   rule         "R9", "T1", "T2", or "" while the game goes on
//   result       the PDN result: "2-0", "0-2", "1-1", "*"
struct StatusInfo {
    std::string outcome;
    std::string termination;
    std::string rule;
    std::string result;
    bool over = false;
};

StatusInfo describe(const lasca::GameStatus& status) {
    return StatusInfo{lasca::outcomeName(status.outcome),
                      lasca::terminationName(status.termination),
                      lasca::terminationRule(status.termination), lasca::pdnResult(status.outcome),
                      status.over()};
}

// RuntimeError when a game is over by the rules in force: no move may follow its end.
void requireOngoing(const lasca::Game& game, const lasca::DrawRules& rules) {
    const lasca::GameStatus status = game.status(rules);
    if (status.over())
        throw std::runtime_error(std::string("the game is over (") +
                                 lasca::terminationName(status.termination) + ", " +
                                 lasca::pdnResult(status.outcome) + "): no move may follow");
}

// PyGame: a game from a start position, with the draw rules in force; pop() replays the
// moves but the last from the start (the core's Game only grows).
// Invariant: no move follows the end of the game under `rules` (push refuses it).
struct PyGame {
    lasca::Game game;
    lasca::DrawRules rules;

    // Plays a Move or a move text; returns the move as the engine writes it.
    std::string push(const py::handle& given) {
        requireOngoing(game, rules);
        const PyMove move = legalMoveOf(game.current(), given);
        game.play(move.move);
        return lasca::formatMove(move.move);
    }

    std::string pop() {
        if (game.moves().empty()) throw std::runtime_error("pop: no move to take back");
        std::vector<lasca::Move> moves = game.moves();
        lasca::Move last = moves.back();
        moves.pop_back();
        lasca::Game replayed(game.start());
        for (const lasca::Move& m : moves) replayed.play(m);
        game = std::move(replayed);
        return lasca::formatMove(last);
    }

    std::vector<std::string> moveTexts() const {
        std::vector<std::string> texts;
        for (const lasca::Move& m : game.moves()) texts.push_back(lasca::formatMove(m));
        return texts;
    }

    // The moves played, each with its promotion (replayed from the start).
    PyMoveList moveStack() const {
        PyMoveList list;
        lasca::Position pos = game.start();
        for (const lasca::Move& m : game.moves()) {
            list.moves.push_back(moveIn(pos, m));
            lasca::Undo undo{};
            pos.make(m, undo);
        }
        return list;
    }
};

// PyOutcome: how a game ended, python-chess's Outcome: the winner ("white", "black", or None
// for a draw), the termination ("no legal move", "threefold repetition", "no progress") and
// the rule (R9, T1, T2).
struct PyOutcome {
    std::optional<std::string> winner;
    std::string termination;
    std::string rule;
};

// The result in chess notation ("1-0", "0-1", "1/2-1/2", "*"), as python-chess writes it.
std::string chessResult(lasca::Outcome outcome) {
    switch (outcome) {
        case lasca::Outcome::WhiteWins:
            return "1-0";
        case lasca::Outcome::BlackWins:
            return "0-1";
        case lasca::Outcome::Draw:
            return "1/2-1/2";
        case lasca::Outcome::Ongoing:
            break;
    }
    return "*";
}

std::optional<PyOutcome> outcomeOf(const lasca::GameStatus& status) {
    if (!status.over()) return std::nullopt;
    PyOutcome out;
    if (status.outcome == lasca::Outcome::WhiteWins) out.winner = "white";
    if (status.outcome == lasca::Outcome::BlackWins) out.winner = "black";
    out.termination = lasca::terminationName(status.termination);
    out.rule = lasca::terminationRule(status.termination);
    return out;
}

PyGame makeGame(const std::optional<std::string>& lfen, bool repetition, bool noProgress) {
    lasca::Position start = lfen ? positionFromLfen(*lfen) : lasca::Position::startPosition();
    return PyGame{lasca::Game(start), lasca::DrawRules{repetition, noProgress}};
}

// The game as PDN: its moves, the FEN tag when it does not start from the start position, the
// result by the rules, and the caller's tags (name -> value) first.
lasca::PdnGame pdnOfGame(const PyGame& self,
                         const std::vector<std::pair<std::string, std::string>>& tags) {
    lasca::PdnGame pdn;
    pdn.tags = tags;
    const std::string startLfen = self.game.start().toLfen();
    if (startLfen != lasca::kStartLfen) pdn.tags.emplace_back("FEN", startLfen);
    pdn.moves = self.moveTexts();
    pdn.result = lasca::pdnResult(self.game.status(self.rules).outcome);
    return pdn;
}

PyGame gameOfPdn(const lasca::PdnGame& pdn) {
    lasca::Position start = valueOrThrow(lasca::startOf(pdn));
    PyGame game{lasca::Game(start), lasca::DrawRules{}};
    for (std::size_t i = 0; i < pdn.moves.size(); ++i) {
        if (game.game.status(game.rules).over())
            throw py::value_error("move " + std::to_string(i + 1) + " '" + pdn.moves[i] +
                                  "': played after the game ended");
        common::Result<lasca::Move> played = game.game.playText(pdn.moves[i]);
        if (!played)
            throw py::value_error("move " + std::to_string(i + 1) + " '" + pdn.moves[i] +
                                  "': " + played.error());
    }
    return game;
}

std::vector<lasca::PdnGame> readPdnText(const std::string& text) {
    checkLength(text, kMaxPdnLength, "PDN text");
    std::istringstream in(text);
    return valueOrThrow(lasca::readPdn(in));
}

// PyPdnEntry: one game of a PDN stream for Python: where it starts, and the game or its error.
struct PyPdnEntry {
    int line = 0;
    std::optional<lasca::PdnGame> game;
    std::optional<std::string> error;
};

std::optional<PyPdnEntry> entryOf(std::optional<lasca::PdnEntry> entry) {
    if (!entry) return std::nullopt;
    PyPdnEntry out;
    out.line = entry->line;
    if (entry->game)
        out.game = std::move(entry->game).value();
    else
        out.error = entry->game.error();
    return out;
}

std::string writePdnText(const std::vector<lasca::PdnGame>& games) {
    std::string out;
    for (const lasca::PdnGame& game : games) out += lasca::writePdn(game);
    return out;
}

void bindMoves(py::module_& m) {
    py::class_<PyMove>(m, "Move",
                       "A move as a value: its start, landing squares, captured squares and "
                       "promotion. str(move) is its text (c3-d4, e5xc3); equal moves have the "
                       "same squares.")
        .def(py::init(&moveFromText), py::arg("text"), "The move a text names (as Move.from_text).")
        .def_static("from_text", &moveFromText, py::arg("text"),
                    "The move a text names (c3-d4, e5xc3, d2xb4xd6, c3d4), read without a "
                    "position: legality and promotion are unknown (promotion is None). "
                    "ValueError when it is not a step or a chain of jumps.")
        .def_static("parse", &moveFromText, py::arg("text"), "The same as from_text.")
        .def_property_readonly(
            "from_square", [](const PyMove& self) { return lasca::squareName(self.move.origin()); },
            "The start square (\"c3\").")
        .def_property_readonly(
            "to_square",
            [](const PyMove& self) { return lasca::squareName(self.move.destination()); },
            "The last landing square.")
        .def_property_readonly(
            "path",
            [](const PyMove& self) {
                std::vector<std::string> squares;
                for (int i = 0; i < self.move.length; ++i)
                    squares.push_back(lasca::squareName(self.move.landing(i)));
                return squares;
            },
            "The landing squares in order.")
        .def_property_readonly(
            "captured",
            [](const PyMove& self) {
                std::vector<std::string> squares;
                if (self.move.capture)
                    for (int i = 0; i < self.move.length; ++i)
                        squares.push_back(lasca::squareName(self.move.jumped(i)));
                return squares;
            },
            "The jumped squares in order (their columns' commanders are taken prisoner).")
        .def_property_readonly("is_capture", [](const PyMove& self) { return self.move.capture; })
        .def_readonly("promotion", &PyMove::promotion,
                      "Whether the move promotes its soldier (R8); None when read from text "
                      "alone.")
        .def("__str__", [](const PyMove& self) { return lasca::formatMove(self.move); })
        .def("__repr__",
             [](const PyMove& self) { return "Move('" + lasca::formatMove(self.move) + "')"; })
        .def("__eq__",
             [](const PyMove& self, const py::object& other) -> py::object {
                 if (!py::isinstance<PyMove>(other))
                     return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                 return py::bool_(self.move == other.cast<const PyMove&>().move);
             })
        .def("__hash__",
             [](const PyMove& self) { return py::hash(py::str(lasca::formatMove(self.move))); })
        .def(py::pickle(
            [](const PyMove& self) {
                return py::make_tuple(lasca::formatMove(self.move), self.promotion);
            },
            [](const py::tuple& state) {
                if (state.size() != 2) throw std::runtime_error("Move: bad pickled state");
                PyMove move = moveFromText(state[0].cast<std::string>());
                move.promotion = state[1].cast<std::optional<bool>>();
                return move;
            }));

    py::class_<PyMoveList>(m, "MoveList",
                           "Moves as a sequence (legal_moves, move_stack): len, iteration, "
                           "indexing, `in` with a Move or a text; calling it gives the texts.")
        .def("__len__", [](const PyMoveList& self) { return self.moves.size(); })
        .def("__bool__", [](const PyMoveList& self) { return !self.moves.empty(); })
        .def(
            "__iter__",
            [](const PyMoveList& self) {
                return py::make_iterator(self.moves.begin(), self.moves.end());
            },
            py::keep_alive<0, 1>())
        .def("__getitem__",
             [](const PyMoveList& self, std::ptrdiff_t i) {
                 const auto n = static_cast<std::ptrdiff_t>(self.moves.size());
                 if (i < 0) i += n;
                 if (i < 0 || i >= n) throw py::index_error("move index out of range");
                 return self.moves[static_cast<std::size_t>(i)];
             })
        .def("__contains__", &PyMoveList::contains)
        .def("__call__", &PyMoveList::texts,
             "The moves' texts as a list (the older spelling: pos.legal_moves()).")
        .def("__eq__",
             [](const PyMoveList& self, const py::object& other) -> py::object {
                 if (!py::isinstance<PyMoveList>(other))
                     return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                 return py::bool_(self.texts() == other.cast<const PyMoveList&>().texts());
             })
        .def("__repr__", [](const PyMoveList& self) {
            std::string out = "MoveList([";
            for (std::size_t i = 0; i < self.moves.size(); ++i)
                out += (i ? ", '" : "'") + lasca::formatMove(self.moves[i].move) + "'";
            return out + "])";
        });
    m.attr("MoveList").attr("__hash__") = py::none();

    py::class_<PyOutcome>(m, "Outcome",
                          "How a game ended: winner (\"white\", \"black\", None for a draw), "
                          "termination, rule; result() in chess notation.")
        .def_readonly("winner", &PyOutcome::winner)
        .def_readonly("termination", &PyOutcome::termination)
        .def_readonly("rule", &PyOutcome::rule)
        .def("result",
             [](const PyOutcome& self) {
                 if (!self.winner) return std::string("1/2-1/2");
                 return std::string(*self.winner == "white" ? "1-0" : "0-1");
             })
        .def("__repr__", [](const PyOutcome& self) {
            return "Outcome(winner=" + (self.winner ? "'" + *self.winner + "'" : "None") +
                   ", termination='" + self.termination + "', rule='" + self.rule + "')";
        });
}

void bindPosition(py::module_& m) {
    auto position =
        py::class_<PyPosition>(m, "Position",
                               "A Lasca position with a stack of pushed moves (push/pop).")
            .def(py::init<>(), "The start position.")
            .def(py::init([](const std::string& lfen) {
                     return PyPosition{positionFromLfen(lfen), {}};
                 }),
                 py::arg("lfen"), "The position of an LFEN string; ValueError when it is not one.")
            .def_property_readonly(
                "legal_moves", [](const PyPosition& self) { return legalMovesOf(self.pos); },
                "The legal moves (a MoveList of Move, in generation order); calling it, "
                "legal_moves(), gives their texts as the engine writes them (c3-d4, d2xb4xd6).")
            .def(
                "parse_move",
                [](const PyPosition& self, const std::string& text) {
                    return parseLegalMove(self.pos, text);
                },
                py::arg("text"),
                "The legal Move a text names (c3-d4, c3d4, d2xb4xd6...); ValueError when the text "
                "is unreadable or the move not legal here.")
            .def(
                "push", [](PyPosition& self, const py::object& move) { return self.push(move); },
                py::arg("move"),
                "Plays a legal move, a Move or its text (c3-d4, c3d4, d2xb4xd6...); returns it as "
                "the engine writes it. ValueError when the move is unreadable or not legal here.")
            .def("pop", &PyPosition::pop, "Takes back the last pushed move and returns it.")
            .def_property_readonly("move_stack", &PyPosition::moveStack,
                                   "The pushed moves, oldest first (a MoveList; move_stack() "
                                   "gives their texts).")
            .def("lfen", [](const PyPosition& self) { return self.pos.toLfen(); })
            .def("side_to_move",
                 [](const PyPosition& self) { return colourName(self.pos.sideToMove()); })
            .def("quiet_plies", [](const PyPosition& self) { return self.pos.quietPlies(); })
            .def("move_number", [](const PyPosition& self) { return self.pos.moveNumber(); })
            .def(
                "key", [](const PyPosition& self) { return self.pos.key(); }, "The hash key.")
            .def(
                "is_legal",
                [](const PyPosition& self, const std::string& text) {
                    return text.size() <= kMaxTokenLength && lasca::parseMove(self.pos, text).ok();
                },
                py::arg("move"))
            .def("perft", &perftOf, py::arg("depth"),
                 "Number of move paths of length depth (0..20), counted in C++.")
            .def(
                "column",
                [](const PyPosition& self, const std::string& s) { return columnOn(self.pos, s); },
                py::arg("square"),
                "The column on a square as in LFEN, top first (\"Wbb\"), or None when empty.")
            .def(
                "svg",
                [](const PyPosition& self, bool flip, int size,
                   const std::optional<std::string>& last) {
                    return svgOf(self.pos, flip, size, last);
                },
                py::arg("flip") = false, py::arg("size") = 64, py::arg("last_move") = py::none(),
                "The board diagram as SVG text (as `lasca diagram`).")
            .def("_repr_svg_",
                 [](const PyPosition& self) { return svgOf(self.pos, false, 48, std::nullopt); })
            .def("copy", [](const PyPosition& self) { return self; })
            .def("__copy__", [](const PyPosition& self) { return self; })
            .def(
                "__deepcopy__", [](const PyPosition& self, py::object) { return self; },
                py::arg("memo"))
            // Equal positions (the stacks of pushed moves aside); anything else is not equal. A
            // Position changes as moves are pushed, so it is not hashable: key() is its hash.
            .def("__eq__",
                 [](const PyPosition& self, const py::object& other) -> py::object {
                     if (!py::isinstance<PyPosition>(other))
                         return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                     return py::bool_(self.pos == other.cast<const PyPosition&>().pos);
                 })
            // Pickled as the position before the pushed moves and the moves, so the stack
            // survives (pop works on the copy as on the original).
            .def(py::pickle(
                [](const PyPosition& self) {
                    PyPosition start = self;
                    while (!start.played.empty()) start.pop();
                    return py::make_tuple(start.pos.toLfen(), self.moveStack().texts());
                },
                [](const py::tuple& state) {
                    if (state.size() != 2) throw std::runtime_error("Position: bad pickled state");
                    PyPosition restored{positionFromLfen(state[0].cast<std::string>()), {}};
                    for (const auto& move : state[1].cast<std::vector<std::string>>())
                        restored.push(py::str(move));
                    return restored;
                }))
            .def(
                "__str__", [](const PyPosition& self) { return boardText(self.pos); },
                "The board as text (a row per rank; a column by its top piece and height).")
            .def("__repr__",
                 [](const PyPosition& self) { return "Position('" + self.pos.toLfen() + "')"; });
    position.attr("__hash__") = py::none();
}

void bindGame(py::module_& m) {
    py::class_<StatusInfo>(m, "Status", "The rules' verdict on a game (R9, T1, T2).")
        .def_readonly("outcome", &StatusInfo::outcome)
        .def_readonly("termination", &StatusInfo::termination)
        .def_readonly("rule", &StatusInfo::rule)
        .def_readonly("result", &StatusInfo::result)
        .def_readonly("over", &StatusInfo::over)
        .def("__repr__", [](const StatusInfo& s) {
            return "Status(outcome='" + s.outcome + "', termination='" + s.termination +
                   "', rule='" + s.rule + "', result='" + s.result + "')";
        });

    py::class_<PyGame>(m, "Game", "A game: its start, its moves and the rules' verdict.")
        .def(py::init(&makeGame), py::arg("lfen") = py::none(), py::arg("repetition") = true,
             py::arg("no_progress") = true,
             "A game from the start position or an LFEN; repetition (T1) and no_progress (T2) "
             "switch the draw rules.")
        .def(
            "push", [](PyGame& self, const py::object& move) { return self.push(move); },
            py::arg("move"),
            "Plays a legal move, a Move or its text; returns it as the engine writes it. "
            "RuntimeError once the game is over.")
        .def("pop", &PyGame::pop)
        .def("moves", &PyGame::moveTexts, "The moves played, as texts.")
        .def_property_readonly("move_stack", &PyGame::moveStack,
                               "The moves played, oldest first (a MoveList of Move).")
        .def_property_readonly(
            "legal_moves", [](const PyGame& self) { return legalMovesOf(self.game.current()); },
            "The legal moves (a MoveList); legal_moves() gives their texts.")
        .def(
            "parse_move",
            [](const PyGame& self, const std::string& text) {
                return parseLegalMove(self.game.current(), text);
            },
            py::arg("text"), "The legal Move a text names; ValueError otherwise.")
        .def("position",
             [](const PyGame& self) {
                 return PyPosition{self.game.current(), {}};
             })
        .def("start",
             [](const PyGame& self) {
                 return PyPosition{self.game.start(), {}};
             })
        .def("lfen", [](const PyGame& self) { return self.game.current().toLfen(); })
        .def("occurrences", [](const PyGame& self) { return self.game.occurrences(); })
        .def("status", [](const PyGame& self) { return describe(self.game.status(self.rules)); })
        .def(
            "result",
            [](const PyGame& self) { return chessResult(self.game.status(self.rules).outcome); },
            "The result as python-chess writes it: \"1-0\", \"0-1\", \"1/2-1/2\", \"*\".")
        .def(
            "pdn_result",
            [](const PyGame& self) {
                return std::string(lasca::pdnResult(self.game.status(self.rules).outcome));
            },
            "The result as PDN writes it: \"2-0\", \"0-2\", \"1-1\", \"*\".")
        .def(
            "outcome", [](const PyGame& self) { return outcomeOf(self.game.status(self.rules)); },
            "How the game ended (an Outcome), or None while it goes on.")
        .def("is_over", [](const PyGame& self) { return self.game.status(self.rules).over(); })
        .def("pdn", &pdnOfGame,
             py::arg("tags") = std::vector<std::pair<std::string, std::string>>{},
             "The game as a PdnGame (for write_pdn).")
        .def_static("from_pdn", &gameOfPdn, py::arg("pdn"),
                    "Replays a PdnGame's moves from its FEN tag; ValueError at the first bad move.")
        .def("_repr_svg_",
             [](const PyGame& self) { return svgOf(self.game.current(), false, 48, std::nullopt); })
        .def(
            "is_game_over", [](const PyGame& self) { return self.game.status(self.rules).over(); },
            "Whether the rules ended the game (python-chess's name for is_over).")
        .def("copy", [](const PyGame& self) { return self; })
        .def("__copy__", [](const PyGame& self) { return self; })
        .def(
            "__deepcopy__", [](const PyGame& self, py::object) { return self; }, py::arg("memo"))
        // Pickled as its start, its moves and its draw rules; unpickling plays the moves again.
        .def(py::pickle(
            [](const PyGame& self) {
                return py::make_tuple(self.game.start().toLfen(), self.moveTexts(),
                                      self.rules.repetition, self.rules.noProgress);
            },
            [](const py::tuple& state) {
                if (state.size() != 4) throw std::runtime_error("Game: bad pickled state");
                PyGame restored = makeGame(state[0].cast<std::string>(), state[2].cast<bool>(),
                                           state[3].cast<bool>());
                for (const auto& move : state[1].cast<std::vector<std::string>>())
                    restored.push(py::str(move));
                return restored;
            }))
        .def("__str__", [](const PyGame& self) { return boardText(self.game.current()); })
        .def("__len__", [](const PyGame& self) { return self.game.moves().size(); })
        .def("__repr__", [](const PyGame& self) {
            return "Game('" + self.game.current().toLfen() + "', " +
                   std::to_string(self.game.moves().size()) + " moves)";
        });
}

// Glyphs as given, or ValueError when one is outside 0..255.
std::vector<lasca::Nags> checkedNags(const std::vector<lasca::Nags>& nags) {
    for (const auto& glyphs : nags)
        for (int nag : glyphs)
            if (nag < 0 || nag > lasca::kMaxNag)
                throw py::value_error("a glyph is 0.." + std::to_string(lasca::kMaxNag) + ", got " +
                                      std::to_string(nag));
    return nags;
}

void bindPdn(py::module_& m) {
    using lasca::PdnGame;
    py::class_<lasca::PdnLine>(m, "PdnLine",
                               "A line of moves played instead of a move of another line: moves, "
                               "comments (comments[i] after moves[i]), variations (PdnVariation), "
                               "comment (before its first move), nags (nags[i]: the glyphs "
                               "after moves[i]).")
        .def(py::init([](const std::vector<std::string>& moves,
                         const std::vector<std::string>& comments,
                         const std::vector<lasca::PdnVariation>& variations,
                         const std::string& comment, const std::vector<lasca::Nags>& nags) {
                 return lasca::PdnLine{moves, comments, variations, comment, checkedNags(nags)};
             }),
             py::arg("moves") = std::vector<std::string>{},
             py::arg("comments") = std::vector<std::string>{},
             py::arg("variations") = std::vector<lasca::PdnVariation>{}, py::arg("comment") = "",
             py::arg("nags") = std::vector<lasca::Nags>{})
        .def_readwrite("moves", &lasca::PdnLine::moves)
        .def_readwrite("comments", &lasca::PdnLine::comments)
        .def_readwrite("variations", &lasca::PdnLine::variations)
        .def_readwrite("comment", &lasca::PdnLine::comment)
        .def_property(
            "nags", [](const lasca::PdnLine& self) { return self.nags; },
            [](lasca::PdnLine& self, const std::vector<lasca::Nags>& nags) {
                self.nags = checkedNags(nags);
            });
    py::class_<lasca::PdnVariation>(m, "PdnVariation",
                                    "A line played instead of the move `at` (0-based) of the "
                                    "enclosing line.")
        .def(py::init([](std::size_t at, const lasca::PdnLine& line) {
                 return lasca::PdnVariation{at, line};
             }),
             py::arg("at"), py::arg("line"))
        .def_readwrite("at", &lasca::PdnVariation::at)
        .def_readwrite("line", &lasca::PdnVariation::line);
    py::class_<PdnGame>(m, "PdnGame",
                        "One PDN game: tags (list of (name, value)), moves, result, comments, "
                        "variations; tree() gives it as a tree of PdnNode.")
        .def(py::init([](const std::vector<std::string>& moves,
                         const std::vector<std::pair<std::string, std::string>>& tags,
                         const std::string& result) {
                 PdnGame game;
                 game.moves = moves;
                 game.tags = tags;
                 game.result = result;
                 return game;
             }),
             py::arg("moves") = std::vector<std::string>{},
             py::arg("tags") = std::vector<std::pair<std::string, std::string>>{},
             py::arg("result") = "*")
        .def_readwrite("tags", &PdnGame::tags)
        .def_readwrite("moves", &PdnGame::moves)
        .def_readwrite("result", &PdnGame::result)
        .def_readwrite("comment", &PdnGame::comment)
        .def_readwrite("comments", &PdnGame::comments)
        .def_readwrite("annotations", &PdnGame::annotations)
        .def_property(
            "nags", [](const PdnGame& self) { return self.nags; },
            [](PdnGame& self, const std::vector<lasca::Nags>& nags) {
                self.nags = checkedNags(nags);
            },
            "nags[i]: the glyphs ($n, 0..255) after moves[i]; move marks are read as glyphs.")
        .def_readwrite("variations", &PdnGame::variations,
                       "The lines played instead of main-line moves (PdnVariation), nested.")
        .def("tag", &PdnGame::tag, py::arg("name"), "A tag's value, or None.")
        .def(
            "replay",
            [](const PdnGame& self, bool repetition, bool noProgress) {
                return valueOrThrow(
                    lasca::replayPdn(self, lasca::DrawRules{repetition, noProgress}));
            },
            py::arg("repetition") = true, py::arg("no_progress") = true,
            "Re-checks the game against the rules (T1 and T2 can be switched off, as for Game); "
            "returns the final LFEN, ValueError if wrong.")
        .def("game", &gameOfPdn, "The game as a lasca.Game.")
        .def("__repr__", [](const PdnGame& self) {
            return "PdnGame(" + std::to_string(self.moves.size()) + " moves, result '" +
                   self.result + "')";
        });
    m.def("read_pdn", &readPdnText, py::arg("text"),
          "Every game of a PDN text, as PdnGame objects; ValueError naming the line when broken.");

    py::class_<PyPdnEntry>(m, "PdnEntry",
                           "One game of a PDN stream: line (where it starts, 1-based), game (a "
                           "PdnGame, None when broken) and error (None, or what is wrong).")
        .def_readonly("line", &PyPdnEntry::line)
        .def_readonly("game", &PyPdnEntry::game)
        .def_readonly("error", &PyPdnEntry::error)
        .def("__repr__", [](const PyPdnEntry& self) {
            return "PdnEntry(line " + std::to_string(self.line) + ", " +
                   (self.game ? std::to_string(self.game->moves.size()) + " moves"
                              : "error '" + self.error.value_or("") + "'") +
                   ")";
        });
    py::class_<lasca::PdnReader>(m, "PdnReader",
                                 "Reads PDN line by line (lasca.iter_pdn drives it): feed(line) "
                                 "returns the PdnEntry a line ended, finish() the last one.")
        .def(py::init<>())
        .def(
            "feed",
            [](lasca::PdnReader& self, const std::string& line) {
                checkLength(line, kMaxPdnLength, "PDN line");
                return entryOf(self.feed(line));
            },
            py::arg("line"))
        .def("finish", [](lasca::PdnReader& self) { return entryOf(self.finish()); });
    m.def("write_pdn", &writePdnText, py::arg("games"), "The games as PDN text.");
}

}  // namespace

// The endgame tables (docs/egtb.md), as python-chess's chess.syzygy: probe_* raise KeyError for a
// position no table holds, get_* return None.
void bindTablebase(py::module_& m) {
    const auto probe = [](const lasca::egtb::Tablebase& tb, const PyPosition& p) {
        const auto result = tb.probe(p.pos);
        if (!result) throw py::key_error("no table holds " + p.pos.toLfen());
        return *result;
    };
    const auto wdl = [](const lasca::egtb::Probe& r) { return static_cast<int>(r.wdl); };
    py::class_<lasca::egtb::Tablebase>(
        m, "Tablebase",
        "Exact endgame tables of one column a side and of two columns against one "
        "(docs/egtb.md).")
        .def_static(
            "open",
            [](const std::string& folder) {
                return valueOrThrow(lasca::egtb::Tablebase::open(folder));
            },
            py::arg("folder"),
            "The tables (lasca-1v1-<N>.egtb, lasca-2v1-<N>.egtb) of a folder; ValueError when "
            "the folder is missing or a table in it is truncated or corrupted.")
        .def(
            "piece_counts",
            [](const lasca::egtb::Tablebase& tb) {
                return tb.pieceCounts(lasca::egtb::Family::OneAgainstOne);
            },
            "The piece counts (N) of the one-column-a-side tables loaded.")
        .def(
            "two_against_one_piece_counts",
            [](const lasca::egtb::Tablebase& tb) {
                return tb.pieceCounts(lasca::egtb::Family::TwoAgainstOne);
            },
            "The piece counts (N) of the two-columns-against-one tables loaded.")
        .def(
            "probe_wdl",
            [=](const lasca::egtb::Tablebase& tb, const PyPosition& p) {
                return wdl(probe(tb, p));
            },
            py::arg("position"),
            "1 (the side to move wins), 0 (draw) or -1 (it loses) under R1-R9 with T1/T2 off; "
            "KeyError when no table holds the position.")
        .def(
            "probe_distance",
            [=](const lasca::egtb::Tablebase& tb, const PyPosition& p) {
                return probe(tb, p).plies;
            },
            py::arg("position"),
            "Plies to the end under best play (0 for a draw); KeyError when no table holds it.")
        .def(
            "get_wdl",
            [=](const lasca::egtb::Tablebase& tb, const PyPosition& p) -> std::optional<int> {
                const auto r = tb.probe(p.pos);
                if (!r) return std::nullopt;
                return wdl(*r);
            },
            py::arg("position"), "probe_wdl, or None when no table holds the position.")
        .def(
            "get_distance",
            [](const lasca::egtb::Tablebase& tb, const PyPosition& p) -> std::optional<int> {
                const auto r = tb.probe(p.pos);
                if (!r) return std::nullopt;
                return r->plies;
            },
            py::arg("position"), "probe_distance, or None when no table holds the position.");
}

PYBIND11_MODULE(_lasca, m) {
    m.doc() = "Lasca rules core, PDN and diagrams (the C++ part of the lasca package).";
    m.attr("START_LFEN") = std::string(lasca::kStartLfen);
    m.attr("MAX_PERFT_DEPTH") = kMaxPythonPerftDepth;
    m.attr("__version__") = std::string(LASCA_VERSION);
    bindMoves(m);
    bindPosition(m);
    bindGame(m);
    bindPdn(m);
    bindTablebase(m);
}
