// PDN and the rules: a PDN game replayed through the rules core, and a game written as PDN.
#include <optional>
#include <string>

#include "lasca/core/notation.h"
#include "lasca/core/pdn.h"

namespace lasca {

namespace {

// Where playing a PDN game's moves stopped.
//   ply    the 0-based index of the move that could not be played
//   error  why it is not legal; empty when it follows the end of the game
struct Stop {
    std::size_t ply = 0;
    std::string error;
};

// Plays pdn's moves on game (at its start) under `rules`; nothing when all were played.
std::optional<Stop> playMoves(const PdnGame& pdn, const DrawRules& rules, Game& game) {
    for (std::size_t i = 0; i < pdn.moves.size(); ++i) {
        if (game.status(rules).over()) return Stop{i, ""};
        if (auto played = game.playText(pdn.moves[i]); !played) return Stop{i, played.error()};
    }
    return std::nullopt;
}

}  // namespace

common::Result<std::string> replayPdn(const PdnGame& pdn, const DrawRules& rules) {
    auto start = startOf(pdn);
    if (!start) return common::makeError(start.error());
    Game game(start.value());
    if (const auto stop = playMoves(pdn, rules, game)) {
        const std::string number = std::to_string(stop->ply + 1);
        if (stop->error.empty())
            return common::makeError("move " + number + " played after the game ended");
        return common::makeError("ply " + number + ": " + stop->error);
    }
    const GameStatus status = game.status(rules);
    const auto termination = pdn.tag("Termination");
    const bool byRules =
        termination && (*termination == terminationName(Termination::NoLegalMove) ||
                        *termination == terminationName(Termination::Repetition) ||
                        *termination == terminationName(Termination::NoProgress));
    if (byRules && (!status.over() || status.outcome != outcomeOf(pdn.result)))
        return common::makeError("result " + pdn.result + " (" + *termination +
                                 ") is not what the rules say: " + outcomeName(status.outcome));
    return game.current().toLfen();
}

common::Result<Game> gameOfPdn(const PdnGame& pdn, const DrawRules& rules) {
    auto start = startOf(pdn);
    if (!start) return common::makeError(start.error());
    Game game(start.value());
    if (const auto stop = playMoves(pdn, rules, game))
        return common::makeError(
            "move " + std::to_string(stop->ply + 1) + " '" + pdn.moves[stop->ply] +
            "': " + (stop->error.empty() ? "played after the game ended" : stop->error));
    return game;
}

PdnGame pdnOfGame(const Game& game, const DrawRules& rules,
                  std::vector<std::pair<std::string, std::string>> tags) {
    PdnGame pdn;
    pdn.tags = std::move(tags);
    const std::string startLfen = game.start().toLfen();
    if (startLfen != kStartLfen) pdn.tags.emplace_back("FEN", startLfen);
    for (const Move& move : game.moves()) pdn.moves.push_back(formatMove(move));
    pdn.result = pdnResult(game.status(rules).outcome);
    return pdn;
}

}  // namespace lasca
