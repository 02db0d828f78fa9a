// Position test suites (docs/analysis.md): files of one LFEN per line followed by EPD-style
// operations, the verdict of a search on each, and the generator of the project's suite of
// proven forced wins (data/wins.epd, `lasca find-wins`).
//
// A line:  <LFEN> [<opcode> [<operand> ...];] ...
//   the LFEN is its board, side to move and optional counters (lasca-rules.md); then
//   bm <move>...;   the best moves: the search must choose one of them
//   am <move>...;   moves to avoid: the search must choose none of them
//   id "<name>";    the position's name
//   any other operation (c0 "comment"; ...) is kept as read and otherwise ignored
// Blank lines and lines starting with '#' hold no position.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "lasca/analysis/analyser.h"

namespace lasca::analysis {

// SuiteEntry: one position of a suite.
//   line      1-based line number in its file
//   id        the id operation, or empty
//   best      bm moves, avoid: am moves (each legal in the position)
struct SuiteEntry {
    int line = 0;
    Position position;
    std::string id;
    std::vector<Move> best;
    std::vector<Move> avoid;
    bool judged() const { return !best.empty() || !avoid.empty(); }
};

// True for a line that holds no position (blank, or a '#' comment).
bool isSuiteComment(std::string_view line);

// Reads one line. Errors say what is wrong: the LFEN, an operation without its ';', a bm or am
// move that is not legal in the position.
common::Result<SuiteEntry> parseSuiteLine(std::string_view line, int number);

// The line of a suite file: the LFEN, bm of the moves, id, and a c0 comment when not empty.
std::string formatSuiteLine(const Position& pos, const std::vector<Move>& best,
                            const std::string& id, const std::string& comment);

// Verdict: whether a search solved a judged position.
enum class Verdict { Unjudged = 0, Solved = 1, Failed = 2 };
Verdict judge(const SuiteEntry& entry, const Move& chosen);
const char* verdictName(Verdict verdict);  // "-", "solved", "failed"

// A score as the protocol writes it, from the side to move's point of view: "cp 35", "mate 3".
std::string scoreText(Score score);

// The result of one position, as text lines (docs/analysis.md):
//   <n> <id|-> bestmove <move> score cp <v>|mate <v> depth <d> nodes <n> <verdict> pv <moves>
// and, with more than one line, one more per line after the first:
//   <n> multipv <k> <move> score ... depth <d> pv <moves>
// and, when the endgame tables hold the position (PositionAnalysis::table), a last one:
//   <n> table White wins in <d> plies|Black wins in <d> plies|draw
// `number` is the position's 1-based number in its file.
std::vector<std::string> resultLines(int number, const SuiteEntry& entry,
                                     const PositionAnalysis& analysis);
// The same as one JSON object on one line ("type": "position").
std::string resultJson(int number, const SuiteEntry& entry, const PositionAnalysis& analysis);

// WinSearch: how `lasca find-wins` looks for proven forced wins.
//   mate       the longest win kept, in moves
//   probeScore search the position for a forced win only when self-play's own search scores
//              it at least this high for the side to move (centi-soldiers), or as a win
//   firstPly   positions before this ply of a game are not probed
//   maxPlies   a game is given up after this many plies
struct WinSearch {
    int mate = 6;
    Score probeScore = 300;
    int firstPly = 4;
    int maxPlies = 200;
};

// FoundWin: a position where a forced win is proven.
//   winning   every legal move proven to win within `mate` moves (the bm of the suite)
//   mateIn    the shortest of those wins, in moves
//   ply       where in the self-play game it was found
struct FoundWin {
    Position position;
    std::vector<Move> winning;
    int mateIn = 0;
    int ply = 0;
};

// Plays a game from `opening` with `player` (self-play) and returns its first position where
// `prover` (limited to mate-in-`mate` searches) proves a forced win, the side to move has a
// choice (two or more legal moves, not all of them proven wins) and a plain search of
// `prover`'s budget (without the mate limit) chooses a winning move. Nothing when the game
// ends first. Deterministic: both analysers are cleared as a fresh run would find them.
std::optional<FoundWin> findWin(const Position& opening, Analyser& player, Analyser& prover,
                                Analyser& checker, const WinSearch& search);

}  // namespace lasca::analysis
