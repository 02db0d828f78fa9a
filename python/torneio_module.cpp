// The Python module `torneio`: a thin pybind11 layer over the Torneio rules core.
//   Game       the rules of one game (torneio::Params) and OpenSpiel's game metadata: its type,
//              players, distinct actions, utilities, the longest game, new_initial_state()
//   State      the true state of one game (torneio::State) with the random stream its
//              random_action() draws from; what one seat may know is view(seat), the very lines
//              the referee sends that seat (torneio::viewOf + viewLines). It answers both in the
//              project's text forms (seats 1..N, action lines) and in OpenSpiel's shape
//              (players 0..N-1, actions as numbers of action_index.h with a set-up as six small
//              decisions, information state strings, observation tensors, returns)
//   Knowledge  what a player program holds: one seat's knowledge rebuilt from the event lines
//              it receives (torneio::play::Knowledge), with its legal replies to a request line
//              and sample(): a whole State consistent with it (the AI's Belief)
// Seats are 1..N in the text forms; OpenSpiel's calls number players 0..N-1 (the core's seats).
// No rule is written here; the core's errors (common::Result) become ValueError (bad input) or
// RuntimeError (the game cannot take it now). Guide: docs/python.md.
// The files: torneio_bind.h (what they share: argument checks, conversions, the bound State),
// torneio_game.cpp (Game, GameType, PlayerId, load_game by name), torneio_state.cpp (State,
// Outcome, PlayerAction), torneio_knowledge.cpp (Knowledge), and this one (the module and its
// functions).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "torneio/rules/params.h"
#include "torneio_bind.h"

namespace py = pybind11;

PYBIND11_MODULE(torneio, m) {
    using namespace torneio_py;
    m.doc() = "Torneio rules core: the true state, seats' views and a player's knowledge.";
    m.attr("TERMINAL") = kTerminalPlayer;
    m.def(
        "default_params",
        [](int seats) { return torneio::formatParams(paramsOf(seats, std::nullopt)); },
        py::arg("seats"), "The default rules for 2..4 seats as params text.");
    m.def("load_game", &loadGameByName, py::arg("name"), py::arg("parameters") = py::none(),
          "OpenSpiel's pyspiel.load_game: 'torneio', 'torneio(players=3,rounds=50)', or "
          "'torneio' and a dict of parameters by name (players, board, depth, trim, strength, "
          "minstrength, rounds, pass).");
    m.def(
        "load_game",
        [](int seats, const std::optional<std::string>& params) { return makeGame(seats, params); },
        py::arg("seats") = 2, py::arg("params") = py::none(), "The same as Game(seats, params).");
    bindGame(m);
    bindState(m);
    bindKnowledge(m);
}
