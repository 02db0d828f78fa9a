// What the files of the Python module `torneio` share (torneio_module.cpp defines the module;
// torneio_state.cpp binds Game and State, torneio_knowledge.cpp binds Knowledge): the checks of
// Python's arguments, the conversions to Python's shapes, and the bound State. The rules core's
// errors (common::Result) become ValueError (bad input) or RuntimeError (the game cannot take it
// now) here, at the boundary; no rule is written in these files.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/random.h"
#include "common/result.h"
#include "torneio/rules/action.h"
#include "torneio/rules/geometry.h"
#include "torneio/rules/params.h"
#include "torneio/rules/state.h"
#include "torneio/rules/step_state.h"

namespace torneio_py {

namespace py = pybind11;

// Longest line any entry point reads (an action, a request, an event, params).
inline constexpr std::size_t kMaxLineLength = 4096;
// OpenSpiel's marker of a terminal state in current_player().
inline constexpr int kTerminalPlayer = -4;

// Utilities (returns()): a win 1, an elimination -1, a draw among the survivors (D11) 0.
inline constexpr double kWinUtility = 1.0;
inline constexpr double kLossUtility = -1.0;
inline constexpr double kDrawUtility = 0.0;

// The value, or ValueError with the core's message.
template <class T>
T valueOrThrow(common::Result<T> result) {
    if (!result) throw py::value_error(result.error());
    return std::move(result).value();
}
// The value, or RuntimeError with the core's message.
template <class T>
T valueOrRuntimeError(common::Result<T> result) {
    if (!result) throw std::runtime_error(result.error());
    return std::move(result).value();
}

// ValueError when `text` is longer than kMaxLineLength; `what` names it.
void checkLine(const std::string& text, const char* what);
// The game's Params: from the params text when given (it must agree with seats), else the
// defaults for the seat count.
torneio::Params paramsOf(int seats, const std::optional<std::string>& text);
// A seat number 1..seats as Python gives it, as the core's 0-based index.
int seatIndex(int seat, int seats);
// A player 0..seats-1 as OpenSpiel gives it.
int playerIndex(int player, int seats);
// ValueError unless particles is in 1..kMaxSampleParticles (resample.h).
void checkParticles(int particles);

std::vector<std::string> actionTexts(const std::vector<torneio::Action>& actions,
                                     const torneio::Geometry& geometry);
// A seat's living pieces as (piece, square, strength), piece 0 the king.
std::vector<std::tuple<int, std::string, int>> piecesOf(const torneio::OwnPieces& own,
                                                        const torneio::Geometry& geometry);

// OutcomeInfo: how a game ended, for Python.
//   kind   "ongoing", "win" or "draw"
//   seats  the winning / drawing seats, 1-based, ascending
//   round  the round it ended in (0 while ongoing)
struct OutcomeInfo {
    std::string kind;
    std::vector<int> seats;
    int round = 0;
};
OutcomeInfo describe(const torneio::Outcome& outcome);

// PyState: one game's true state and the random stream of random_action().
//   game     the rules core's StepState: the State (events logged: views need them) and a
//            set-up being placed step by step (OpenSpiel's calls, action_index.h)
//   random   seeded by the constructor's seed; clone() copies it, so a clone draws the same
//   numbers  scratch for legal action numbers (reused between calls)
struct PyState {
    torneio::StepState game;
    common::Random random;
    std::vector<std::int64_t> numbers;

    PyState(torneio::State state, std::uint64_t seed) : game(std::move(state)), random(seed) {}
    PyState(torneio::StepState steps, std::uint64_t seed) : game(std::move(steps)), random(seed) {}

    const torneio::State& state() const { return game.state(); }
    const torneio::Geometry& geometry() const { return game.geometry(); }
    void requireOngoing() const;

    std::optional<std::string> request() const;
    std::vector<std::string> legalActionStrings();
    std::uint64_t countLegalActions();
    std::string randomAction();
    // Applies the deciding seat's reply (an action line, or a set-up step); returns the index of
    // the first event it caused (for view(seat, since=...)).
    std::size_t apply(const std::string& text);
    std::vector<std::string> view(int seat, std::size_t since) const;
    std::vector<std::pair<int, std::string>> decisions() const;

    // OpenSpiel's shape (players 0-based, actions as numbers; `player` empty: the player to
    // decide).
    int currentPlayer() const;
    int playerOrCurrent(std::optional<int> player) const;
    const std::vector<std::int64_t>& legalNumbers();
    std::vector<std::int64_t> legalActions(std::optional<int> player);
    std::vector<int> legalActionsMask(std::optional<int> player);
    void applyAction(std::int64_t number);
    std::string actionToString(int player, std::int64_t number) const;
    std::int64_t stringToAction(int player, const std::string& text) const;
    std::vector<std::int64_t> history() const;
    std::vector<torneio::NumberedAction> fullHistory() const;
    std::vector<double> returns() const;
    std::string informationStateString(std::optional<int> player) const;
    std::string observationString(std::optional<int> player) const;
    std::vector<double> observationTensor(std::optional<int> player) const;
    void undoAction(int player, std::int64_t number);
    std::string serialize() const;
};

// The state serialize() wrote (torneio/rules/serialize.h), its random stream seeded by `seed`.
PyState deserializeState(const std::string& text, std::uint64_t seed);

// PyGame: the rules of one game and OpenSpiel's game metadata.
struct PyGame {
    torneio::Params params;
    torneio::Geometry geometry;
};
// Game(seats, params) and load_game(seats, params).
PyGame makeGame(int seats, const std::optional<std::string>& params);
// load_game("torneio(players=3,rounds=50)") and load_game("torneio", {"players": 3}): OpenSpiel's
// game string, parameters by name (players, board, depth, trim, strength, minstrength, rounds,
// pass); ValueError for another game or an unknown parameter.
PyGame loadGameByName(const std::string& name, const std::optional<py::dict>& parameters);
// The game's parameters by name, as load_game takes them.
py::dict gameParameters(const torneio::Params& params);
// OpenSpiel's string of a game: "torneio(board=8,depth=2,...,players=2,...)".
std::string gameString(const torneio::Params& params);

void bindGame(py::module_& m);
void bindState(py::module_& m);
void bindKnowledge(py::module_& m);

}  // namespace torneio_py
