// The Python module `lasca._lasca`: a thin pybind11 layer over the Lasca rules core
// (position, move generation, notation, game verdicts, perft), PDN (lasca::match) and the SVG
// diagrams (lasca::diagram). No rule is written here: every question goes to the core, and its
// errors (common::Result) become Python exceptions at this boundary (ValueError for bad input,
// RuntimeError for a request the state cannot answer). The package lasca/__init__.py re-exports
// these names and adds the engine client (lasca/engine.py). Guide: docs/python.md.
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

std::vector<std::string> legalMoveTexts(const lasca::Position& pos) {
    lasca::MoveList list;
    lasca::generateMoves(pos, list);
    std::vector<std::string> texts;
    texts.reserve(list.size());
    for (const lasca::Move& m : list) texts.push_back(lasca::formatMove(m));
    return texts;
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

// PyPosition: a position with the moves pushed onto it, so that pop() takes them back.
//   pos     the current position
//   played  each pushed move with the Undo that takes it back, oldest first
// Invariant: unmaking played from the back leads to the position it was created with.
struct PyPosition {
    lasca::Position pos = lasca::Position::startPosition();
    std::vector<std::pair<lasca::Move, lasca::Undo>> played;

    std::string push(const std::string& text) {
        checkLength(text, kMaxTokenLength, "move");
        lasca::Move move = valueOrThrow(lasca::parseMove(pos, text));
        lasca::Undo undo{};
        pos.make(move, undo);
        played.emplace_back(move, undo);
        return lasca::formatMove(move);
    }

    std::string pop() {
        if (played.empty()) throw std::runtime_error("pop: no move to take back");
        auto [move, undo] = played.back();
        played.pop_back();
        pos.unmake(move, undo);
        return lasca::formatMove(move);
    }

    std::vector<std::string> moveStack() const {
        std::vector<std::string> texts;
        for (const auto& entry : played) texts.push_back(lasca::formatMove(entry.first));
        return texts;
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

    std::string push(const std::string& text) {
        checkLength(text, kMaxTokenLength, "move");
        requireOngoing(game, rules);
        return lasca::formatMove(valueOrThrow(game.playText(text)));
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
};

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

void bindPosition(py::module_& m) {
    auto position =
        py::class_<PyPosition>(m, "Position",
                               "A Lasca position with a stack of pushed moves (push/pop).")
            .def(py::init<>(), "The start position.")
            .def(py::init([](const std::string& lfen) {
                     return PyPosition{positionFromLfen(lfen), {}};
                 }),
                 py::arg("lfen"), "The position of an LFEN string; ValueError when it is not one.")
            .def(
                "legal_moves", [](const PyPosition& self) { return legalMoveTexts(self.pos); },
                "The legal moves as the engine writes them (c3-d4, d2xb4xd6), in generation order.")
            .def("push", &PyPosition::push, py::arg("move"),
                 "Plays a legal move (c3-d4, c3d4, d2xb4xd6...); returns it as the engine writes "
                 "it. "
                 "ValueError when the move is unreadable or not legal here.")
            .def("pop", &PyPosition::pop, "Takes back the last pushed move and returns it.")
            .def("move_stack", &PyPosition::moveStack, "The pushed moves, oldest first.")
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
                    return py::make_tuple(start.pos.toLfen(), self.moveStack());
                },
                [](const py::tuple& state) {
                    if (state.size() != 2) throw std::runtime_error("Position: bad pickled state");
                    PyPosition restored{positionFromLfen(state[0].cast<std::string>()), {}};
                    for (const auto& move : state[1].cast<std::vector<std::string>>())
                        restored.push(move);
                    return restored;
                }))
            .def("__str__", [](const PyPosition& self) { return self.pos.toLfen(); })
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
        .def("push", &PyGame::push, py::arg("move"))
        .def("pop", &PyGame::pop)
        .def("moves", &PyGame::moveTexts)
        .def("legal_moves", [](const PyGame& self) { return legalMoveTexts(self.game.current()); })
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
        .def("result",
             [](const PyGame& self) {
                 return std::string(lasca::pdnResult(self.game.status(self.rules).outcome));
             })
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
                    restored.push(move);
                return restored;
            }))
        .def("__len__", [](const PyGame& self) { return self.game.moves().size(); })
        .def("__repr__", [](const PyGame& self) {
            return "Game('" + self.game.current().toLfen() + "', " +
                   std::to_string(self.game.moves().size()) + " moves)";
        });
}

void bindPdn(py::module_& m) {
    using lasca::PdnGame;
    py::class_<PdnGame>(m, "PdnGame",
                        "One PDN game: tags (list of (name, value)), moves, result, comments. "
                        "Variations read from a file are kept for writing but not exposed.")
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

PYBIND11_MODULE(_lasca, m) {
    m.doc() = "Lasca rules core, PDN and diagrams (the C++ part of the lasca package).";
    m.attr("START_LFEN") = std::string(lasca::kStartLfen);
    m.attr("MAX_PERFT_DEPTH") = kMaxPythonPerftDepth;
    m.attr("__version__") = std::string(LASCA_VERSION);
    bindPosition(m);
    bindGame(m);
    bindPdn(m);
}
