// The referee: plays one game between two engines, checking every move against the rules core.
// Results are never taken from an engine's word: the rules core decides R9 and the T1/T2 draws,
// and any failure of an engine (illegal or garbled move, crash, time forfeit) loses the game.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "lasca/core/game.h"
#include "lasca/core/position.h"
#include "lasca/match/engine.h"

namespace lasca::match {

// TimeControl: the limit each `go` carries.
//   MoveTime  `go movetime <movetimeMs>`; a reply later than movetimeMs + margin forfeits
//   Nodes     `go nodes <nodes>`;  a reply later than searchTimeout forfeits
//   Depth     `go depth <depth>`;  likewise
//   Clock     base + increment per side: `go wtime btime winc binc` (UGI: p1time ...); the
//             runner measures each move from `go` to `bestmove`, subtracts it and then adds the
//             increment; a side whose clock falls below -margin forfeits
struct TimeControl {
    enum class Kind { MoveTime, Nodes, Depth, Clock };
    Kind kind = Kind::MoveTime;
    std::int64_t movetimeMs = 100;
    std::int64_t nodes = 0;
    int depth = 0;
    std::int64_t baseMs = 0;
    std::int64_t incMs = 0;
    std::chrono::milliseconds margin{250};
    std::chrono::milliseconds searchTimeout{60000};
};

// "SECONDS+INC" (both may have decimals; without "+INC" the increment is 0), e.g. "10+0.1", as
// a Clock time control (the other fields keep their defaults). SECONDS in (0, 10^6], INC in
// [0, 10^6]. Errors say what is expected.
common::Result<TimeControl> parseClock(std::string_view text);

// GameSettings: everything about one game except the engines and the opening.
//   rules     which tournament draw rules (T1, T2) the referee applies
//   maxPlies  adjudicate a draw after this many plies (0 = no limit)
struct GameSettings {
    TimeControl timeControl;
    DrawRules rules;
    int maxPlies = 0;
};

// Why a game ended, from the referee's point of view.
enum class EndReason {
    NoLegalMove,   // R9
    Repetition,    // T1
    NoProgress,    // T2
    MaxPlies,      // the runner's length limit
    IllegalMove,   // a well-formed move that is not legal, or `0000` while moves exist
    GarbledMove,   // a token that is not a move, or a `bestmove` without a move
    TimeForfeit,   // no `bestmove` in time, or the clock ran out
    Crash,         // the engine's process ended (or its output closed)
    Disconnected,  // the engine could not be (re)started or did not answer isready
};
const char* endReasonName(EndReason r);  // the PDN Termination text, e.g. "illegal move"

// GameRecord: one finished game.
//   index, pair       game number (0-based) and game pair (index / 2) in the match schedule
//   opening           index of the opening in the openings list
//   white, black      engine names; whiteIsFirst: the match's first engine played White
//   startLfen         the position the game started from; moves in the project's notation
//   outcome           never Ongoing; reason and detail say why (detail: free text)
struct GameRecord {
    int index = 0;
    int pair = 0;
    int opening = 0;
    std::string white;
    std::string black;
    bool whiteIsFirst = true;
    std::string startLfen;
    std::vector<std::string> moves;
    Outcome outcome = Outcome::Draw;
    EndReason reason = EndReason::NoLegalMove;
    std::string detail;
};

// Plays one game from `start`. Engines must be started; their new-game command is sent here.
// An engine that failed (alive() false) must be restarted by the caller before the next game.
GameRecord playGame(Engine& white, Engine& black, const Position& start,
                    const GameSettings& settings);

// The verdict for a game the referee could not even start because `loser` is unavailable.
GameRecord forfeitGame(Color loser, const std::string& detail);

}  // namespace lasca::match
