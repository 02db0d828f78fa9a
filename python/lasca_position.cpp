// lasca._lasca's moves and positions: Move (a move as a value, read from its text or made by a
// position), MoveList and Position (push/pop, legal moves, perft, columns, diagrams, pickling).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "class_guard.h"
#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"
#include "lasca/core/perft.h"
#include "lasca_bind.h"

namespace lasca_python {

namespace {

lasca::Square squareFromText(const std::string& text) {
    checkLength(text, kMaxTokenLength, "square");
    std::optional<lasca::Square> square = lasca::parseSquare(text);
    if (!square || *square < 0 || *square >= lasca::kSquares)
        throw py::value_error("not a square of the board: '" + text + "' (a1..g7, dark squares)");
    return *square;
}

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

}  // namespace

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
        .def_static("from_uci", &moveFromText, py::arg("text"),
                    "python-chess's name for from_text: the move text as the engine's protocol "
                    "writes it (c3-d4, c3xe5xg7, also c3d4), \"0000\" the null move.")
        .def_static(
            "null",
            []() {
                return PyMove{lasca::Move{}, std::nullopt};
            },
            "The null move (\"0000\", false as a bool): what the engine's protocol writes for "
            "no move. It is never legal: push refuses it (ValueError).")
        .def(
            "uci", [](const PyMove& self) { return moveText(self); },
            "The move's text in the engine's protocol (c3-d4, c3xe5xg7; \"0000\" the null "
            "move): the same as str(move).")
        .def("__bool__", [](const PyMove& self) { return !self.move.isNull(); })
        .def_property_readonly(
            "from_square",
            [](const PyMove& self) -> std::optional<std::string> {
                if (self.move.isNull()) return std::nullopt;
                return lasca::squareName(self.move.origin());
            },
            "The start square (\"c3\"); None for the null move.")
        .def_property_readonly(
            "to_square",
            [](const PyMove& self) -> std::optional<std::string> {
                if (self.move.isNull()) return std::nullopt;
                return lasca::squareName(self.move.destination());
            },
            "The last landing square; None for the null move.")
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
        .def("__str__", [](const PyMove& self) { return moveText(self); })
        .def("__repr__",
             [](const PyMove& self) {
                 return self.move.isNull() ? std::string("Move.null()")
                                           : "Move('" + moveText(self) + "')";
             })
        .def("__eq__",
             [](const PyMove& self, const py::object& other) -> py::object {
                 if (!py::isinstance<PyMove>(other))
                     return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                 return py::bool_(self.move == other.cast<const PyMove&>().move);
             })
        .def("__hash__", [](const PyMove& self) { return py::hash(py::str(moveText(self))); })
        .def(py::pickle(
            [](const PyMove& self) { return py::make_tuple(moveText(self), self.promotion); },
            [](const py::tuple& state) {
                if (state.size() != 2) throw std::runtime_error("Move: bad pickled state");
                PyMove move = moveFromText(state[0].cast<std::string>());
                move.promotion = state[1].cast<std::optional<bool>>();
                return move;
            }));
    python_guard::guardClass<PyMove>(m.attr("Move"), python_guard::Pickling::ByState);

    py::class_<PyMoveList>(m, "MoveList",
                           "Moves as a sequence (legal_moves, move_stack): len, iteration, "
                           "indexing, `in` with a Move or a text; calling it gives the texts.")
        .def("__len__", [](const PyMoveList& self) { return self.moves.size(); })
        .def(
            "count", [](const PyMoveList& self) { return self.moves.size(); },
            "The number of moves (python-chess's legal_moves.count()).")
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
        .def("__repr__",
             [](const PyMoveList& self) {
                 std::string out = "MoveList([";
                 for (std::size_t i = 0; i < self.moves.size(); ++i)
                     out += (i ? ", '" : "'") + moveText(self.moves[i]) + "'";
                 return out + "])";
             })
        // Pickled as its moves (each pickled as a Move, with its promotion).
        .def(py::pickle([](const PyMoveList& self) { return py::make_tuple(self.moves); },
                        [](const py::tuple& state) {
                            if (state.size() != 1)
                                throw std::runtime_error("MoveList: bad pickled state");
                            return PyMoveList{state[0].cast<std::vector<PyMove>>()};
                        }));
    m.attr("MoveList").attr("__hash__") = py::none();
    python_guard::guardClass<PyMoveList>(m.attr("MoveList"), python_guard::Pickling::ByState);
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
            .def("pop", &PyPosition::pop,
                 "Takes back the last pushed move and returns it (a Move); IndexError when the "
                 "stack is empty.")
            .def(
                "peek",
                [](const PyPosition& self) {
                    if (self.played.empty()) throw py::index_error("peek at an empty move stack");
                    return self.played.back().first;
                },
                "The last pushed move (a Move); IndexError when the stack is empty.")
            .def(
                "push_uci",
                [](PyPosition& self, const std::string& text) {
                    const PyMove move = parseLegalMove(self.pos, text);
                    self.push(py::cast(move));
                    return move;
                },
                py::arg("text"),
                "Plays the legal move a text names (c3-d4, c3d4, c3xe5xg7) and returns it (a "
                "Move); ValueError when it is unreadable or not legal here.")
            .def_property_readonly(
                "turn",
                [](const PyPosition& self) { return self.pos.sideToMove() == lasca::Color::White; },
                "The side to move: True White (lasca.WHITE), False Black (lasca.BLACK).")
            .def(
                "fen", [](const PyPosition& self) { return self.pos.toLfen(); },
                "The LFEN (python-chess's name; the same as lfen()).")
            .def(
                "ply", [](const PyPosition& self) { return plyOf(self.pos); },
                "Half-moves since the move numbering began: 2 * (move number - 1), plus 1 when "
                "Black is to move.")
            .def(
                "reset",
                [](PyPosition& self) {
                    self.pos = lasca::Position::startPosition();
                    self.played.clear();
                },
                "The start position, with an empty move stack.")
            .def(
                "is_game_over",
                [](const PyPosition& self, bool) {
                    return self.game().status(lasca::DrawRules{}).over();
                },
                py::kw_only(), py::arg("claim_draw") = false,
                "Whether the game is over (R9; T1 and T2 counted over the move stack).")
            .def(
                "outcome",
                [](const PyPosition& self, bool) {
                    return outcomeOf(self.game().status(lasca::DrawRules{}));
                },
                py::kw_only(), py::arg("claim_draw") = false,
                "How the game ended (an Outcome), or None while it goes on: R9, and T1 and T2 "
                "counted over the move stack (the position before it is the game's start). "
                "claim_draw changes nothing: T1 and T2 end a game by themselves.")
            .def(
                "result",
                [](const PyPosition& self, bool) {
                    return chessResult(self.game().status(lasca::DrawRules{}).outcome);
                },
                py::kw_only(), py::arg("claim_draw") = false,
                "The result as python-chess writes it: \"1-0\", \"0-1\", \"1/2-1/2\", \"*\".")
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
                [](const PyPosition& self, const py::object& move) {
                    // A Move or its text, as push takes; TypeError for anything else.
                    if (py::isinstance<py::str>(move)) {
                        const auto text = move.cast<std::string>();
                        return text.size() <= kMaxTokenLength &&
                               lasca::parseMove(self.pos, text).ok();
                    }
                    if (!py::isinstance<PyMove>(move))
                        throw py::type_error(
                            std::string("a move is a lasca.Move or its text, got ") +
                            std::string(py::str(py::type::of(move).attr("__name__"))));
                    lasca::MoveList legal;
                    lasca::generateMoves(self.pos, legal);
                    return legal.contains(move.cast<const PyMove&>().move);
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
            .def(
                "copy",
                [](const PyPosition& self, const py::object& stack) {
                    PyPosition copy = self;
                    const std::size_t keep = stackDepth(stack, self.played.size());
                    copy.played.erase(copy.played.begin(),
                                      copy.played.end() - static_cast<std::ptrdiff_t>(keep));
                    return copy;
                },
                py::arg("stack") = true,
                "A copy with the last pushed moves (stack: True all, False none, or a number): "
                "pop() takes back only those.")
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
                "__str__", [](const PyPosition& self) { return lasca::boardText(self.pos); },
                "The board as text (a row per rank; a column by its top piece and height).")
            .def("__repr__",
                 [](const PyPosition& self) { return "Position('" + self.pos.toLfen() + "')"; });
    position.attr("__hash__") = py::none();
    python_guard::guardClass<PyPosition>(position, python_guard::Pickling::ByState);
}

}  // namespace lasca_python
