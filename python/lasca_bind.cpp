// The Python-side values of lasca._lasca (lasca_bind.h): moves with their promotion, lists of
// moves, positions with their stack of pushed moves, games with their draw rules. Every
// question of legality goes to the rules core.
#include "lasca_bind.h"

#include <stdexcept>

#include "lasca/analysis/diagram.h"
#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"

namespace lasca_python {

void checkLength(const std::string& text, std::size_t limit, const char* what) {
    if (text.size() > limit)
        throw py::value_error(std::string(what) + " too long (" + std::to_string(text.size()) +
                              " characters, at most " + std::to_string(limit) + ")");
}

lasca::Position positionFromLfen(const std::string& lfen) {
    checkLength(lfen, kMaxTokenLength, "LFEN");
    constexpr const char* kSpace = " \t\r\n\v\f";
    const auto first = lfen.find_first_not_of(kSpace);
    const std::string trimmed = first == std::string::npos
                                    ? ""
                                    : lfen.substr(first, lfen.find_last_not_of(kSpace) - first + 1);
    return valueOrThrow(lasca::Position::fromLfen(trimmed));
}

const char* colourName(lasca::Color c) {
    return c == lasca::Color::White ? "white" : "black";
}

PyMove moveIn(const lasca::Position& pos, const lasca::Move& move) {
    return PyMove{move, lasca::promotes(pos, move)};
}

PyMove moveFromText(const std::string& text) {
    checkLength(text, kMaxTokenLength, "move");
    return PyMove{valueOrThrow(lasca::moveShape(text)), std::nullopt};
}

PyMove parseLegalMove(const lasca::Position& pos, const std::string& text) {
    checkLength(text, kMaxTokenLength, "move");
    return moveIn(pos, valueOrThrow(lasca::parseMove(pos, text)));
}

PyMove legalMoveOf(const lasca::Position& pos, const py::handle& given) {
    if (py::isinstance<py::str>(given)) return parseLegalMove(pos, given.cast<std::string>());
    if (!py::isinstance<PyMove>(given))
        throw py::type_error(std::string("a move is a lasca.Move or its text, got ") +
                             std::string(py::str(py::type::of(given).attr("__name__"))));
    const lasca::Move& move = given.cast<const PyMove&>().move;
    lasca::MoveList legal;
    lasca::generateMoves(pos, legal);
    if (!legal.contains(move))
        throw py::value_error("move '" + lasca::formatMove(move) +
                              "' is not legal in this position");
    return moveIn(pos, move);
}

std::vector<std::string> PyMoveList::texts() const {
    std::vector<std::string> out;
    out.reserve(moves.size());
    for (const PyMove& m : moves) out.push_back(lasca::formatMove(m.move));
    return out;
}

bool PyMoveList::contains(const py::handle& item) const {
    lasca::Move wanted{};
    if (py::isinstance<PyMove>(item)) {
        wanted = item.cast<const PyMove&>().move;
    } else if (py::isinstance<py::str>(item)) {
        try {  // a text that is no move, or not even UTF-8 (a lone surrogate), is not in it
            const auto text = item.cast<std::string>();
            if (text.size() > kMaxTokenLength) return false;
            wanted = moveFromText(text).move;
        } catch (const py::value_error&) {
            return false;
        } catch (const py::cast_error&) {
            return false;
        }
    } else {
        return false;
    }
    for (const PyMove& m : moves)
        if (m.move == wanted) return true;
    return false;
}

PyMoveList legalMovesOf(const lasca::Position& pos) {
    lasca::MoveList list;
    lasca::generateMoves(pos, list);
    PyMoveList out;
    out.moves.reserve(list.size());
    for (const lasca::Move& m : list) out.moves.push_back(moveIn(pos, m));
    return out;
}

std::string PyPosition::push(const py::handle& given) {
    const PyMove move = legalMoveOf(pos, given);
    lasca::Undo undo{};
    pos.make(move.move, undo);
    played.emplace_back(move, undo);
    return lasca::formatMove(move.move);
}

std::string PyPosition::pop() {
    if (played.empty()) throw std::runtime_error("pop: no move to take back");
    auto [move, undo] = played.back();
    played.pop_back();
    pos.unmake(move.move, undo);
    return lasca::formatMove(move.move);
}

PyMoveList PyPosition::moveStack() const {
    PyMoveList list;
    for (const auto& entry : played) list.moves.push_back(entry.first);
    return list;
}

namespace {

// RuntimeError when a game is over by the rules in force: no move may follow its end.
void requireOngoing(const lasca::Game& game, const lasca::DrawRules& rules) {
    const lasca::GameStatus status = game.status(rules);
    if (status.over())
        throw std::runtime_error(std::string("the game is over (") +
                                 lasca::terminationName(status.termination) + ", " +
                                 lasca::pdnResult(status.outcome) + "): no move may follow");
}

}  // namespace

std::string PyGame::push(const py::handle& given) {
    requireOngoing(game, rules);
    const PyMove move = legalMoveOf(game.current(), given);
    game.play(move.move);
    return lasca::formatMove(move.move);
}

std::string PyGame::pop() {
    const auto last = game.takeBack();
    if (!last) throw std::runtime_error("pop: no move to take back");
    return lasca::formatMove(*last);
}

std::vector<std::string> PyGame::moveTexts() const {
    std::vector<std::string> texts;
    for (const lasca::Move& m : game.moves()) texts.push_back(lasca::formatMove(m));
    return texts;
}

PyMoveList PyGame::moveStack() const {
    PyMoveList list;
    lasca::Position pos = game.start();
    for (const lasca::Move& m : game.moves()) {
        list.moves.push_back(moveIn(pos, m));
        lasca::Undo undo{};
        pos.make(m, undo);
    }
    return list;
}

PyGame gameOfPdn(const lasca::PdnGame& pdn) {
    return PyGame{valueOrThrow(lasca::gameOfPdn(pdn, lasca::DrawRules{})), lasca::DrawRules{}};
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

}  // namespace lasca_python
