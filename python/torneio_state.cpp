// The bound State of the module `torneio` (torneio_bind.h): the true state of one game
// with the random stream its random_action() draws from, answering in the project's text forms
// (seats 1..N, action lines) and in OpenSpiel's shape (players 0..N-1, actions as numbers of
// action_index.h, information state strings, observation tensors, returns). The tensor, the
// serialization and the resampler are the core's (torneio/rules/observation.h, serialize.h,
// torneio/play/resample.h).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <bit>
#include <cmath>
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

void PyState::requireOngoing() const {
    if (state().over()) throw std::runtime_error("the game is over");
}

std::optional<std::string> PyState::request() const {
    if (state().over()) return std::nullopt;
    return torneio::formatRequest(state().request(), geometry());
}

std::vector<std::string> PyState::legalActionStrings() {
    requireOngoing();
    if (game.pending()) {
        std::vector<std::string> out;
        for (std::int64_t n : legalNumbers())
            out.push_back(valueOrThrow(torneio::stepText(n, geometry())));
        return out;
    }
    const torneio::Request& request = state().request();
    return actionTexts(torneio::legalActions(request, state().pieces(request.seat), geometry()),
                       geometry());
}

std::uint64_t PyState::countLegalActions() {
    requireOngoing();
    if (game.pending()) return legalNumbers().size();
    const torneio::Request& request = state().request();
    return torneio::countLegalActions(request, state().pieces(request.seat), geometry());
}

std::string PyState::randomAction() {
    requireOngoing();
    if (game.pending()) {
        const std::vector<std::int64_t>& legal = legalNumbers();
        return valueOrThrow(torneio::stepText(legal[random.index(legal.size())], geometry()));
    }
    return torneio::formatAction(torneio::randomAction(state(), random), geometry());
}

std::size_t PyState::apply(const std::string& text) {
    requireOngoing();
    checkLine(text, "action");
    return valueOrThrow(game.applyText(text));
}

std::vector<std::string> PyState::view(int seat, std::size_t since) const {
    return game.viewText(seatIndex(seat, state().seats()), since);
}

std::vector<std::pair<int, std::string>> PyState::decisions() const {
    std::vector<std::pair<int, std::string>> out;
    for (const torneio::Decision& d : state().history())
        out.emplace_back(d.seat + 1, torneio::formatAction(d.action, geometry()));
    return out;
}

int PyState::currentPlayer() const {
    return state().over() ? kTerminalPlayer : state().toDecide();
}

int PyState::playerOrCurrent(std::optional<int> player) const {
    if (player) return playerIndex(*player, state().seats());
    if (state().over())
        throw std::runtime_error("the game is over: name the player (0.." +
                                 std::to_string(state().seats() - 1) + ")");
    return state().toDecide();
}

const std::vector<std::int64_t>& PyState::legalNumbers() {
    game.legalNumbers(numbers);
    return numbers;
}

std::vector<std::int64_t> PyState::legalActions(std::optional<int> player) {
    if (player && (playerIndex(*player, state().seats()) != currentPlayer())) return {};
    return legalNumbers();
}

std::vector<int> PyState::legalActionsMask(std::optional<int> player) {
    const std::int64_t count = torneio::actionCount(geometry());
    std::vector<int> mask(static_cast<std::size_t>(count), 0);
    for (std::int64_t a : legalActions(player)) mask[static_cast<std::size_t>(a)] = 1;
    return mask;
}

void PyState::applyAction(std::int64_t number) {
    requireOngoing();
    valueOrThrow(game.applyNumber(number));
}

std::string PyState::actionToString(int player, std::int64_t number) const {
    return valueOrThrow(game.numberText(playerIndex(player, state().seats()), number));
}

std::int64_t PyState::stringToAction(int player, const std::string& text) const {
    checkLine(text, "action");
    return valueOrThrow(game.textNumber(playerIndex(player, state().seats()), text));
}

std::vector<std::int64_t> PyState::history() const {
    return valueOrRuntimeError(game.historyNumbers());
}

std::vector<torneio::NumberedAction> PyState::fullHistory() const {
    return valueOrRuntimeError(game.fullHistory());
}

std::vector<double> PyState::returns() const {
    std::vector<double> out(static_cast<std::size_t>(state().seats()), 0.0);
    const torneio::Outcome& outcome = state().outcome();
    if (outcome.kind == torneio::OutcomeKind::Ongoing) return out;
    for (int s = 0; s < state().seats(); ++s) {
        const bool named = (outcome.seats & (1u << s)) != 0;
        out[static_cast<std::size_t>(s)] =
            !named ? kLossUtility
                   : (outcome.kind == torneio::OutcomeKind::Win ? kWinUtility : kDrawUtility);
    }
    return out;
}

// The player's information state: the params, the seat, then every line the referee sent it
// (viewLines) and its set-up in progress, one per line. Perfect recall: each of its own
// decisions shows in its events (its set-up, moves, withdrawals and placements privately, the
// rest publicly).
std::string PyState::informationStateString(std::optional<int> player) const {
    const int seat = playerOrCurrent(player);
    std::string text =
        "params " + torneio::formatParams(state().params()) + "\nseat " + std::to_string(seat + 1);
    for (const std::string& line : game.viewText(seat)) text += "\n" + line;
    return text;
}

// What the player sees now, without its past: the round, its own pieces (those placed of a
// set-up in progress), who is out and the points each seat gained, and its request.
std::string PyState::observationString(std::optional<int> player) const {
    const int seat = playerOrCurrent(player);
    const torneio::View view = game.view(seat);
    std::string text = "seat " + std::to_string(seat + 1) + " round " +
                       std::to_string(state().round()) + "\npieces";
    for (int i = 0; i < torneio::kPiecesPerSeat; ++i) {
        const torneio::Piece& piece = view.own[i];
        text += " " + (piece.alive ? geometry().name(piece.square) : std::string("-"));
        if (i != torneio::kKing) text += ":" + std::to_string(piece.strength);
    }
    for (int s = 0; s < state().seats(); ++s)
        text += "\nseat " + std::to_string(s + 1) + (state().eliminated(s) ? " out" : " in") +
                " gained " + std::to_string(state().pointsGained(s));
    if (!state().over() && state().toDecide() == seat)
        text += "\n" + torneio::formatRequest(state().request(), geometry());
    else if (state().over())
        text += "\nover";
    return text;
}

std::vector<double> PyState::observationTensor(std::optional<int> player) const {
    return game.observation(playerOrCurrent(player));
}

void PyState::undoAction(int player, std::int64_t number) {
    const int seat = playerIndex(player, state().seats());
    std::vector<torneio::NumberedAction> full = fullHistory();
    if (full.empty()) throw py::value_error("nothing to undo: no action was applied");
    if (full.back().seat != seat || full.back().number != number)
        throw py::value_error("the last action was " + std::to_string(full.back().number) +
                              " by player " + std::to_string(full.back().seat) + ", not " +
                              std::to_string(number) + " by player " + std::to_string(seat));
    full.pop_back();
    std::vector<std::int64_t> replay;
    replay.reserve(full.size());
    for (const torneio::NumberedAction& a : full) replay.push_back(a.number);
    torneio::State start =
        state().start()
            ? valueOrRuntimeError(torneio::State::fromPosition(state().params(), *state().start()))
            : valueOrRuntimeError(torneio::State::create(state().params()));
    game = valueOrRuntimeError(torneio::replayNumbers(std::move(start), replay));
}

std::string PyState::serialize() const {
    return valueOrRuntimeError(torneio::serializeState(game));
}

PyState deserializeState(const std::string& text, std::uint64_t seed) {
    return PyState(valueOrThrow(torneio::deserializeState(text)), seed);
}

namespace {

PyState makeState(int seats, std::uint64_t seed, const std::optional<std::string>& params) {
    return PyState(valueOrThrow(torneio::State::create(paramsOf(seats, params))), seed);
}

// A seed from what OpenSpiel's ResampleFromInfostate takes: an int, or a sampler (a callable
// returning a float in [0, 1), as pyspiel.UniformProbabilitySampler) drawn twice.
std::uint64_t samplerSeed(const py::object& sampler) {
    if (py::isinstance<py::bool_>(sampler))
        throw py::type_error("sampler must be an int seed or a callable returning a float");
    if (py::isinstance<py::int_>(sampler)) {
        const py::int_ value = sampler;
        if (value < py::int_(0) || value > py::int_(UINT64_MAX))
            throw py::value_error("seed must be in 0..2**64-1");
        return value.cast<std::uint64_t>();
    }
    if (!PyCallable_Check(sampler.ptr()))
        throw py::type_error("sampler must be an int seed or a callable returning a float");
    std::uint64_t seed = 0;
    for (int draw = 0; draw < 2; ++draw) {
        const py::object value = sampler();
        if (!py::isinstance<py::float_>(value) && !py::isinstance<py::int_>(value))
            throw py::type_error("the sampler must return a float");
        const double x = value.cast<double>();
        if (!std::isfinite(x))
            throw py::value_error("the sampler returned a value that is not finite");
        seed = common::mixSeed(seed, std::bit_cast<std::uint64_t>(x));
    }
    return seed;
}

PyState resampleFromInfostate(const PyState& self, int player, const py::object& sampler,
                              int particles, const py::object& seedArgument) {
    const int seat = playerIndex(player, self.state().seats());
    checkParticles(particles);
    if (!sampler.is_none() && !seedArgument.is_none())
        throw py::type_error("give a sampler or seed=, not both");
    const std::uint64_t seed = samplerSeed(
        !sampler.is_none() ? sampler : (!seedArgument.is_none() ? seedArgument : py::int_(0)));
    return PyState(
        valueOrRuntimeError(torneio::play::resampleFromInfostate(self.game, seat, seed, particles)),
        seed);
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

// OpenSpiel's PlayerAction: one entry of full_history().
struct PlayerAction {
    int player = 0;
    std::int64_t action = 0;
};

std::string historyString(const std::vector<std::int64_t>& numbers) {
    std::string text;
    for (std::size_t i = 0; i < numbers.size(); ++i) {
        if (i > 0) text += ", ";
        text += std::to_string(numbers[i]);
    }
    return text;
}

}  // namespace

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

    py::class_<PlayerAction>(m, "PlayerAction", "One entry of full_history(): player, action.")
        .def_readonly("player", &PlayerAction::player)
        .def_readonly("action", &PlayerAction::action)
        .def("__eq__",
             [](const PlayerAction& a, const PlayerAction& b) {
                 return a.player == b.player && a.action == b.action;
             })
        .def("__repr__",
             [](const PlayerAction& a) {
                 return "PlayerAction(player=" + std::to_string(a.player) +
                        ", action=" + std::to_string(a.action) + ")";
             })
        .def(py::pickle([](const PlayerAction& a) { return py::make_tuple(a.player, a.action); },
                        [](const py::tuple& t) {
                            if (t.size() != 2)
                                throw std::runtime_error("PlayerAction: bad pickled state");
                            return PlayerAction{t[0].cast<int>(), t[1].cast<std::int64_t>()};
                        }));
    python_guard::guardClass<PlayerAction>(m.attr("PlayerAction"), python_guard::Pickling::ByState);

    py::class_<PyState>(m, "State", "The true state of one Torneio game (the referee's).")
        .def(py::init(&makeState), py::arg("seats") = 2, py::arg("seed") = 0,
             py::arg("params") = py::none(),
             "A new game (set-ups first) for 2..4 seats with the default rules, or the rules of "
             "a params text ('seats=2 board=8 ...'); seed drives random_action().")
        .def("seats", [](const PyState& self) { return self.state().seats(); })
        .def("params",
             [](const PyState& self) { return torneio::formatParams(self.state().params()); })
        .def("request", &PyState::request,
             "The pending request line ('request turn 3'), None when the game is over.")
        .def(
            "to_decide",
            [](const PyState& self) -> std::optional<int> {
                if (self.state().over()) return std::nullopt;
                return self.state().toDecide() + 1;
            },
            "The seat (1..N) that decides next, None when the game is over.")
        .def("legal_action_strings", &PyState::legalActionStrings,
             "Every legal reply of the deciding seat, as action lines (a set-up request has "
             "tens of thousands: see count_legal_actions and random_action); while a set-up is "
             "placed step by step, its next steps ('place c1', 'strength 4').")
        .def("count_legal_actions", &PyState::countLegalActions)
        .def("random_action", &PyState::randomAction,
             "A uniformly random legal reply, drawn from the state's seeded stream.")
        .def("apply", &PyState::apply, py::arg("action"),
             "Applies the deciding seat's reply (an action line, or a set-up step 'place c1' / "
             "'strength 4'); returns the index of the first event it caused. ValueError when "
             "unreadable or illegal.")
        .def("view", &PyState::view, py::arg("seat"), py::arg("since") = 0,
             "What seat (1..N) may know: the event lines the referee sends it (from event index "
             "`since`), its set-up in progress ('placing ...'), then its request line when it is "
             "to decide.")
        .def(
            "pieces",
            [](const PyState& self, int seat) {
                return piecesOf(self.state().pieces(seatIndex(seat, self.state().seats())),
                                self.geometry());
            },
            py::arg("seat"),
            "The TRUE living pieces of seat 1..N as (piece, square, strength), piece 0 the king: "
            "the referee's knowledge, hidden from the other seats (for tests and analysis).")
        .def("event_count", [](const PyState& self) { return self.state().events().size(); })
        .def("decisions", &PyState::decisions, "Every decision as (seat 1..N, action line).")
        .def("is_over", [](const PyState& self) { return self.state().over(); })
        .def("outcome", [](const PyState& self) { return describe(self.state().outcome()); })
        .def("round", [](const PyState& self) { return self.state().round(); })
        .def("survivors", [](const PyState& self) { return self.state().survivors(); })
        .def(
            "check",
            [](const PyState& self) {
                return valueOrThrow(torneio::checkInvariants(self.state()));
            },
            "True when every invariant of the state holds, else ValueError naming the first "
            "broken.")
        // OpenSpiel's shape: players 0..N-1, actions as numbers (action_index.h).
        .def(
            "get_game",
            [](const PyState& self) {
                return PyGame{self.state().params(), self.geometry()};
            },
            "The Game (rules and metadata) of this state.")
        .def("num_players", [](const PyState& self) { return self.state().seats(); })
        .def("num_distinct_actions",
             [](const PyState& self) { return torneio::actionCount(self.geometry()); })
        .def("current_player", &PyState::currentPlayer,
             "The player (0..N-1) to decide, TERMINAL (-4) when the game is over.")
        .def("is_terminal", [](const PyState& self) { return self.state().over(); })
        .def("is_chance_node", [](const PyState&) { return false; })
        .def("is_simultaneous_node", [](const PyState&) { return false; })
        .def("is_mean_field_node", [](const PyState&) { return false; })
        .def("is_player_node", [](const PyState& self) { return !self.state().over(); })
        .def(
            "chance_outcomes",
            [](const PyState&) { return std::vector<std::pair<std::int64_t, double>>{}; },
            "[]: Torneio has no chance nodes.")
        .def("legal_actions", &PyState::legalActions, py::arg("player") = py::none(),
             "The deciding player's legal actions as numbers, ascending ([] for another player "
             "and at the end). A set-up is six small decisions (action_index.h).")
        .def("legal_actions_mask", &PyState::legalActionsMask, py::arg("player") = py::none(),
             "num_distinct_actions() values, 1 where the action is legal.")
        .def("apply_action", &PyState::applyAction, py::arg("action"),
             "Applies an action number for the deciding player; ValueError when out of range "
             "or illegal (nothing changes).")
        .def(
            "child",
            [](const PyState& self, std::int64_t action) {
                PyState next = self;
                next.applyAction(action);
                return next;
            },
            py::arg("action"), "A copy with the action applied.")
        .def("undo_action", &PyState::undoAction, py::arg("player"), py::arg("action"),
             "Takes back the last action, which must be `action` by `player` (ValueError "
             "otherwise); the game is replayed without it.")
        .def("action_to_string", &PyState::actionToString, py::arg("player"), py::arg("action"),
             "The text of a number: an action line, or a set-up step 'place c1' / 'strength 4'.")
        .def("string_to_action", &PyState::stringToAction, py::arg("player"), py::arg("action"),
             "The number of an action line or a set-up step.")
        .def("history", &PyState::history,
             "Every decision's action number, in order (a set-up as its six steps).")
        .def(
            "history_str", [](const PyState& self) { return historyString(self.history()); },
            "history() as OpenSpiel writes it: '452, 453, ...'.")
        .def(
            "full_history",
            [](const PyState& self) {
                std::vector<PlayerAction> out;
                for (const torneio::NumberedAction& a : self.fullHistory())
                    out.push_back({a.seat, a.number});
                return out;
            },
            "history() with each action's player, as PlayerAction(player, action).")
        .def(
            "move_number", [](const PyState& self) { return self.fullHistory().size(); },
            "The number of actions applied.")
        .def("returns", &PyState::returns,
             "Per player: 1 for the winner, -1 for an eliminated player, 0 for the survivors of "
             "a draw (D11); all 0 while the game goes on.")
        .def("rewards", &PyState::returns, "The same as returns(): Torneio pays at the end.")
        .def(
            "player_return",
            [](const PyState& self, int player) {
                return self
                    .returns()[static_cast<std::size_t>(playerIndex(player, self.state().seats()))];
            },
            py::arg("player"))
        .def("information_state_string", &PyState::informationStateString,
             py::arg("player") = py::none(),
             "What the player (the one to decide by default) may know: 'params ...', 'seat k', "
             "then its view's lines.")
        .def("information_state_tensor", &PyState::observationTensor,
             py::arg("player") = py::none(),
             "The observation tensor (observation.h): its planes keep the public sightings, "
             "not every past event.")
        .def("observation_string", &PyState::observationString, py::arg("player") = py::none(),
             "What the player sees now: round, own pieces, who is out, points gained, request.")
        .def("observation_tensor", &PyState::observationTensor, py::arg("player") = py::none(),
             "The player's observation as observation_tensor_shape() floats (docs/python.md).")
        .def("observation_tensor_shape",
             [](const PyState& self) {
                 return std::vector<std::size_t>{torneio::observationSize(self.state().params())};
             })
        .def("serialize", &PyState::serialize,
             "The state as text: its params, start position if any, and action numbers.")
        .def_static("deserialize", &deserializeState, py::arg("text"), py::arg("seed") = 0,
                    "The state serialize() wrote, replayed through the rules; seed starts "
                    "random_action()'s stream.")
        .def("resample_from_infostate", &resampleFromInfostate, py::arg("player"),
             py::arg("sampler") = py::none(),
             py::arg("particles") = torneio::play::kDefaultParticles, py::kw_only(),
             py::arg("seed") = py::none(),
             "A whole state the player cannot tell from this one (the same information state "
             "and observation), the other seats' hidden pieces drawn from its Belief. sampler: "
             "an int seed, or a callable returning floats (pyspiel.UniformProbabilitySampler); "
             "or seed= by name (0 when neither is given).")
        .def(
            "clone", [](const PyState& self) { return self; },
            "An independent copy (its random stream too).")
        .def("__copy__", [](const PyState& self) { return self; })
        .def(
            "__deepcopy__", [](const PyState& self, py::object) { return self; }, py::arg("memo"))
        .def(py::pickle([](const PyState& self) { return self.serialize(); },
                        [](const std::string& text) { return deserializeState(text, 0); }))
        .def("__repr__", [](const PyState& self) {
            return "State(" + torneio::formatParams(self.state().params()) + ", " +
                   std::to_string(self.state().history().size()) + " decisions" +
                   (self.state().over() ? ", over)" : ")");
        });
    python_guard::guardClass<PyState>(m.attr("State"), python_guard::Pickling::ByState);
}

}  // namespace torneio_py
