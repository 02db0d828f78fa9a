// The Python module `torneio`: a thin pybind11 layer over the Torneio rules core.
//   State      the true state of one game (torneio::State) with the random stream its
//              random_action() draws from; what one seat may know is view(seat), the very lines
//              the referee sends that seat (torneio::viewOf + viewLines).
//   Knowledge  what a player program holds: one seat's knowledge rebuilt from the event lines
//              it receives (torneio::play::Knowledge), with its legal replies to a request line.
// Seats are 1..N here, as in every text form of the project; the core's 0-based seats never
// cross this boundary. No rule is written here; the core's errors (common::Result) become
// ValueError (bad input) or RuntimeError (the game cannot take it now). Guide: docs/python.md.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/random.h"
#include "common/result.h"
#include "torneio/play/knowledge.h"
#include "torneio/rules/action.h"
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

// PyState: one game's true state and the random stream of random_action().
//   state   the rules core's State (events logged: views need them)
//   random  seeded by the constructor's seed; clone() copies it, so a clone draws the same
struct PyState {
    torneio::State state;
    common::Random random;

    void requireOngoing() const {
        if (state.over()) throw std::runtime_error("the game is over");
    }

    std::optional<std::string> request() const {
        if (state.over()) return std::nullopt;
        return torneio::formatRequest(state.request(), state.geometry());
    }

    std::vector<std::string> legalActions() const {
        requireOngoing();
        const torneio::Request& request = state.request();
        return actionTexts(
            torneio::legalActions(request, state.pieces(request.seat), state.geometry()),
            state.geometry());
    }

    std::uint64_t countLegalActions() const {
        requireOngoing();
        const torneio::Request& request = state.request();
        return torneio::countLegalActions(request, state.pieces(request.seat), state.geometry());
    }

    std::string randomAction() {
        requireOngoing();
        return torneio::formatAction(torneio::randomAction(state, random), state.geometry());
    }

    // Applies the deciding seat's reply; returns the index of the first event it caused (for
    // view(seat, since=...)).
    std::size_t apply(const std::string& text) {
        requireOngoing();
        checkLine(text, "action");
        torneio::Action action = valueOrThrow(torneio::parseAction(text, state.geometry()));
        return valueOrThrow(state.apply(state.toDecide(), action));
    }

    std::vector<std::string> view(int seat, std::size_t since) const {
        torneio::View view = torneio::viewOf(state, seatIndex(seat, state.seats()));
        if (since > 0) view.events = torneio::visibleEvents(state, view.seat, since);
        return torneio::viewLines(view, state.geometry());
    }

    std::vector<std::pair<int, std::string>> history() const {
        std::vector<std::pair<int, std::string>> decisions;
        for (const torneio::Decision& d : state.history())
            decisions.emplace_back(d.seat + 1, torneio::formatAction(d.action, state.geometry()));
        return decisions;
    }
};

PyState makeState(int seats, std::uint64_t seed, const std::optional<std::string>& params) {
    return PyState{valueOrThrow(torneio::State::create(paramsOf(seats, params))),
                   common::Random(seed)};
}

// PyKnowledge: a player's side of the protocol: one seat's knowledge from its event lines and
// the random stream of its random replies.
struct PyKnowledge {
    torneio::play::Knowledge knowledge;
    common::Random random;

    void update(const std::string& line) {
        checkLine(line, "event");
        valueOrThrow(knowledge.update(line));
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

    // The seat's own living pieces as (piece, square, strength), piece 0 the king.
    std::vector<std::tuple<int, std::string, int>> ownPieces() const {
        std::vector<std::tuple<int, std::string, int>> pieces;
        for (int i = 0; i < torneio::kPiecesPerSeat; ++i) {
            const torneio::Piece& p = knowledge.own()[i];
            if (p.alive) pieces.emplace_back(i, knowledge.geometry().name(p.square), p.strength);
        }
        return pieces;
    }
};

PyKnowledge makeKnowledge(int seat, const std::string& paramsText, std::uint64_t seed) {
    checkLine(paramsText, "params");
    torneio::Params params = valueOrThrow(torneio::parseParams(paramsText));
    return PyKnowledge{torneio::play::Knowledge(params, seatIndex(seat, params.seats)),
                       common::Random(seed)};
}

void bindState(py::module_& m) {
    py::class_<OutcomeInfo>(m, "Outcome", "How a game ended: kind, seats (1-based), round.")
        .def_readonly("kind", &OutcomeInfo::kind)
        .def_readonly("seats", &OutcomeInfo::seats)
        .def_readonly("round", &OutcomeInfo::round)
        .def("__repr__", [](const OutcomeInfo& o) {
            std::string text = "Outcome(kind='" + o.kind + "', seats=[";
            for (std::size_t i = 0; i < o.seats.size(); ++i) {
                if (i > 0) text.append(", ");
                text.append(std::to_string(o.seats[i]));
            }
            text.append("], round=");
            text.append(std::to_string(o.round));
            text.append(")");
            return text;
        });

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
        .def("legal_actions", &PyState::legalActions,
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
        .def("event_count", [](const PyState& self) { return self.state.events().size(); })
        .def("history", &PyState::history, "Every decision as (seat, action line).")
        .def("is_over", [](const PyState& self) { return self.state.over(); })
        .def("outcome", [](const PyState& self) { return describe(self.state.outcome()); })
        .def("round", [](const PyState& self) { return self.state.round(); })
        .def("survivors", [](const PyState& self) { return self.state.survivors(); })
        .def(
            "check",
            [](const PyState& self) { return valueOrThrow(torneio::checkInvariants(self.state)); },
            "True when every invariant of the state holds, else ValueError naming the first "
            "broken.")
        .def(
            "clone", [](const PyState& self) { return self; },
            "An independent copy (its random stream too).")
        .def("__copy__", [](const PyState& self) { return self; })
        .def(
            "__deepcopy__", [](const PyState& self, py::object) { return self; }, py::arg("memo"))
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
        .def("is_over", [](const PyKnowledge& self) { return self.knowledge.over(); })
        .def("outcome", [](const PyKnowledge& self) { return describe(self.knowledge.outcome()); })
        .def("round", [](const PyKnowledge& self) { return self.knowledge.round(); });
}

}  // namespace

PYBIND11_MODULE(torneio, m) {
    m.doc() = "Torneio rules core: the true state, seats' views and a player's knowledge.";
    m.def(
        "default_params",
        [](int seats) { return torneio::formatParams(paramsOf(seats, std::nullopt)); },
        py::arg("seats"), "The default rules for 2..4 seats as params text.");
    bindState(m);
    bindKnowledge(m);
}
