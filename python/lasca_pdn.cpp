// lasca._lasca's PDN: the games of a PDN text read and written by the core (lasca/core/pdn.h),
// their lines and variations, and the reader that hands out one game at a time (iter_pdn).
// lasca/pdn.py builds the game tree over these.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "class_guard.h"
#include "lasca/core/pdn.h"
#include "lasca_bind.h"

namespace lasca_python {

namespace {

// Longest PDN text read_pdn accepts (64 MB).
constexpr std::size_t kMaxPdnLength = std::size_t{64} << 20;

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

// Glyphs as given, or ValueError when one is outside 0..255.
std::vector<lasca::Nags> checkedNags(const std::vector<lasca::Nags>& nags) {
    for (const auto& glyphs : nags)
        for (int nag : glyphs)
            if (nag < 0 || nag > lasca::kMaxNag)
                throw py::value_error("a glyph is 0.." + std::to_string(lasca::kMaxNag) + ", got " +
                                      std::to_string(nag));
    return nags;
}

}  // namespace

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
            })
        .def(py::pickle(
            [](const lasca::PdnLine& self) {
                return py::make_tuple(self.moves, self.comments, self.variations, self.comment,
                                      self.nags);
            },
            [](const py::tuple& state) {
                if (state.size() != 5) throw std::runtime_error("PdnLine: bad pickled state");
                return lasca::PdnLine{state[0].cast<std::vector<std::string>>(),
                                      state[1].cast<std::vector<std::string>>(),
                                      state[2].cast<std::vector<lasca::PdnVariation>>(),
                                      state[3].cast<std::string>(),
                                      checkedNags(state[4].cast<std::vector<lasca::Nags>>())};
            }));
    py::class_<lasca::PdnVariation>(m, "PdnVariation",
                                    "A line played instead of the move `at` (0-based) of the "
                                    "enclosing line.")
        .def(py::init([](std::size_t at, const lasca::PdnLine& line) {
                 return lasca::PdnVariation{at, line};
             }),
             py::arg("at"), py::arg("line"))
        .def_readwrite("at", &lasca::PdnVariation::at)
        .def_readwrite("line", &lasca::PdnVariation::line)
        .def(py::pickle(
            [](const lasca::PdnVariation& self) { return py::make_tuple(self.at, self.line); },
            [](const py::tuple& state) {
                if (state.size() != 2) throw std::runtime_error("PdnVariation: bad pickled state");
                return lasca::PdnVariation{state[0].cast<std::size_t>(),
                                           state[1].cast<lasca::PdnLine>()};
            }));
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
        .def("__repr__",
             [](const PdnGame& self) {
                 return "PdnGame(" + std::to_string(self.moves.size()) + " moves, result '" +
                        self.result + "')";
             })
        .def(py::pickle(
            [](const PdnGame& self) {
                return py::make_tuple(self.tags, self.moves, self.result, self.comment,
                                      self.annotations, self.comments, self.variations, self.nags);
            },
            [](const py::tuple& state) {
                if (state.size() != 8) throw std::runtime_error("PdnGame: bad pickled state");
                PdnGame game;
                game.tags = state[0].cast<std::vector<std::pair<std::string, std::string>>>();
                game.moves = state[1].cast<std::vector<std::string>>();
                game.result = state[2].cast<std::string>();
                game.comment = state[3].cast<std::string>();
                game.annotations = state[4].cast<std::vector<std::string>>();
                game.comments = state[5].cast<std::vector<std::string>>();
                game.variations = state[6].cast<std::vector<lasca::PdnVariation>>();
                game.nags = checkedNags(state[7].cast<std::vector<lasca::Nags>>());
                return game;
            }));
    m.def("read_pdn", &readPdnText, py::arg("text"),
          "Every game of a PDN text, as PdnGame objects; ValueError naming the line when broken.");

    py::class_<PyPdnEntry>(m, "PdnEntry",
                           "One game of a PDN stream: line (where it starts, 1-based), game (a "
                           "PdnGame, None when broken) and error (None, or what is wrong).")
        .def_readonly("line", &PyPdnEntry::line)
        .def_readonly("game", &PyPdnEntry::game)
        .def_readonly("error", &PyPdnEntry::error)
        .def("__repr__",
             [](const PyPdnEntry& self) {
                 return "PdnEntry(line " + std::to_string(self.line) + ", " +
                        (self.game ? std::to_string(self.game->moves.size()) + " moves"
                                   : "error '" + self.error.value_or("") + "'") +
                        ")";
             })
        .def(py::pickle(
            [](const PyPdnEntry& self) { return py::make_tuple(self.line, self.game, self.error); },
            [](const py::tuple& state) {
                if (state.size() != 3) throw std::runtime_error("PdnEntry: bad pickled state");
                return PyPdnEntry{state[0].cast<int>(),
                                  state[1].cast<std::optional<lasca::PdnGame>>(),
                                  state[2].cast<std::optional<std::string>>()};
            }));
    py::class_<lasca::PdnReader>(m, "PdnReader",
                                 "Reads PDN line by line (lasca.iter_pdn drives it): feed(line) "
                                 "returns the oldest PdnEntry ended and not yet given (a game ends "
                                 "at its result; a line may end several), finish() at the end "
                                 "the games left, one a call, then None.")
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

    using python_guard::guardClass;
    using python_guard::Pickling;
    guardClass<lasca::PdnLine>(m.attr("PdnLine"), Pickling::ByState);
    guardClass<lasca::PdnVariation>(m.attr("PdnVariation"), Pickling::ByState);
    guardClass<PdnGame>(m.attr("PdnGame"), Pickling::ByState);
    guardClass<PyPdnEntry>(m.attr("PdnEntry"), Pickling::ByState);
    // A reader holds a half-read stream: it is fed again, not pickled.
    guardClass<lasca::PdnReader>(m.attr("PdnReader"), Pickling::Refused);
}

}  // namespace lasca_python
