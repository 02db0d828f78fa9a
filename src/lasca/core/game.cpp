#include "lasca/core/game.h"

#include <algorithm>

#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"

namespace lasca {

const char* outcomeName(Outcome o) {
    switch (o) {
        case Outcome::Ongoing:
            return "ongoing";
        case Outcome::WhiteWins:
            return "white wins";
        case Outcome::BlackWins:
            return "black wins";
        case Outcome::Draw:
            return "draw";
    }
    return "?";
}

const char* terminationName(Termination t) {
    switch (t) {
        case Termination::None:
            return "none";
        case Termination::NoLegalMove:
            return "no legal move";
        case Termination::Repetition:
            return "threefold repetition";
        case Termination::NoProgress:
            return "no progress";
    }
    return "?";
}

const char* terminationRule(Termination t) {
    switch (t) {
        case Termination::NoLegalMove:
            return "R9";
        case Termination::Repetition:
            return "T1";
        case Termination::NoProgress:
            return "T2";
        case Termination::None:
            break;
    }
    return "";
}

GameStatus statusOf(const Position& pos, int occurrences, const DrawRules& rules) {
    if (!hasLegalMove(pos)) {
        const Outcome winner =
            pos.sideToMove() == Color::White ? Outcome::BlackWins : Outcome::WhiteWins;
        return {winner, Termination::NoLegalMove};
    }
    if (rules.repetition && occurrences >= 3) return {Outcome::Draw, Termination::Repetition};
    if (rules.noProgress && pos.quietPlies() >= kNoProgressPlies)
        return {Outcome::Draw, Termination::NoProgress};
    return {};
}

Game::Game(const Position& start) : start_(start), current_(start), keys_{start.key()} {
}

void Game::play(const Move& legalMove) {
    Undo undo{};
    current_.make(legalMove, undo);
    moves_.push_back(legalMove);
    keys_.push_back(current_.key());
}

common::Result<Move> Game::playText(std::string_view text) {
    auto move = parseMove(current_, text);
    if (move) play(move.value());
    return move;
}

std::optional<Move> Game::takeBack() {
    if (moves_.empty()) return std::nullopt;
    const Move last = moves_.back();
    Game replayed(start_);
    for (std::size_t i = 0; i + 1 < moves_.size(); ++i) replayed.play(moves_[i]);
    *this = std::move(replayed);
    return last;
}

int Game::occurrences() const {
    const Key now = current_.key();
    const auto last = static_cast<int>(keys_.size()) - 1;
    const int reach = std::min(current_.quietPlies(), last);
    int count = 1;
    for (int back = 2; back <= reach; back += 2)
        if (keys_[static_cast<std::size_t>(last - back)] == now) ++count;
    return count;
}

std::vector<Key> Game::repetitionHistory() const {
    const std::size_t reach =
        std::min<std::size_t>(keys_.size() - 1, static_cast<std::size_t>(current_.quietPlies()));
    return {keys_.end() - 1 - static_cast<std::ptrdiff_t>(reach), keys_.end() - 1};
}

GameStatus Game::status(const DrawRules& rules) const {
    return statusOf(current_, occurrences(), rules);
}

}  // namespace lasca
