// A game: a position with the history needed for the tournament draw rules T1 and T2, and the
// verdict of the rules on it (R9).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "lasca/core/move.h"
#include "lasca/core/position.h"

namespace lasca {

// Which tournament rules are in force (both on by default; each can be switched off).
struct DrawRules {
    bool repetition = true;  // T1: threefold repetition
    bool noProgress = true;  // T2: 100 plies without capture or soldier move
};
inline constexpr int kNoProgressPlies = 100;

enum class Outcome { Ongoing, WhiteWins, BlackWins, Draw };
enum class Termination { None, NoLegalMove, Repetition, NoProgress };

struct GameStatus {
    Outcome outcome = Outcome::Ongoing;
    Termination termination = Termination::None;
    bool over() const { return outcome != Outcome::Ongoing; }
};

const char* outcomeName(Outcome o);          // "ongoing", "white wins", ...
const char* terminationName(Termination t);  // "none", "no legal move", ...
const char* terminationRule(Termination t);  // the rule: "R9", "T1", "T2", "" for none

// Status of a position given how often it has occurred (1 = first time). R9 comes first: the
// side to move with no legal move has lost even when a draw rule would also apply.
GameStatus statusOf(const Position& pos, int occurrences, const DrawRules& rules);

// Game: the start position, the moves played and the key of every position reached.
//   keys_[i] is the key after i moves; keys_.back() == current().key().
// Repetition counts only look back to the last capture or soldier move (quietPlies), since
// those can never be undone.
class Game {
  public:
    explicit Game(const Position& start = Position::startPosition());

    const Position& start() const { return start_; }
    const Position& current() const { return current_; }
    const std::vector<Move>& moves() const { return moves_; }
    const std::vector<Key>& keys() const { return keys_; }

    void play(const Move& legalMove);
    common::Result<Move> playText(std::string_view text);  // parse, check legality, play
    // Takes back the last move (the game is replayed from its start without it) and returns
    // it; nothing when no move was played.
    std::optional<Move> takeBack();

    int occurrences() const;  // how often the current position has occurred (T1)
    // The keys of the earlier positions the current one can still repeat (those since the last
    // capture or soldier move), oldest first: the history a search of the current position
    // takes.
    std::vector<Key> repetitionHistory() const;
    GameStatus status(const DrawRules& rules) const;

  private:
    Position start_;
    Position current_;
    std::vector<Move> moves_;
    std::vector<Key> keys_;
};

}  // namespace lasca
