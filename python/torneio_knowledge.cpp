// The bound Knowledge of the module `torneio` (torneio_bind.h): what a player program holds, one
// seat's knowledge rebuilt from the event lines it receives (torneio::play::Knowledge), with its
// legal replies to a request line and sample(): a whole State consistent with it
// (torneio/play/resample.h, the AI's Belief).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "class_guard.h"
#include "torneio/play/knowledge.h"
#include "torneio/play/resample.h"
#include "torneio/rules/random_play.h"
#include "torneio_bind.h"

namespace torneio_py {

namespace {

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
            torneio::play::BeliefReplay replay = valueOrThrow(torneio::play::replayBelief(
                torneio::play::Knowledge(knowledge.geometry().params(), knowledge.seat()), events,
                count, beliefSeed));
            belief = std::make_shared<torneio::play::Belief>(std::move(replay.belief));
            particles = count;
        }
        return PyState(valueOrRuntimeError(torneio::play::sampleState(knowledge, *belief, seed)),
                       seed);
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

}  // namespace

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
    // A player's knowledge is rebuilt from its event lines, not pickled.
    python_guard::guardClass<PyKnowledge>(m.attr("Knowledge"), python_guard::Pickling::Refused);
}

}  // namespace torneio_py
