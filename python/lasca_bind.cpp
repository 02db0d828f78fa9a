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

std::string moveText(const PyMove& move) {
    return move.move.isNull() ? std::string("0000") : lasca::formatMove(move.move);
}

PyMove moveIn(const lasca::Position& pos, const lasca::Move& move) {
    return PyMove{move, lasca::promotes(pos, move)};
}

PyMove moveFromText(const std::string& text) {
    checkLength(text, kMaxTokenLength, "move");
    if (text == "0000") return PyMove{lasca::Move{}, std::nullopt};  // the null move
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
    const PyMove& asGiven = given.cast<const PyMove&>();
    const lasca::Move& move = asGiven.move;
    lasca::MoveList legal;
    lasca::generateMoves(pos, legal);
    if (move.isNull() || !legal.contains(move))
        throw py::value_error("move '" + moveText(asGiven) + "' is not legal in this position");
    return moveIn(pos, move);
}

std::vector<std::string> PyMoveList::texts() const {
    std::vector<std::string> out;
    out.reserve(moves.size());
    for (const PyMove& m : moves) out.push_back(moveText(m));
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

PyMove PyPosition::pop() {
    if (played.empty()) throw py::index_error("pop from an empty move stack");
    auto [move, undo] = played.back();
    played.pop_back();
    pos.unmake(move.move, undo);
    return move;
}

lasca::Position PyPosition::root() const {
    lasca::Position start = pos;
    for (auto it = played.rbegin(); it != played.rend(); ++it)
        start.unmake(it->first.move, it->second);
    return start;
}

lasca::Game PyPosition::game() const {
    lasca::Game out(root());
    for (const auto& entry : played) out.play(entry.first.move);
    return out;
}

std::size_t stackDepth(const py::handle& stack, std::size_t size) {
    if (py::isinstance<py::bool_>(stack)) return stack.cast<bool>() ? size : 0;
    if (!py::isinstance<py::int_>(stack))
        throw py::type_error("stack is True, False or a number of moves, got " +
                             std::string(py::str(py::type::of(stack).attr("__name__"))));
    const auto n = stack.cast<py::int_>();
    if (n < py::int_(0)) throw py::value_error("stack must not be negative");
    if (n >= py::int_(size)) return size;
    return n.cast<std::size_t>();
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

PyMove PyGame::pop() {
    const auto last = game.takeBack();
    if (!last) throw py::index_error("pop from an empty move stack");
    return moveIn(game.current(), *last);
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
