// lasca._lasca's games: Status and Outcome (the rules' verdict, R9, T1, T2) and Game (a start,
// its moves, the draw rules in force; as PDN and from PDN; pickling).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "class_guard.h"
#include "lasca/core/notation.h"
#include "lasca/core/pdn.h"
#include "lasca_bind.h"

namespace lasca_python {

namespace {

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

PyGame makeGame(const std::optional<std::string>& lfen, bool repetition, bool noProgress) {
    lasca::Position start = lfen ? positionFromLfen(*lfen) : lasca::Position::startPosition();
    return PyGame{lasca::Game(start), lasca::DrawRules{repetition, noProgress}};
}

}  // namespace

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
    if (status.outcome == lasca::Outcome::WhiteWins) out.winner = true;
    if (status.outcome == lasca::Outcome::BlackWins) out.winner = false;
    out.termination = lasca::terminationName(status.termination);
    out.rule = lasca::terminationRule(status.termination);
    return out;
}

void bindGame(py::module_& m) {
    py::class_<PyOutcome>(m, "Outcome",
                          "How a game ended: winner (True White, False Black, None for a draw: "
                          "python-chess's colours), termination, rule; result() in chess "
                          "notation.")
        .def_readonly("winner", &PyOutcome::winner)
        .def_readonly("termination", &PyOutcome::termination)
        .def_readonly("rule", &PyOutcome::rule)
        .def("result",
             [](const PyOutcome& self) {
                 if (!self.winner) return std::string("1/2-1/2");
                 return std::string(*self.winner ? "1-0" : "0-1");
             })
        .def("__repr__",
             [](const PyOutcome& self) {
                 const std::string winner =
                     !self.winner ? "None" : (*self.winner ? "True" : "False");
                 return "Outcome(winner=" + winner + ", termination='" + self.termination +
                        "', rule='" + self.rule + "')";
             })
        .def("__eq__",
             [](const PyOutcome& self, const py::object& other) -> py::object {
                 if (!py::isinstance<PyOutcome>(other))
                     return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                 const auto& that = other.cast<const PyOutcome&>();
                 return py::bool_(self.winner == that.winner &&
                                  self.termination == that.termination && self.rule == that.rule);
             })
        // Pickled as (winner, termination, rule); pickles written when the winner was the text
        // "white" or "black" still load.
        .def(py::pickle(
            [](const PyOutcome& self) {
                return py::make_tuple(self.winner, self.termination, self.rule);
            },
            [](const py::tuple& state) {
                if (state.size() != 3) throw std::runtime_error("Outcome: bad pickled state");
                std::optional<bool> winner;
                if (py::isinstance<py::str>(state[0]))
                    winner = state[0].cast<std::string>() == "white";
                else
                    winner = state[0].cast<std::optional<bool>>();
                return PyOutcome{winner, state[1].cast<std::string>(),
                                 state[2].cast<std::string>()};
            }));
    m.attr("Outcome").attr("__hash__") = py::none();
    python_guard::guardClass<PyOutcome>(m.attr("Outcome"), python_guard::Pickling::ByState);

    py::class_<StatusInfo>(m, "Status", "The rules' verdict on a game (R9, T1, T2).")
        .def_readonly("outcome", &StatusInfo::outcome)
        .def_readonly("termination", &StatusInfo::termination)
        .def_readonly("rule", &StatusInfo::rule)
        .def_readonly("result", &StatusInfo::result)
        .def_readonly("over", &StatusInfo::over)
        .def("__repr__",
             [](const StatusInfo& s) {
                 return "Status(outcome='" + s.outcome + "', termination='" + s.termination +
                        "', rule='" + s.rule + "', result='" + s.result + "')";
             })
        .def(py::pickle(
            [](const StatusInfo& s) {
                return py::make_tuple(s.outcome, s.termination, s.rule, s.result, s.over);
            },
            [](const py::tuple& state) {
                if (state.size() != 5) throw std::runtime_error("Status: bad pickled state");
                return StatusInfo{state[0].cast<std::string>(), state[1].cast<std::string>(),
                                  state[2].cast<std::string>(), state[3].cast<std::string>(),
                                  state[4].cast<bool>()};
            }));
    python_guard::guardClass<StatusInfo>(m.attr("Status"), python_guard::Pickling::ByState);

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
            [](const PyGame& self, bool) {
                return chessResult(self.game.status(self.rules).outcome);
            },
            py::kw_only(), py::arg("claim_draw") = false,
            "The result as python-chess writes it: \"1-0\", \"0-1\", \"1/2-1/2\", \"*\". "
            "claim_draw changes nothing: T1 and T2 end a game by themselves.")
        .def(
            "pdn_result",
            [](const PyGame& self) {
                return std::string(lasca::pdnResult(self.game.status(self.rules).outcome));
            },
            "The result as PDN writes it: \"2-0\", \"0-2\", \"1-1\", \"*\".")
        .def(
            "outcome",
            [](const PyGame& self, bool) { return outcomeOf(self.game.status(self.rules)); },
            py::kw_only(), py::arg("claim_draw") = false,
            "How the game ended (an Outcome), or None while it goes on; claim_draw changes "
            "nothing (T1 and T2 end a game by themselves).")
        .def("is_over", [](const PyGame& self) { return self.game.status(self.rules).over(); })
        .def(
            "pdn",
            [](const PyGame& self, const std::vector<std::pair<std::string, std::string>>& tags) {
                return lasca::pdnOfGame(self.game, self.rules, tags);
            },
            py::arg("tags") = std::vector<std::pair<std::string, std::string>>{},
            "The game as a PdnGame (for write_pdn).")
        .def_static("from_pdn", &gameOfPdn, py::arg("pdn"),
                    "Replays a PdnGame's moves from its FEN tag; ValueError at the first bad move.")
        .def("_repr_svg_",
             [](const PyGame& self) { return svgOf(self.game.current(), false, 48, std::nullopt); })
        .def(
            "is_game_over",
            [](const PyGame& self, bool) { return self.game.status(self.rules).over(); },
            py::kw_only(), py::arg("claim_draw") = false,
            "Whether the rules ended the game (python-chess's name for is_over).")
        .def_property_readonly(
            "turn",
            [](const PyGame& self) {
                return self.game.current().sideToMove() == lasca::Color::White;
            },
            "The side to move: True White (lasca.WHITE), False Black (lasca.BLACK).")
        .def(
            "fen", [](const PyGame& self) { return self.game.current().toLfen(); },
            "The current position's LFEN (python-chess's name).")
        .def(
            "ply", [](const PyGame& self) { return plyOf(self.game.current()); },
            "Half-moves since the move numbering began: 2 * (move number - 1), plus 1 when "
            "Black is to move.")
        .def(
            "peek",
            [](const PyGame& self) {
                PyMoveList stack = self.moveStack();
                if (stack.moves.empty()) throw py::index_error("peek at an empty move stack");
                return stack.moves.back();
            },
            "The last move played (a Move); IndexError when none was.")
        .def(
            "push_uci",
            [](PyGame& self, const std::string& text) {
                const lasca::Position before = self.game.current();
                self.push(py::str(text));  // RuntimeError first when the game is over
                return moveIn(before, self.game.moves().back());
            },
            py::arg("text"),
            "Plays the legal move a text names and returns it (a Move); ValueError when "
            "unreadable or not legal, RuntimeError once the game is over.")
        .def(
            "copy",
            [](const PyGame& self, const py::object& stack) {
                const auto& moves = self.game.moves();
                const std::size_t keep = stackDepth(stack, moves.size());
                lasca::Position start = self.game.start();
                for (std::size_t i = 0; i + keep < moves.size(); ++i) {
                    lasca::Undo undo{};
                    start.make(moves[i], undo);
                }
                PyGame copy{lasca::Game(start), self.rules};
                for (std::size_t i = moves.size() - keep; i < moves.size(); ++i)
                    copy.game.play(moves[i]);
                return copy;
            },
            py::arg("stack") = true,
            "A copy with the last moves (stack: True all, False none, or a number): the game "
            "then starts from the position before them.")
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
        .def("__str__", [](const PyGame& self) { return lasca::boardText(self.game.current()); })
        .def("__len__", [](const PyGame& self) { return self.game.moves().size(); })
        .def("__repr__", [](const PyGame& self) {
            return "Game('" + self.game.current().toLfen() + "', " +
                   std::to_string(self.game.moves().size()) + " moves)";
        });
    python_guard::guardClass<PyGame>(m.attr("Game"), python_guard::Pickling::ByState);
}

}  // namespace lasca_python
