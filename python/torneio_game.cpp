// The bound Game of the module `torneio` (torneio_bind.h) and OpenSpiel's records around it: the
// game's type (GameType and its enums), the player ids (PlayerId), load_game by OpenSpiel's game
// string ("torneio(players=3)") or parameters by name, and the metadata OpenSpiel's algorithms
// read (utilities, lengths, tensor shapes).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "class_guard.h"
#include "common/text.h"
#include "torneio/rules/action_index.h"
#include "torneio/rules/observation.h"
#include "torneio_bind.h"

namespace torneio_py {

namespace {

// OpenSpiel's GameType enums, with its names and values (bound as Python IntEnums, bindGame).
enum class Dynamics { SIMULTANEOUS = 0, SEQUENTIAL = 1, MEAN_FIELD = 2 };
enum class ChanceMode { DETERMINISTIC = 0, EXPLICIT_STOCHASTIC = 1, SAMPLED_STOCHASTIC = 2 };
enum class Information { ONE_SHOT = 0, PERFECT_INFORMATION = 1, IMPERFECT_INFORMATION = 2 };
enum class Utility { ZERO_SUM = 0, CONSTANT_SUM = 1, GENERAL_SUM = 2, IDENTICAL = 3 };
enum class RewardModel { REWARDS = 0, TERMINAL = 1 };

// GameType: what kind of game it is, as OpenSpiel's algorithms check it.
//   utility  2 seats: zero-sum (a win 1 against -1, a draw 0 and 0); 3-4 seats: general-sum
//            (a win 1 against -1 for each eliminated seat, a draw 0 for each survivor: the sum
//            depends on how many were eliminated)
struct GameType {
    std::string shortName = "torneio";
    std::string longName = "Torneio";
    Dynamics dynamics = Dynamics::SEQUENTIAL;
    ChanceMode chanceMode = ChanceMode::DETERMINISTIC;
    Information information = Information::IMPERFECT_INFORMATION;
    Utility utility = Utility::GENERAL_SUM;
    RewardModel rewardModel = RewardModel::TERMINAL;
    int maxNumPlayers = torneio::kMaxSeats;
    int minNumPlayers = torneio::kMinSeats;
    bool providesInformationStateString = true;
    bool providesInformationStateTensor = true;
    bool providesObservationString = true;
    bool providesObservationTensor = true;
    bool providesFactoredObservationString = false;
};

GameType gameType(const torneio::Params& params) {
    GameType type;
    type.utility = params.seats == 2 ? Utility::ZERO_SUM : Utility::GENERAL_SUM;
    return type;
}

// The longest game in actions, an upper bound (OpenSpiel's MaxGameLength): the set-ups (six
// steps each), then per turn of each seat in each round its turn decision and, when it calls a
// combat, for each losing piece at most 9 orders (8 neighbours refused, then one obeyed) or one
// withdrawal, and at most one reward decision per point (one per defeated piece plus the
// king's, G10, G11).
std::int64_t maxGameLength(const torneio::Params& params) {
    const std::int64_t seats = params.seats;
    const std::int64_t perCombat = 9 * (seats - 1) + seats;
    return seats * torneio::kSetUpSteps +
           static_cast<std::int64_t>(params.maxRounds) * seats * (1 + perCombat);
}

// The parameters by name, OpenSpiel's names (players) beside the params text's keys.
const std::map<std::string, std::string>& parameterKeys() {
    static const std::map<std::string, std::string> keys{
        {"players", "seats"}, {"board", "board"},       {"depth", "depth"},
        {"trim", "trim"},     {"strength", "strength"}, {"minstrength", "minstrength"},
        {"rounds", "rounds"}, {"pass", "pass"}};
    return keys;
}

// The params text of parameters by name (each at most once; players required by the params
// text, defaulting to 2 here).
torneio::Params paramsOfNamed(const std::map<std::string, std::string>& named) {
    std::string text;
    if (!named.contains("players")) text = "seats=2";
    for (const auto& [name, value] : named) {
        const auto key = parameterKeys().find(name);
        if (key == parameterKeys().end())
            throw py::value_error("unknown parameter '" + common::printable(name) +
                                  "': torneio takes players, board, depth, trim, strength, "
                                  "minstrength, rounds and pass");
        if (!text.empty()) text += " ";
        text += key->second + "=" + value;
    }
    checkLine(text, "parameters");
    return valueOrThrow(torneio::parseParams(text));
}

std::string parameterValue(const py::handle& value, const std::string& name) {
    if (py::isinstance<py::bool_>(value))
        throw py::type_error("parameter '" + name + "' must be an int or a str");
    if (py::isinstance<py::int_>(value) || py::isinstance<py::str>(value))
        return py::str(value).cast<std::string>();
    throw py::type_error("parameter '" + name + "' must be an int or a str");
}

}  // namespace

PyGame makeGame(int seats, const std::optional<std::string>& params) {
    const torneio::Params chosen = paramsOf(seats, params);
    return PyGame{chosen, torneio::Geometry(chosen)};
}

PyGame loadGameByName(const std::string& name, const std::optional<py::dict>& parameters) {
    checkLine(name, "game string");
    std::map<std::string, std::string> named;
    std::string_view text = name;
    const std::size_t open = text.find('(');
    const std::string_view game = text.substr(0, open);
    if (game != "torneio")
        throw py::value_error("unknown game '" + common::printable(game) +
                              "': this module plays 'torneio'");
    if (open != std::string_view::npos) {
        if (!text.ends_with(")"))
            throw py::value_error("a game string is 'torneio(name=value,...)'");
        const std::string_view inside = text.substr(open + 1, text.size() - open - 2);
        for (std::size_t at = 0; at < inside.size();) {
            const std::size_t end = std::min(inside.find(',', at), inside.size());
            const std::string_view pair = inside.substr(at, end - at);
            const std::size_t equals = pair.find('=');
            if (equals == std::string_view::npos || equals == 0)
                throw py::value_error("a parameter is name=value, not '" + common::printable(pair) +
                                      "'");
            const std::string key(pair.substr(0, equals));
            if (!named.emplace(key, std::string(pair.substr(equals + 1))).second)
                throw py::value_error("parameter '" + common::printable(key) + "' given twice");
            at = end + 1;
        }
    }
    if (parameters) {
        for (const auto& [key, value] : *parameters) {
            if (!py::isinstance<py::str>(key)) throw py::type_error("parameter names are str");
            const std::string k = key.cast<std::string>();
            if (!named.emplace(k, parameterValue(value, k)).second)
                throw py::value_error("parameter '" + common::printable(k) + "' given twice");
        }
    }
    const torneio::Params params = paramsOfNamed(named);
    return PyGame{params, torneio::Geometry(params)};
}

py::dict gameParameters(const torneio::Params& p) {
    py::dict out;
    out["players"] = p.seats;
    out["board"] = p.boardSize;
    out["depth"] = p.zoneDepth;
    out["trim"] = p.zoneTrim;
    out["strength"] = p.strengthTotal;
    out["minstrength"] = p.minStrength;
    out["rounds"] = p.maxRounds;
    out["pass"] = p.pass == torneio::PassRule::Always ? "always" : "stuck";
    return out;
}

std::string gameString(const torneio::Params& p) {
    // Names in alphabetical order, as OpenSpiel writes a game's parameters.
    return "torneio(board=" + std::to_string(p.boardSize) +
           ",depth=" + std::to_string(p.zoneDepth) +
           ",minstrength=" + std::to_string(p.minStrength) +
           ",pass=" + (p.pass == torneio::PassRule::Always ? "always" : "stuck") +
           ",players=" + std::to_string(p.seats) + ",rounds=" + std::to_string(p.maxRounds) +
           ",strength=" + std::to_string(p.strengthTotal) + ",trim=" + std::to_string(p.zoneTrim) +
           ")";
}

namespace {

// An enum.IntEnum of Python's own (pickled by name in every protocol, no value without one)
// named `qualname` in the module torneio.
py::object intEnum(const char* qualname, const std::vector<std::pair<const char*, int>>& members) {
    py::list items;
    for (const auto& [name, value] : members) items.append(py::make_tuple(name, value));
    const std::string full = qualname;
    const std::string name = full.substr(full.rfind('.') + 1);
    return py::module_::import("enum").attr("IntEnum")(name, items, py::arg("module") = "torneio",
                                                       py::arg("qualname") = full);
}

}  // namespace

void bindGame(py::module_& m) {
    py::class_<GameType> type(m, "GameType",
                              "What kind of game it is (OpenSpiel's GameType), from "
                              "Game.get_type().");
    const py::object dynamics =
        intEnum("GameType.Dynamics", {{"SIMULTANEOUS", 0}, {"SEQUENTIAL", 1}, {"MEAN_FIELD", 2}});
    const py::object chanceMode =
        intEnum("GameType.ChanceMode",
                {{"DETERMINISTIC", 0}, {"EXPLICIT_STOCHASTIC", 1}, {"SAMPLED_STOCHASTIC", 2}});
    const py::object information =
        intEnum("GameType.Information",
                {{"ONE_SHOT", 0}, {"PERFECT_INFORMATION", 1}, {"IMPERFECT_INFORMATION", 2}});
    const py::object utility =
        intEnum("GameType.Utility",
                {{"ZERO_SUM", 0}, {"CONSTANT_SUM", 1}, {"GENERAL_SUM", 2}, {"IDENTICAL", 3}});
    const py::object rewardModel =
        intEnum("GameType.RewardModel", {{"REWARDS", 0}, {"TERMINAL", 1}});
    type.attr("Dynamics") = dynamics;
    type.attr("ChanceMode") = chanceMode;
    type.attr("Information") = information;
    type.attr("Utility") = utility;
    type.attr("RewardModel") = rewardModel;
    const auto member = [](const py::object& e, auto GameType::*field) {
        return py::cpp_function(
            [e, field](const GameType& t) { return e(static_cast<int>(t.*field)); });
    };
    type.def_property_readonly("dynamics", member(dynamics, &GameType::dynamics))
        .def_property_readonly("chance_mode", member(chanceMode, &GameType::chanceMode))
        .def_property_readonly("information", member(information, &GameType::information))
        .def_property_readonly("utility", member(utility, &GameType::utility))
        .def_property_readonly("reward_model", member(rewardModel, &GameType::rewardModel))
        .def_readonly("short_name", &GameType::shortName)
        .def_readonly("long_name", &GameType::longName)
        .def_readonly("max_num_players", &GameType::maxNumPlayers)
        .def_readonly("min_num_players", &GameType::minNumPlayers)
        .def_readonly("provides_information_state_string",
                      &GameType::providesInformationStateString)
        .def_readonly("provides_information_state_tensor",
                      &GameType::providesInformationStateTensor)
        .def_readonly("provides_observation_string", &GameType::providesObservationString)
        .def_readonly("provides_observation_tensor", &GameType::providesObservationTensor)
        .def_readonly("provides_factored_observation_string",
                      &GameType::providesFactoredObservationString)
        .def_property_readonly(
            "parameter_specification",
            [](const GameType&) { return gameParameters(torneio::defaultParams(2)); })
        .def("__repr__",
             [](const GameType& t) {
                 return "GameType(short_name='" + t.shortName + "', utility=" +
                        (t.utility == Utility::ZERO_SUM ? "ZERO_SUM" : "GENERAL_SUM") + ")";
             })
        // Pickled as its one field that varies: the utility (zero-sum with 2 seats).
        .def(py::pickle([](const GameType& t) { return static_cast<int>(t.utility); },
                        [](int utilityValue) {
                            if (utilityValue != static_cast<int>(Utility::ZERO_SUM) &&
                                utilityValue != static_cast<int>(Utility::GENERAL_SUM))
                                throw std::runtime_error("GameType: bad pickled state");
                            GameType t;
                            t.utility = static_cast<Utility>(utilityValue);
                            return t;
                        }));
    python_guard::guardClass<GameType>(m.attr("GameType"), python_guard::Pickling::ByState);

    m.attr("PlayerId") = intEnum("PlayerId", {{"DEFAULT_PLAYER_ID", 0},
                                              {"CHANCE", -1},
                                              {"SIMULTANEOUS", -2},
                                              {"INVALID", -3},
                                              {"TERMINAL", -4},
                                              {"MEAN_FIELD", -5}});
    m.attr("INVALID_ACTION") = -1;

    py::class_<PyGame>(m, "Game",
                       "The rules of one game and OpenSpiel's game metadata (players 0..N-1).")
        .def(py::init(&makeGame), py::arg("seats") = 2, py::arg("params") = py::none(),
             "The default rules for 2..4 seats, or the rules of a params text.")
        .def(
            "get_type", [](const PyGame& g) { return gameType(g.params); },
            "The game's type: sequential, deterministic, imperfect information, terminal "
            "rewards; zero-sum with 2 seats, general-sum with 3-4.")
        .def(
            "get_parameters", [](const PyGame& g) { return gameParameters(g.params); },
            "The parameters by name, as load_game takes them.")
        .def("num_players", [](const PyGame& g) { return g.params.seats; })
        .def(
            "num_distinct_actions",
            [](const PyGame& g) { return torneio::actionCount(g.geometry); },
            "The size of the action space (action_index.h): 527 for 2 seats, 815 for 3-4.")
        .def("max_chance_outcomes", [](const PyGame&) { return 0; })
        .def(
            "first_setup_action",
            [](const PyGame& g) { return torneio::firstSetUpAction(g.geometry); },
            "The number of the first set-up step ('place' on square 0); the steps run from it "
            "to the end.")
        .def(
            "max_game_length", [](const PyGame& g) { return maxGameLength(g.params); },
            "An upper bound on the actions of one game.")
        .def(
            "max_history_length", [](const PyGame& g) { return maxGameLength(g.params); },
            "The same as max_game_length(): Torneio has no chance actions.")
        .def("min_utility", [](const PyGame&) { return kLossUtility; })
        .def("max_utility", [](const PyGame&) { return kWinUtility; })
        .def(
            "utility_sum",
            [](const PyGame& g) {
                if (g.params.seats != 2)
                    throw std::runtime_error(
                        "a game of 3 or 4 seats is general-sum: its utilities have no fixed sum");
                return 0.0;
            },
            "0 for 2 seats (zero-sum); RuntimeError for 3-4 (general-sum).")
        .def("board_size", [](const PyGame& g) { return g.params.boardSize; })
        .def("params", [](const PyGame& g) { return torneio::formatParams(g.params); })
        .def(
            "observation_tensor_shape",
            [](const PyGame& g) {
                return std::vector<std::size_t>{torneio::observationSize(g.params)};
            },
            "[10 * board_size**2 + 15]: 10 planes of board squares, then 15 values.")
        .def("observation_tensor_size",
             [](const PyGame& g) { return torneio::observationSize(g.params); })
        .def("information_state_tensor_shape",
             [](const PyGame& g) {
                 return std::vector<std::size_t>{torneio::observationSize(g.params)};
             })
        .def("information_state_tensor_size",
             [](const PyGame& g) { return torneio::observationSize(g.params); })
        .def(
            "new_initial_state",
            [](const PyGame& g, std::uint64_t seed) {
                return PyState(valueOrThrow(torneio::State::create(g.params)), seed);
            },
            py::arg("seed") = 0, "A new game, set-ups first; seed drives random_action().")
        .def(
            "new_initial_states",
            [](const PyGame& g) {
                return std::vector<PyState>{
                    PyState(valueOrThrow(torneio::State::create(g.params)), 0)};
            },
            "[new_initial_state()]: one start (no chance at the start).")
        .def(
            "deserialize_state",
            [](const PyGame&, const std::string& text, std::uint64_t seed) {
                return deserializeState(text, seed);
            },
            py::arg("text"), py::arg("seed") = 0,
            "The state serialize() wrote, replayed through the rules.")
        .def("__eq__", [](const PyGame& a, const PyGame& b) { return a.params == b.params; })
        .def("__hash__", [](const PyGame& g) { return py::hash(py::str(gameString(g.params))); })
        .def("__str__", [](const PyGame& g) { return gameString(g.params); })
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

}  // namespace torneio_py
