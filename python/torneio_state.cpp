// The bound Game and State of the module `torneio` (torneio_bind.h): the true state of one game
// with the random stream its random_action() draws from, answering in the project's text forms
// (seats 1..N, action lines) and in OpenSpiel's shape (players 0..N-1, actions as numbers of
// action_index.h, information state strings, observation tensors, returns). The tensor, the
// serialization and the resampler are the core's (torneio/rules/observation.h, serialize.h,
// torneio/play/resample.h).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "class_guard.h"
#include "torneio/play/resample.h"
#include "torneio/rules/action_index.h"
#include "torneio/rules/observation.h"
#include "torneio/rules/random_play.h"
#include "torneio/rules/serialize.h"
#include "torneio/rules/view.h"
#include "torneio_bind.h"

namespace torneio_py {

namespace {

// Utilities (returns()): a win 1, an elimination -1, a draw among the survivors (D11) 0.
constexpr double kWinUtility = 1.0;
constexpr double kLossUtility = -1.0;
constexpr double kDrawUtility = 0.0;
// The most actions legal_actions() and legal_actions_mask() build (a set-up of unusual params
// can have billions: count_legal_actions and random_action cover those).
constexpr std::int64_t kMaxListedActions = 20'000'000;

// The longest game in decisions, an upper bound (OpenSpiel's MaxGameLength): the set-ups, then
// per turn of each seat in each round its turn decision and, when it calls a combat, for each
// losing piece at most 9 orders (8 neighbours refused, then one obeyed) or one withdrawal, and
// at most one reward decision per point (one per defeated piece plus the king's, G10, G11).
std::int64_t maxGameLength(const torneio::Params& params) {
    const std::int64_t seats = params.seats;
    const std::int64_t perCombat = 9 * (seats - 1) + seats;
    return seats + static_cast<std::int64_t>(params.maxRounds) * seats * (1 + perCombat);
}

}  // namespace

void PyState::requireOngoing() const {
    if (state.over()) throw std::runtime_error("the game is over");
}

std::optional<std::string> PyState::request() const {
    if (state.over()) return std::nullopt;
    return torneio::formatRequest(state.request(), geometry());
}

std::vector<std::string> PyState::legalActionStrings() const {
    requireOngoing();
    const torneio::Request& request = state.request();
    return actionTexts(torneio::legalActions(request, state.pieces(request.seat), geometry()),
                       geometry());
}

std::uint64_t PyState::countLegalActions() const {
    requireOngoing();
    const torneio::Request& request = state.request();
    return torneio::countLegalActions(request, state.pieces(request.seat), geometry());
}

std::string PyState::randomAction() {
    requireOngoing();
    return torneio::formatAction(torneio::randomAction(state, random), geometry());
}

std::size_t PyState::apply(const std::string& text) {
    requireOngoing();
    checkLine(text, "action");
    torneio::Action action = valueOrThrow(torneio::parseAction(text, geometry()));
    return valueOrThrow(state.apply(state.toDecide(), action));
}

std::vector<std::string> PyState::view(int seat, std::size_t since) const {
    torneio::View view = torneio::viewOf(state, seatIndex(seat, state.seats()));
    if (since > 0) view.events = torneio::visibleEvents(state, view.seat, since);
    return torneio::viewLines(view, geometry());
}

std::vector<std::pair<int, std::string>> PyState::decisions() const {
    std::vector<std::pair<int, std::string>> out;
    for (const torneio::Decision& d : state.history())
        out.emplace_back(d.seat + 1, torneio::formatAction(d.action, geometry()));
    return out;
}

int PyState::currentPlayer() const {
    return state.over() ? kTerminalPlayer : state.toDecide();
}

const std::vector<std::int64_t>& PyState::legalNumbers() {
    numbers.clear();
    if (state.over()) return numbers;
    const torneio::Request& request = state.request();
    if (torneio::countLegalActions(request, state.pieces(request.seat), geometry()) >
        static_cast<std::uint64_t>(kMaxListedActions))
        throw std::runtime_error("more than " + std::to_string(kMaxListedActions) +
                                 " legal actions: use random_action or count_legal_actions");
    torneio::legalActionNumbers(request, state.pieces(request.seat), geometry(), numbers);
    return numbers;
}

std::vector<std::int64_t> PyState::legalActions(std::optional<int> player) {
    if (player && (playerIndex(*player, state.seats()) != currentPlayer())) return {};
    return legalNumbers();
}

std::vector<int> PyState::legalActionsMask(std::optional<int> player) {
    const std::int64_t count = torneio::actionCount(geometry());
    if (count > kMaxListedActions)
        throw std::runtime_error("the game has " + std::to_string(count) +
                                 " distinct actions, too many for a mask");
    std::vector<int> mask(static_cast<std::size_t>(count), 0);
    for (std::int64_t a : legalActions(player)) mask[static_cast<std::size_t>(a)] = 1;
    return mask;
}

void PyState::applyAction(std::int64_t number) {
    requireOngoing();
    const int seat = state.toDecide();
    torneio::Action action = valueOrThrow(torneio::actionOfNumber(seat, number, geometry()));
    valueOrThrow(state.apply(seat, action));
}

std::string PyState::actionToString(int player, std::int64_t number) const {
    return torneio::formatAction(valueOrThrow(torneio::actionOfNumber(
                                     playerIndex(player, state.seats()), number, geometry())),
                                 geometry());
}

std::int64_t PyState::stringToAction(int player, const std::string& text) const {
    checkLine(text, "action");
    torneio::Action action = valueOrThrow(torneio::parseAction(text, geometry()));
    return valueOrThrow(
        torneio::actionNumber(playerIndex(player, state.seats()), action, geometry()));
}

std::vector<std::int64_t> PyState::history() const {
    return valueOrThrow(torneio::historyNumbers(state));
}

std::vector<double> PyState::returns() const {
    std::vector<double> out(static_cast<std::size_t>(state.seats()), 0.0);
    const torneio::Outcome& outcome = state.outcome();
    if (outcome.kind == torneio::OutcomeKind::Ongoing) return out;
    for (int s = 0; s < state.seats(); ++s) {
        const bool named = (outcome.seats & (1u << s)) != 0;
        out[static_cast<std::size_t>(s)] =
            !named ? kLossUtility
                   : (outcome.kind == torneio::OutcomeKind::Win ? kWinUtility : kDrawUtility);
    }
    return out;
}

// The player's information state: the params, the seat, then every line the referee sent it
// (viewLines), one per line. Perfect recall: each of its own decisions shows in its events (its
// set-up, moves, withdrawals and placements privately, the rest publicly).
std::string PyState::informationStateString(int player) const {
    const int seat = playerIndex(player, state.seats());
    std::string text =
        "params " + torneio::formatParams(state.params()) + "\nseat " + std::to_string(seat + 1);
    for (const std::string& line : torneio::viewLines(torneio::viewOf(state, seat), geometry()))
        text += "\n" + line;
    return text;
}

std::vector<double> PyState::observationTensor(int player) const {
    return torneio::observationTensor(state, playerIndex(player, state.seats()));
}

std::string PyState::serialize() const {
    return valueOrThrow(torneio::serializeState(state));
}

PyState deserializeState(const std::string& text, std::uint64_t seed) {
    return PyState{valueOrThrow(torneio::deserializeState(text)), common::Random(seed), {}};
}

namespace {

PyState makeState(int seats, std::uint64_t seed, const std::optional<std::string>& params) {
    return PyState{
        valueOrThrow(torneio::State::create(paramsOf(seats, params))), common::Random(seed), {}};
}

PyState resampleFromInfostate(const PyState& self, int player, std::uint64_t seed, int particles) {
    const int seat = playerIndex(player, self.state.seats());
    checkParticles(particles);
    return PyState{valueOrRuntimeError(
                       torneio::play::resampleFromInfostate(self.state, seat, seed, particles)),
                   common::Random(seed),
                   {}};
}

std::string outcomeRepr(const OutcomeInfo& o) {
    std::string text = "Outcome(kind='" + o.kind + "', seats=[";
    for (std::size_t i = 0; i < o.seats.size(); ++i) {
        if (i > 0) text.append(", ");
        text.append(std::to_string(o.seats[i]));
    }
    text.append("], round=");
    text.append(std::to_string(o.round));
    text.append(")");
    return text;
}

}  // namespace

void bindGame(py::module_& m) {
    py::class_<PyGame>(m, "Game",
                       "The rules of one game and OpenSpiel's game metadata (players 0..N-1).")
        .def(py::init(&makeGame), py::arg("seats") = 2, py::arg("params") = py::none(),
             "The default rules for 2..4 seats, or the rules of a params text.")
        .def("num_players", [](const PyGame& g) { return g.params.seats; })
        .def(
            "num_distinct_actions",
            [](const PyGame& g) { return torneio::actionCount(g.geometry); },
            "The size of the action space (action_index.h): 111,332 for 2 seats, 24,464 for 3-4.")
        .def(
            "first_setup_action",
            [](const PyGame& g) { return torneio::firstSetUpAction(g.geometry); },
            "The number of the first set-up action; the set-ups run from it to the end.")
        .def(
            "max_game_length", [](const PyGame& g) { return maxGameLength(g.params); },
            "An upper bound on the decisions of one game.")
        .def("min_utility", [](const PyGame&) { return kLossUtility; })
        .def("max_utility", [](const PyGame&) { return kWinUtility; })
        .def("board_size", [](const PyGame& g) { return g.params.boardSize; })
        .def("params", [](const PyGame& g) { return torneio::formatParams(g.params); })
        .def(
            "observation_tensor_shape",
            [](const PyGame& g) {
                return std::vector<std::size_t>{torneio::observationSize(g.params)};
            },
            "[10 * board_size**2 + 15]: 10 planes of board squares, then 15 values.")
        .def(
            "new_initial_state",
            [](const PyGame& g, std::uint64_t seed) {
                return PyState{
                    valueOrThrow(torneio::State::create(g.params)), common::Random(seed), {}};
            },
            py::arg("seed") = 0, "A new game, set-ups first; seed drives random_action().")
        .def(
            "deserialize_state",
            [](const PyGame&, const std::string& text, std::uint64_t seed) {
                return deserializeState(text, seed);
            },
            py::arg("text"), py::arg("seed") = 0,
            "The state serialize() wrote, replayed through the rules.")
        .def("__repr__",
             [](const PyGame& g) { return "Game(" + torneio::formatParams(g.params) + ")"; })
        // Pickled as its params text.
        .def(py::pickle([](const PyGame& g) { return torneio::formatParams(g.params); },
                        [](const std::string& text) {
                            checkLine(text, "params");
                            const torneio::Params params = valueOrThrow(torneio::parseParams(text));
                            return makeGame(params.seats, text);
                        }));
    python_guard::guardClass<PyGame>(m.attr("Game"), python_guard::Pickling::ByState);
}

void bindState(py::module_& m) {
    py::class_<OutcomeInfo>(m, "Outcome", "How a game ended: kind, seats (1-based), round.")
        .def_readonly("kind", &OutcomeInfo::kind)
        .def_readonly("seats", &OutcomeInfo::seats)
        .def_readonly("round", &OutcomeInfo::round)
        .def("__repr__", &outcomeRepr)
        .def(py::pickle(
            [](const OutcomeInfo& o) { return py::make_tuple(o.kind, o.seats, o.round); },
            [](const py::tuple& state) {
                if (state.size() != 3) throw std::runtime_error("Outcome: bad pickled state");
                return OutcomeInfo{state[0].cast<std::string>(), state[1].cast<std::vector<int>>(),
                                   state[2].cast<int>()};
            }));
    python_guard::guardClass<OutcomeInfo>(m.attr("Outcome"), python_guard::Pickling::ByState);

    py::class_<PyState>(m, "State", "The true state of one Torneio game (the referee's).")
        .def(py::init(&makeState), py::arg("seats") = 2, py::arg("seed") = 0,
             py::arg("params") = py::none(),
             "A new game (set-ups first) for 2..4 seats with the default rules, or the rules of "
             "a params text ('seats=2 board=8 ...'); seed drives random_action().")
        .def("seats", [](const PyState& self) { return self.state.seats(); })
        .def("params",
             [](const PyState& self) { return torneio::formatParams(self.state.params()); })
        .def("request", &PyState::request,
             "The pending request line ('request turn 3'), None when the game is over.")
        .def(
            "to_decide",
            [](const PyState& self) -> std::optional<int> {
                if (self.state.over()) return std::nullopt;
                return self.state.toDecide() + 1;
            },
            "The seat (1..N) that decides next, None when the game is over.")
        .def("legal_action_strings", &PyState::legalActionStrings,
             "Every legal reply of the deciding seat, as action lines (a set-up request has "
             "tens of thousands: see count_legal_actions and random_action).")
        .def("count_legal_actions", &PyState::countLegalActions)
        .def("random_action", &PyState::randomAction,
             "A uniformly random legal reply, drawn from the state's seeded stream.")
        .def("apply", &PyState::apply, py::arg("action"),
             "Applies the deciding seat's reply (an action line); returns the index of the first "
             "event it caused. ValueError when unreadable or illegal.")
        .def("view", &PyState::view, py::arg("seat"), py::arg("since") = 0,
             "What seat (1..N) may know: the event lines the referee sends it (from event index "
             "`since`), then its request line when it is to decide.")
        .def(
            "pieces",
            [](const PyState& self, int seat) {
                return piecesOf(self.state.pieces(seatIndex(seat, self.state.seats())),
                                self.geometry());
            },
            py::arg("seat"),
            "The TRUE living pieces of seat 1..N as (piece, square, strength), piece 0 the king: "
            "the referee's knowledge, hidden from the other seats (for tests and analysis).")
        .def("event_count", [](const PyState& self) { return self.state.events().size(); })
        .def("decisions", &PyState::decisions, "Every decision as (seat 1..N, action line).")
        .def("is_over", [](const PyState& self) { return self.state.over(); })
        .def("outcome", [](const PyState& self) { return describe(self.state.outcome()); })
        .def("round", [](const PyState& self) { return self.state.round(); })
        .def("survivors", [](const PyState& self) { return self.state.survivors(); })
        .def(
            "check",
            [](const PyState& self) { return valueOrThrow(torneio::checkInvariants(self.state)); },
            "True when every invariant of the state holds, else ValueError naming the first "
            "broken.")
        // OpenSpiel's shape: players 0..N-1, actions as numbers (action_index.h).
        .def(
            "get_game",
            [](const PyState& self) {
                return PyGame{self.state.params(), self.geometry()};
            },
            "The Game (rules and metadata) of this state.")
        .def("num_players", [](const PyState& self) { return self.state.seats(); })
        .def("num_distinct_actions",
             [](const PyState& self) { return torneio::actionCount(self.geometry()); })
        .def("current_player", &PyState::currentPlayer,
             "The player (0..N-1) to decide, TERMINAL (-4) when the game is over.")
        .def("is_terminal", [](const PyState& self) { return self.state.over(); })
        .def("is_chance_node", [](const PyState&) { return false; })
        .def("is_player_node", [](const PyState& self) { return !self.state.over(); })
        .def("legal_actions", &PyState::legalActions, py::arg("player") = py::none(),
             "The deciding player's legal actions as numbers, ascending ([] for another player "
             "and at the end).")
        .def("legal_actions_mask", &PyState::legalActionsMask, py::arg("player") = py::none(),
             "num_distinct_actions() values, 1 where the action is legal.")
        .def("apply_action", &PyState::applyAction, py::arg("action"),
             "Applies an action number for the deciding player; ValueError when out of range "
             "or illegal (nothing changes).")
        .def("action_to_string", &PyState::actionToString, py::arg("player"), py::arg("action"),
             "The action line of a number for a player (a set-up number means a set-up in that "
             "player's zone).")
        .def("string_to_action", &PyState::stringToAction, py::arg("player"), py::arg("action"),
             "The number of an action line for a player.")
        .def("history", &PyState::history, "Every decision's action number, in order.")
        .def("returns", &PyState::returns,
             "Per player: 1 for the winner, -1 for an eliminated player, 0 for the survivors of "
             "a draw (D11); all 0 while the game goes on.")
        .def("rewards", &PyState::returns, "The same as returns(): Torneio pays at the end.")
        .def("information_state_string", &PyState::informationStateString, py::arg("player"),
             "What the player may know: 'params ...', 'seat k', then its view's lines.")
        .def("observation_tensor", &PyState::observationTensor, py::arg("player"),
             "The player's observation as observation_tensor_shape() floats (docs/python.md).")
        .def("observation_tensor_shape",
             [](const PyState& self) {
                 return std::vector<std::size_t>{torneio::observationSize(self.state.params())};
             })
        .def("serialize", &PyState::serialize,
             "The state as text: its params, start position if any, and action numbers.")
        .def_static("deserialize", &deserializeState, py::arg("text"), py::arg("seed") = 0,
                    "The state serialize() wrote, replayed through the rules; seed starts "
                    "random_action()'s stream.")
        .def("resample_from_infostate", &resampleFromInfostate, py::arg("player"),
             py::arg("seed") = 0, py::arg("particles") = torneio::play::kDefaultParticles,
             "A whole state consistent with the player's view (Knowledge.sample of its lines).")
        .def(
            "clone", [](const PyState& self) { return self; },
            "An independent copy (its random stream too).")
        .def("__copy__", [](const PyState& self) { return self; })
        .def(
            "__deepcopy__", [](const PyState& self, py::object) { return self; }, py::arg("memo"))
        .def(py::pickle([](const PyState& self) { return self.serialize(); },
                        [](const std::string& text) { return deserializeState(text, 0); }))
        .def("__repr__", [](const PyState& self) {
            return "State(" + torneio::formatParams(self.state.params()) + ", " +
                   std::to_string(self.state.history().size()) + " decisions" +
                   (self.state.over() ? ", over)" : ")");
        });
    python_guard::guardClass<PyState>(m.attr("State"), python_guard::Pickling::ByState);
}

}  // namespace torneio_py
