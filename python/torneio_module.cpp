// The Python module `torneio`: a thin pybind11 layer over the Torneio rules core.
//   Game       the rules of one game (torneio::Params) and OpenSpiel's game metadata: players,
//              distinct actions, utilities, the longest game, new_initial_state()
//   State      the true state of one game (torneio::State) with the random stream its
//              random_action() draws from; what one seat may know is view(seat), the very lines
//              the referee sends that seat (torneio::viewOf + viewLines). It answers both in the
//              project's text forms (seats 1..N, action lines) and in OpenSpiel's shape
//              (players 0..N-1, actions as numbers of action_index.h, information state strings,
//              observation tensors, returns)
//   Knowledge  what a player program holds: one seat's knowledge rebuilt from the event lines
//              it receives (torneio::play::Knowledge), with its legal replies to a request line
//              and sample(): a whole State consistent with it (the AI's Belief)
// Seats are 1..N in the text forms; OpenSpiel's calls number players 0..N-1 (the core's seats).
// No rule is written here; the core's errors (common::Result) become ValueError (bad input) or
// RuntimeError (the game cannot take it now). Guide: docs/python.md.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/random.h"
#include "common/result.h"
#include "common/text.h"
#include "torneio/play/ai/belief.h"
#include "torneio/play/knowledge.h"
#include "torneio/rules/action.h"
#include "torneio/rules/action_index.h"
#include "torneio/rules/params.h"
#include "torneio/rules/random_play.h"
#include "torneio/rules/state.h"
#include "torneio/rules/view.h"

namespace py = pybind11;

namespace {

// Longest line any entry point reads (an action, a request, an event, params).
constexpr std::size_t kMaxLineLength = 4096;

template <class T>
T valueOrThrow(common::Result<T> result) {
    if (!result) throw py::value_error(result.error());
    return std::move(result).value();
}

void checkLine(const std::string& text, const char* what) {
    if (text.size() > kMaxLineLength)
        throw py::value_error(std::string(what) + " too long (" + std::to_string(text.size()) +
                              " characters, at most " + std::to_string(kMaxLineLength) + ")");
}

// The game's Params: from the params text when given (it must agree with seats), else the
// defaults for the seat count.
torneio::Params paramsOf(int seats, const std::optional<std::string>& text) {
    if (text) {
        checkLine(*text, "params");
        torneio::Params params = valueOrThrow(torneio::parseParams(*text));
        if (params.seats != seats)
            throw py::value_error("params say seats=" + std::to_string(params.seats) +
                                  " but seats is " + std::to_string(seats));
        return params;
    }
    if (seats < torneio::kMinSeats || seats > torneio::kMaxSeats)
        throw py::value_error("seats must be in " + std::to_string(torneio::kMinSeats) + ".." +
                              std::to_string(torneio::kMaxSeats) + ", got " +
                              std::to_string(seats));
    return valueOrThrow(torneio::validateParams(torneio::defaultParams(seats)));
}

// A seat number 1..seats as Python gives it, as the core's 0-based index.
int seatIndex(int seat, int seats) {
    if (seat < 1 || seat > seats)
        throw py::value_error("seat must be in 1.." + std::to_string(seats) + ", got " +
                              std::to_string(seat));
    return seat - 1;
}

std::vector<std::string> actionTexts(const std::vector<torneio::Action>& actions,
                                     const torneio::Geometry& geometry) {
    std::vector<std::string> texts;
    texts.reserve(actions.size());
    for (const torneio::Action& a : actions) texts.push_back(torneio::formatAction(a, geometry));
    return texts;
}

// A seat's living pieces as (piece, square, strength), piece 0 the king.
std::vector<std::tuple<int, std::string, int>> piecesOf(const torneio::OwnPieces& own,
                                                        const torneio::Geometry& geometry) {
    std::vector<std::tuple<int, std::string, int>> pieces;
    for (int i = 0; i < torneio::kPiecesPerSeat; ++i) {
        const torneio::Piece& p = own[i];
        if (p.alive) pieces.emplace_back(i, geometry.name(p.square), p.strength);
    }
    return pieces;
}

// OutcomeInfo: how a game ended, for Python.
//   kind   "ongoing", "win" or "draw"
//   seats  the winning / drawing seats, 1-based, ascending
//   round  the round it ended in (0 while ongoing)
struct OutcomeInfo {
    std::string kind;
    std::vector<int> seats;
    int round = 0;
};

OutcomeInfo describe(const torneio::Outcome& outcome) {
    OutcomeInfo info;
    info.kind = outcome.kind == torneio::OutcomeKind::Win    ? "win"
                : outcome.kind == torneio::OutcomeKind::Draw ? "draw"
                                                             : "ongoing";
    for (int s = 0; s < torneio::kMaxSeats; ++s)
        if (outcome.seats & (1u << s)) info.seats.push_back(s + 1);
    info.round = outcome.kind == torneio::OutcomeKind::Ongoing ? 0 : outcome.round;
    return info;
}

// OpenSpiel's marker of a terminal state in current_player().
constexpr int kTerminalPlayer = -4;
// Utilities (returns()): a win 1, an elimination -1, a draw among the survivors (D11) 0.
constexpr double kWinUtility = 1.0;
constexpr double kLossUtility = -1.0;
constexpr double kDrawUtility = 0.0;
// The most actions legal_actions() and legal_actions_mask() build (a set-up of unusual params
// can have billions: count_legal_actions and random_action cover those).
constexpr std::int64_t kMaxListedActions = 20'000'000;

// A player 0..seats-1 as OpenSpiel gives it.
int playerIndex(int player, int seats) {
    if (player < 0 || player >= seats)
        throw py::value_error("player must be in 0.." + std::to_string(seats - 1) + ", got " +
                              std::to_string(player));
    return player;
}

// The longest game in decisions, an upper bound (OpenSpiel's MaxGameLength): the set-ups, then
// per turn of each seat in each round its turn decision and, when it calls a combat, for each
// losing piece at most 9 orders (8 neighbours refused, then one obeyed) or one withdrawal, and
// at most one reward decision per point (one per defeated piece plus the king's, G10, G11).
std::int64_t maxGameLength(const torneio::Params& params) {
    const std::int64_t seats = params.seats;
    const std::int64_t perCombat = 9 * (seats - 1) + seats;
    return seats + static_cast<std::int64_t>(params.maxRounds) * seats * (1 + perCombat);
}

// ---- Observation tensor ------------------------------------------------------------------------
// Built from one seat's View alone (viewOf), so it cannot hold what the seat may not know.
// kPlanes planes of Q = boardSize^2 values (square s = rank * boardSize + file), then
// kScalars values:
//   plane 0        own king (1 on its square)
//   planes 1-3     own warrior 1, 2, 3 (1 on its square)
//   plane 4        own warriors' strength / strengthTotal on their squares
//   plane 5        own home zone (D2)
//   planes 6-8     the next 1st, 2nd, 3rd opponent clockwise (relative to the player; zeros past
//                  the seat count): on each square where one of its pieces was last publicly
//                  seen (its combat call, a refusal or retreat there, D12), 1 / (1 + m) with m
//                  its "moved"/"withdrew" events since; a removal or elimination clears it
//   plane 9        the pending request's squares: 1 on `from`, 0.5 on each refused square
//   scalars        round / maxRounds; per relative seat 0..3 (the player first) whether it is
//                  in the game, then its points gained / strengthTotal; one-hot of the request
//                  the player must answer (setup, turn, order, withdraw, reward; all 0 when not
//                  deciding); points left to place / strengthTotal
constexpr int kPlanes = 10;
constexpr int kScalars = 1 + 2 * torneio::kMaxSeats + 5 + 1;

std::size_t observationSize(const torneio::Params& params) {
    return static_cast<std::size_t>(kPlanes * params.boardSize * params.boardSize + kScalars);
}

std::vector<double> observationOf(const torneio::View& view, const torneio::Geometry& geometry) {
    const int q = geometry.squareCount();
    const int seats = view.params.seats;
    const double total = std::max(1, view.params.strengthTotal);
    std::vector<double> out(observationSize(view.params), 0.0);
    const auto at = [&](int plane, torneio::Square s) -> double& {
        return out[static_cast<std::size_t>(plane * q + s)];
    };
    for (int i = 0; i < torneio::kPiecesPerSeat; ++i) {
        const torneio::Piece& piece = view.own[i];
        if (!piece.alive) continue;
        at(i, piece.square) = 1.0;
        if (i != torneio::kKing) at(4, piece.square) = piece.strength / total;
    }
    for (torneio::Square s : geometry.zone(view.seat)) at(5, s) = 1.0;

    // Opponents' public sightings: the move count of the seat when last seen on each square.
    std::array<std::vector<int>, torneio::kMaxSeats> seen;
    for (auto& squares : seen) squares.assign(static_cast<std::size_t>(q), -1);
    std::array<int, torneio::kMaxSeats> moves{};
    torneio::Square combat = torneio::kNoSquare;
    const auto see = [&](int seat, torneio::Square s) {
        if (seat >= 0 && seat < seats && geometry.onBoard(s))
            seen[static_cast<std::size_t>(seat)][static_cast<std::size_t>(s)] =
                moves[static_cast<std::size_t>(seat)];
    };
    for (const torneio::Event& e : view.events) {
        switch (e.kind) {
            case torneio::EventKind::Moved:
            case torneio::EventKind::Withdrew:
                if (e.seat >= 0 && e.seat < seats) ++moves[static_cast<std::size_t>(e.seat)];
                break;
            case torneio::EventKind::Combat:
                combat = e.square;
                see(e.seat, e.square);
                break;
            case torneio::EventKind::Reveal:
                see(e.seat, combat);
                break;
            case torneio::EventKind::Refused:
            case torneio::EventKind::Retreat:
                see(e.seat, e.square);
                break;
            case torneio::EventKind::Removed:
                if (e.seat >= 0 && e.seat < seats && geometry.onBoard(e.square))
                    seen[static_cast<std::size_t>(e.seat)][static_cast<std::size_t>(e.square)] = -1;
                break;
            case torneio::EventKind::Eliminated:
            case torneio::EventKind::Disqualified:
                if (e.seat >= 0 && e.seat < seats)
                    seen[static_cast<std::size_t>(e.seat)].assign(static_cast<std::size_t>(q), -1);
                break;
            default:
                break;
        }
    }
    for (int r = 1; r < seats; ++r) {
        const auto seat = static_cast<std::size_t>((view.seat + r) % seats);
        for (int s = 0; s < q; ++s) {
            const int when = seen[seat][static_cast<std::size_t>(s)];
            if (when >= 0) at(5 + r, s) = 1.0 / (1 + moves[seat] - when);
        }
    }
    if (view.request) {
        if (geometry.onBoard(view.request->from)) at(9, view.request->from) = 1.0;
        for (torneio::Square s : view.request->refused)
            if (geometry.onBoard(s)) at(9, s) = 0.5;
    }
    std::size_t k = static_cast<std::size_t>(kPlanes * q);
    out[k++] = static_cast<double>(view.round) / view.params.maxRounds;
    for (int r = 0; r < torneio::kMaxSeats; ++r) {
        if (r < seats) {
            const int seat = (view.seat + r) % seats;
            out[k] = view.eliminated[static_cast<std::size_t>(seat)] ? 0.0 : 1.0;
        }
        ++k;
    }
    // Points gained are public (G10, D12.5): count the seat's "gained" events.
    std::array<int, torneio::kMaxSeats> gained{};
    for (const torneio::Event& e : view.events)
        if (e.kind == torneio::EventKind::Gained && e.seat >= 0 && e.seat < seats)
            gained[static_cast<std::size_t>(e.seat)] += e.value;
    for (int r = 0; r < torneio::kMaxSeats; ++r) {
        if (r < seats) out[k] = gained[static_cast<std::size_t>((view.seat + r) % seats)] / total;
        ++k;
    }
    if (view.request) out[k + static_cast<std::size_t>(view.request->kind)] = 1.0;
    k += 5;
    if (view.request) out[k] = view.request->points / total;
    return out;
}

// ---- Serialization -----------------------------------------------------------------------------
// One State as text (serialize/deserialize, pickling):
//   torneio-state 1
//   params <params text>
//   start <turn seat> <round> <seat 1's pieces> / <seat 2's pieces> ...   (fromPosition games)
//   actions <number> <number> ...
// Pieces of a seat: "<king square or -> <square or ->:<strength> x3". The actions are
// action_index.h numbers, replayed through the rules on reading (so a serialized game is checked
// as it is read). The random stream of random_action() is not kept: it restarts from a seed.
std::string pieceText(const torneio::Piece& piece, const torneio::Geometry& geometry) {
    return piece.alive ? geometry.name(piece.square) : std::string("-");
}

std::string startText(const torneio::StartPosition& start, const torneio::Geometry& geometry) {
    std::string text =
        "start " + std::to_string(start.turnSeat + 1) + " " + std::to_string(start.round);
    for (int seat = 0; seat < geometry.seats(); ++seat) {
        const torneio::OwnPieces& own = start.pieces[static_cast<std::size_t>(seat)];
        text += seat == 0 ? " " : " / ";
        text += pieceText(own[torneio::kKing], geometry);
        for (int w = torneio::kFirstWarrior; w <= torneio::kWarriors; ++w)
            text += " " + pieceText(own[w], geometry) + ":" + std::to_string(own[w].strength);
    }
    return text;
}

// A square or "-" (dead) of a start line.
std::optional<torneio::Square> startSquare(std::string_view text,
                                           const torneio::Geometry& geometry) {
    if (text == "-") return torneio::kNoSquare;
    auto square = geometry.parse(text);
    if (!square) throw py::value_error("start: " + square.error());
    return square.value();
}

// The largest strength a start line may give a warrior: above any a game can reach (the
// strength total, at most 1000, plus one point per defeated piece).
constexpr std::int64_t kMaxStartStrength = 1'000'000;

torneio::StartPosition parseStart(const std::vector<std::string_view>& tokens,
                                  const torneio::Geometry& geometry) {
    const int seats = geometry.seats();
    const std::size_t expected = 3 + static_cast<std::size_t>(seats) * 5 - 1;
    if (tokens.size() != expected)
        throw py::value_error("start: expected " + std::to_string(expected) + " fields, got " +
                              std::to_string(tokens.size()));
    torneio::StartPosition start;
    auto turn = common::parseBoundedInteger(tokens[1], 1, seats);
    auto round = common::parseBoundedInteger(tokens[2], 1, torneio::kMaxRoundsLimit);
    if (!turn || !round) throw py::value_error("start: bad turn seat or round");
    start.turnSeat = static_cast<int>(*turn) - 1;
    start.round = static_cast<int>(*round);
    std::size_t i = 3;
    for (int seat = 0; seat < seats; ++seat) {
        if (seat > 0 && tokens[i++] != "/") throw py::value_error("start: expected '/'");
        torneio::OwnPieces& own = start.pieces[static_cast<std::size_t>(seat)];
        const torneio::Square king = *startSquare(tokens[i++], geometry);
        if (king != torneio::kNoSquare) own[torneio::kKing] = torneio::Piece{king, 0, true};
        for (int w = torneio::kFirstWarrior; w <= torneio::kWarriors; ++w) {
            const std::string_view field = tokens[i++];
            const std::size_t colon = field.find(':');
            if (colon == std::string_view::npos)
                throw py::value_error("start: expected <square>:<strength>");
            const torneio::Square square = *startSquare(field.substr(0, colon), geometry);
            auto strength =
                common::parseBoundedInteger(field.substr(colon + 1), 0, kMaxStartStrength);
            if (!strength) throw py::value_error("start: bad strength");
            own[w] =
                torneio::Piece{square, static_cast<int>(*strength), square != torneio::kNoSquare};
        }
    }
    return start;
}

// PyState: one game's true state and the random stream of random_action().
//   state    the rules core's State (events logged: views need them)
//   random   seeded by the constructor's seed; clone() copies it, so a clone draws the same
//   numbers  scratch for legal action numbers (reused between calls)
struct PyState {
    torneio::State state;
    common::Random random;
    std::vector<std::int64_t> numbers;

    const torneio::Geometry& geometry() const { return state.geometry(); }

    void requireOngoing() const {
        if (state.over()) throw std::runtime_error("the game is over");
    }

    std::optional<std::string> request() const {
        if (state.over()) return std::nullopt;
        return torneio::formatRequest(state.request(), geometry());
    }

    std::vector<std::string> legalActionStrings() const {
        requireOngoing();
        const torneio::Request& request = state.request();
        return actionTexts(torneio::legalActions(request, state.pieces(request.seat), geometry()),
                           geometry());
    }

    std::uint64_t countLegalActions() const {
        requireOngoing();
        const torneio::Request& request = state.request();
        return torneio::countLegalActions(request, state.pieces(request.seat), geometry());
    }

    std::string randomAction() {
        requireOngoing();
        return torneio::formatAction(torneio::randomAction(state, random), geometry());
    }

    // Applies the deciding seat's reply; returns the index of the first event it caused (for
    // view(seat, since=...)).
    std::size_t apply(const std::string& text) {
        requireOngoing();
        checkLine(text, "action");
        torneio::Action action = valueOrThrow(torneio::parseAction(text, geometry()));
        return valueOrThrow(state.apply(state.toDecide(), action));
    }

    std::vector<std::string> view(int seat, std::size_t since) const {
        torneio::View view = torneio::viewOf(state, seatIndex(seat, state.seats()));
        if (since > 0) view.events = torneio::visibleEvents(state, view.seat, since);
        return torneio::viewLines(view, geometry());
    }

    std::vector<std::pair<int, std::string>> decisions() const {
        std::vector<std::pair<int, std::string>> out;
        for (const torneio::Decision& d : state.history())
            out.emplace_back(d.seat + 1, torneio::formatAction(d.action, geometry()));
        return out;
    }

    // ---- OpenSpiel's shape (players 0-based, actions as numbers) ----

    int currentPlayer() const { return state.over() ? kTerminalPlayer : state.toDecide(); }

    const std::vector<std::int64_t>& legalNumbers() {
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

    std::vector<std::int64_t> legalActions(std::optional<int> player) {
        if (player && (playerIndex(*player, state.seats()) != currentPlayer())) return {};
        return legalNumbers();
    }

    std::vector<int> legalActionsMask(std::optional<int> player) {
        const std::int64_t count = torneio::actionCount(geometry());
        if (count > kMaxListedActions)
            throw std::runtime_error("the game has " + std::to_string(count) +
                                     " distinct actions, too many for a mask");
        std::vector<int> mask(static_cast<std::size_t>(count), 0);
        for (std::int64_t a : legalActions(player)) mask[static_cast<std::size_t>(a)] = 1;
        return mask;
    }

    torneio::Action actionOf(int player, std::int64_t number) const {
        return valueOrThrow(
            torneio::actionOfNumber(playerIndex(player, state.seats()), number, geometry()));
    }

    void applyAction(std::int64_t number) {
        requireOngoing();
        const int seat = state.toDecide();
        torneio::Action action = valueOrThrow(torneio::actionOfNumber(seat, number, geometry()));
        valueOrThrow(state.apply(seat, action));
    }

    std::string actionToString(int player, std::int64_t number) const {
        return torneio::formatAction(actionOf(player, number), geometry());
    }

    std::int64_t stringToAction(int player, const std::string& text) const {
        checkLine(text, "action");
        torneio::Action action = valueOrThrow(torneio::parseAction(text, geometry()));
        return valueOrThrow(
            torneio::actionNumber(playerIndex(player, state.seats()), action, geometry()));
    }

    std::vector<std::int64_t> history() const {
        std::vector<std::int64_t> out;
        out.reserve(state.history().size());
        for (const torneio::Decision& d : state.history())
            out.push_back(valueOrThrow(torneio::actionNumber(d.seat, d.action, geometry())));
        return out;
    }

    std::vector<double> returns() const {
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

    // The player's information state: the params, the seat, then every line the referee sent
    // it (viewLines), one per line. Perfect recall: each of its own decisions shows in its
    // events (its set-up, moves, withdrawals and placements privately, the rest publicly).
    std::string informationStateString(int player) const {
        const int seat = playerIndex(player, state.seats());
        std::string text = "params " + torneio::formatParams(state.params()) + "\nseat " +
                           std::to_string(seat + 1);
        for (const std::string& line : torneio::viewLines(torneio::viewOf(state, seat), geometry()))
            text += "\n" + line;
        return text;
    }

    std::vector<double> observationTensor(int player) const {
        return observationOf(torneio::viewOf(state, playerIndex(player, state.seats())),
                             geometry());
    }

    std::string serialize() const {
        std::string text = "torneio-state 1\nparams " + torneio::formatParams(state.params());
        if (state.start()) text += "\n" + startText(*state.start(), geometry());
        text += "\nactions";
        for (std::int64_t a : history()) text += " " + std::to_string(a);
        return text;
    }
};

PyState makeState(int seats, std::uint64_t seed, const std::optional<std::string>& params) {
    return PyState{
        valueOrThrow(torneio::State::create(paramsOf(seats, params))), common::Random(seed), {}};
}

// The longest serialized state read: the header, params, a start line and the numbers of the
// longest game (a few bytes each).
constexpr std::size_t kMaxSerializedLength = 16u << 20;

PyState deserializeState(const std::string& text, std::uint64_t seed) {
    if (text.size() > kMaxSerializedLength)
        throw py::value_error("serialized state too long (" + std::to_string(text.size()) +
                              " characters)");
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    if (lines.size() < 3 || lines[0] != "torneio-state 1" || lines[1].rfind("params ", 0) != 0 ||
        lines.back().rfind("actions", 0) != 0 || lines.size() > 4)
        throw py::value_error(
            "not a serialized state: expected 'torneio-state 1', 'params ...', an optional "
            "'start ...' and 'actions ...' lines");
    torneio::Params params = valueOrThrow(torneio::parseParams(lines[1].substr(7)));
    std::optional<torneio::State> made;
    if (lines.size() == 4) {
        const torneio::Geometry geometry(params);
        const std::vector<std::string_view> tokens = common::splitWhitespace(lines[2]);
        if (tokens.empty() || tokens[0] != "start")
            throw py::value_error("not a serialized state: expected a 'start ...' line");
        made = valueOrThrow(torneio::State::fromPosition(params, parseStart(tokens, geometry)));
    } else {
        made = valueOrThrow(torneio::State::create(params));
    }
    PyState state{std::move(*made), common::Random(seed), {}};
    const std::vector<std::string_view> tokens = common::splitWhitespace(lines.back());
    if (tokens.empty() || tokens[0] != "actions")
        throw py::value_error("not a serialized state: expected an 'actions ...' line");
    for (std::size_t i = 1; i < tokens.size(); ++i) {
        auto number = common::parseBoundedInteger(tokens[i], 0, INT64_MAX);
        if (!number)
            throw py::value_error("action " + std::to_string(i) + ": '" +
                                  common::printable(tokens[i]) + "' is not a number");
        if (state.state.over())
            throw py::value_error("action " + std::to_string(i) + " after the end of the game");
        try {
            state.applyAction(*number);
        } catch (const py::value_error& e) {
            throw py::value_error("action " + std::to_string(i) + ": " + e.what());
        }
    }
    return state;
}

// PyGame: the rules of one game and OpenSpiel's game metadata.
struct PyGame {
    torneio::Params params;
    torneio::Geometry geometry;
};

PyGame makeGame(int seats, const std::optional<std::string>& params) {
    const torneio::Params chosen = paramsOf(seats, params);
    return PyGame{chosen, torneio::Geometry(chosen)};
}

// A whole state consistent with what `knowledge` (seat's view) has seen, through the Belief's
// sample and State::fromPosition: the seat's own pieces exactly, every public fact, the other
// seats' pieces drawn from the belief. It starts at the turn of the seat whose turn it is (a
// combat being resolved is not part of it: its pending decisions start afresh from that turn).
PyState sampleState(const torneio::play::Knowledge& knowledge, const torneio::play::Belief& belief,
                    std::uint64_t seed) {
    if (knowledge.over()) throw std::runtime_error("the game is over: nothing to sample");
    if (!knowledge.setUp())
        throw std::runtime_error("the seat has not set up yet: nothing to sample");
    common::Random random(seed);
    const torneio::StartPosition start = belief.sample(knowledge, random);
    auto made = torneio::State::fromPosition(knowledge.geometry().params(), start);
    if (!made) throw std::runtime_error("the sample is not a playable position: " + made.error());
    return PyState{std::move(made).value(), common::Random(seed), {}};
}

constexpr int kMaxParticles = 1 << 16;

void checkParticles(int particles) {
    if (particles < 1 || particles > kMaxParticles)
        throw py::value_error("particles must be in 1.." + std::to_string(kMaxParticles) +
                              ", got " + std::to_string(particles));
}

// The Belief of a seat fed with every event it has seen (`events`, from a Knowledge that
// started at `start`), its particles seeded from `seed`.
struct BeliefReplay {
    torneio::play::Knowledge knowledge;
    torneio::play::Belief belief;
};

BeliefReplay replayBelief(const torneio::play::Knowledge& fresh,
                          const std::vector<torneio::Event>& events, int particles,
                          std::uint64_t seed) {
    BeliefReplay replay{
        fresh, torneio::play::Belief(fresh.geometry().params(), fresh.seat(), particles, seed)};
    for (const torneio::Event& e : events) {
        valueOrThrow(replay.knowledge.update(e));
        replay.belief.observe(e, replay.knowledge);
    }
    return replay;
}

PyState resampleFromInfostate(const PyState& self, int player, std::uint64_t seed, int particles) {
    const int seat = playerIndex(player, self.state.seats());
    checkParticles(particles);
    const torneio::Params& params = self.state.params();
    const torneio::play::Knowledge fresh =
        self.state.start()
            ? torneio::play::Knowledge(params, seat,
                                       self.state.start()->pieces[static_cast<std::size_t>(seat)])
            : torneio::play::Knowledge(params, seat);
    const BeliefReplay replay = replayBelief(fresh, torneio::visibleEvents(self.state, seat),
                                             particles, common::mixSeed(seed, 1));
    return sampleState(replay.knowledge, replay.belief, seed);
}

// PyKnowledge: a player's side of the protocol: one seat's knowledge from its event lines, the
// random stream of its random replies, and what sample() needs: the events so far and, once
// sample() was called, the Belief kept up to date with them.
//   beliefSeed, particles  of the belief sample() builds (from the constructor's seed)
struct PyKnowledge {
    torneio::play::Knowledge knowledge;
    common::Random random;
    std::uint64_t beliefSeed = 0;
    std::vector<torneio::Event> events;
    std::shared_ptr<torneio::play::Belief> belief;
    int particles = torneio::play::kDefaultParticles;

    void update(const std::string& line) {
        checkLine(line, "event");
        torneio::Event event =
            valueOrThrow(torneio::parseEvent(line, knowledge.seat(), knowledge.geometry()));
        valueOrThrow(knowledge.update(event));
        events.push_back(event);
        if (belief) belief->observe(event, knowledge);
    }

    PyState sample(std::uint64_t seed, int count) {
        checkParticles(count);
        if (!belief || count != particles) {
            BeliefReplay replay = replayBelief(
                torneio::play::Knowledge(knowledge.geometry().params(), knowledge.seat()), events,
                count, beliefSeed);
            belief = std::make_shared<torneio::play::Belief>(std::move(replay.belief));
            particles = count;
        }
        return sampleState(knowledge, *belief, seed);
    }
    torneio::Request requestOf(const std::string& line) const {
        checkLine(line, "request");
        return valueOrThrow(torneio::parseRequest(line, knowledge.seat(), knowledge.geometry()));
    }

    // The request of a line that this seat's own pieces can answer: ValueError for one without
    // a legal reply (the rules never send one; a hand-made line can ask for the impossible).
    torneio::Request answerableRequestOf(const std::string& line) const {
        torneio::Request request = requestOf(line);
        if (torneio::countLegalActions(request, knowledge.own(), knowledge.geometry()) == 0)
            throw py::value_error("'" + line + "' has no legal reply for seat " +
                                  std::to_string(knowledge.seat() + 1) + "'s pieces");
        return request;
    }

    std::vector<std::string> legalActions(const std::string& line) const {
        torneio::Request request = answerableRequestOf(line);
        return actionTexts(torneio::legalActions(request, knowledge.own(), knowledge.geometry()),
                           knowledge.geometry());
    }

    std::string randomAction(const std::string& line) {
        torneio::Request request = answerableRequestOf(line);
        return torneio::formatAction(
            torneio::randomAction(request, knowledge.own(), knowledge.geometry(), random),
            knowledge.geometry());
    }

    bool isLegal(const std::string& requestLine, const std::string& actionLine) const {
        torneio::Request request = requestOf(requestLine);
        checkLine(actionLine, "action");
        common::Result<torneio::Action> action =
            torneio::parseAction(actionLine, knowledge.geometry());
        return action &&
               torneio::isLegal(request, knowledge.own(), knowledge.geometry(), action.value());
    }

    std::vector<std::tuple<int, std::string, int>> ownPieces() const {
        return piecesOf(knowledge.own(), knowledge.geometry());
    }
};

PyKnowledge makeKnowledge(int seat, const std::string& paramsText, std::uint64_t seed) {
    checkLine(paramsText, "params");
    torneio::Params params = valueOrThrow(torneio::parseParams(paramsText));
    return PyKnowledge{torneio::play::Knowledge(params, seatIndex(seat, params.seats)),
                       common::Random(seed),
                       common::mixSeed(seed, 1),
                       {},
                       nullptr,
                       torneio::play::kDefaultParticles};
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
            [](const PyGame& g) { return std::vector<std::size_t>{observationSize(g.params)}; },
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
             [](const PyGame& g) { return "Game(" + torneio::formatParams(g.params) + ")"; });
}

void bindState(py::module_& m) {
    py::class_<OutcomeInfo>(m, "Outcome", "How a game ended: kind, seats (1-based), round.")
        .def_readonly("kind", &OutcomeInfo::kind)
        .def_readonly("seats", &OutcomeInfo::seats)
        .def_readonly("round", &OutcomeInfo::round)
        .def("__repr__", &outcomeRepr);

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
                 return std::vector<std::size_t>{observationSize(self.state.params())};
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
}

void bindKnowledge(py::module_& m) {
    py::class_<PyKnowledge>(m, "Knowledge",
                            "One seat's knowledge from the event lines it receives: what a "
                            "player program holds.")
        .def(py::init(&makeKnowledge), py::arg("seat"), py::arg("params"), py::arg("seed") = 0,
             "seat 1..N of a game with the params text of its newgame line.")
        .def("seat", [](const PyKnowledge& self) { return self.knowledge.seat() + 1; })
        .def("update", &PyKnowledge::update, py::arg("line"),
             "Takes the next event line; ValueError when the seat cannot receive it now.")
        .def("legal_actions", &PyKnowledge::legalActions, py::arg("request"),
             "Every legal reply to a request line for this seat's own pieces; ValueError when "
             "the request is unreadable or has no legal reply.")
        .def("random_action", &PyKnowledge::randomAction, py::arg("request"),
             "A uniformly random legal reply to a request line; ValueError as legal_actions.")
        .def("is_legal", &PyKnowledge::isLegal, py::arg("request"), py::arg("action"))
        .def("own_pieces", &PyKnowledge::ownPieces,
             "The seat's living pieces as (piece, square, strength); piece 0 is the king.")
        .def("sample", &PyKnowledge::sample, py::arg("seed") = 0,
             py::arg("particles") = torneio::play::kDefaultParticles,
             "A whole State consistent with everything this seat has seen (its own pieces "
             "exactly, every public fact; the others' pieces drawn from the AI's belief), "
             "starting at the current turn: OpenSpiel's ResampleFromInfostate. RuntimeError "
             "before the seat's set-up and after the end.")
        .def("is_over", [](const PyKnowledge& self) { return self.knowledge.over(); })
        .def("outcome", [](const PyKnowledge& self) { return describe(self.knowledge.outcome()); })
        .def("round", [](const PyKnowledge& self) { return self.knowledge.round(); });
}

}  // namespace

PYBIND11_MODULE(torneio, m) {
    m.doc() = "Torneio rules core: the true state, seats' views and a player's knowledge.";
    m.attr("TERMINAL") = kTerminalPlayer;
    m.def(
        "default_params",
        [](int seats) { return torneio::formatParams(paramsOf(seats, std::nullopt)); },
        py::arg("seats"), "The default rules for 2..4 seats as params text.");
    m.def(
        "load_game",
        [](int seats, const std::optional<std::string>& params) { return makeGame(seats, params); },
        py::arg("seats") = 2, py::arg("params") = py::none(),
        "The same as Game(seats, params), as OpenSpiel's pyspiel.load_game.");
    bindGame(m);
    bindState(m);
    bindKnowledge(m);
}
