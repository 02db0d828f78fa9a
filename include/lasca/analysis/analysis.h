// Game analysis (docs/analysis.md): every position of a recorded game searched, each
// move judged by the winning chances it gave away, marked ?!, ? or ??, and written back as
// annotated PDN or as JSON lines; a summary per game and player.
//
// Winning chances: a score s (centi-soldiers, the side's point of view) is worth
//   1 / (1 + exp(-s / kWinningChanceScale))
// of a point, the logistic curve the tuner fits to the project's own games (lasca-tune scale);
// a proven win is 1, a proven loss 0. A move's drop is the mover's chance before it (the best
// move's score) less the chance after it (the next position's score), never below 0, and 0
// when the move is the engine's own choice.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "lasca/analysis/analyser.h"
#include "lasca/analysis/diagram.h"
#include "lasca/core/pdn.h"

namespace lasca::analysis {

// The logistic scale, in centi-soldiers: 400 / (K ln 10) with K = 0.647, the scale
// `lasca-tune scale` fits for the current evaluation on 1200 of its own self-play games at 3000
// nodes (42,961 quiet positions; docs/analysis.md has the commands).
inline constexpr double kWinningChanceScale = 268.5;

// The winning chance of a score for the side it is counted for: 0..1.
double winningChance(Score score, double scale = kWinningChanceScale);

// Mark: how bad a move was, by the drop in winning chances (MarkThresholds).
enum class Mark { None = 0, Inaccuracy = 1, Mistake = 2, Blunder = 3 };

// MarkThresholds: the smallest drop (in winning chance, 0..1) of each mark.
struct MarkThresholds {
    double inaccuracy = 0.10;
    double mistake = 0.20;
    double blunder = 0.30;
};

Mark classifyDrop(double drop, const MarkThresholds& thresholds = {});
const char* markGlyph(Mark mark);  // "", "?!", "?", "??"
const char* markName(Mark mark);   // "", "inaccuracy", "mistake", "blunder"

// A score of a position, given for the side to move there, as annotations show it: from
// White's point of view, in soldiers with two decimals ("0.35", "-1.20"), or a forced win in
// moves ("#3" White wins in 3, "#-2" Black wins in 2).
std::string formatEval(Score score, Color sideToMove);

// Scores beyond this many centi-soldiers count as this many in the centi-soldier loss (a
// proven win counts as this much too).
inline constexpr Score kLossCap = 1000;

// MoveAnalysis: one move of a game and what the analysis found.
//   ply           0-based index of the move in the game
//   before        the search of the position before the move (best first)
//   afterScore    the position after the move, for the mover: its search score negated, or
//                 the rules' verdict when the game is over there (kMate won, 0 drawn)
//   afterDepth    the depth of that search; 0 when the game is over after the move
//   chanceBefore  the mover's winning chance with the best move; chanceAfter with the move
//   drop          chanceBefore - chanceAfter, at least 0; 0 when played is the best move
//   cpLoss        the same in centi-soldiers, both scores capped at kLossCap
//   tableAfter    the endgame tables' result for the position after the move, in words
//                 (egtb::verdictText: "White wins in 5 plies"); empty when no table holds it
struct MoveAnalysis {
    int ply = 0;
    Color mover = Color::White;
    Move played{};
    PositionAnalysis before;
    Score afterScore = 0;
    int afterDepth = 0;
    bool gameOverAfter = false;
    double chanceBefore = 0.5;
    double chanceAfter = 0.5;
    double drop = 0;
    int cpLoss = 0;
    Mark mark = Mark::None;
    std::string tableAfter;
    bool playedBest() const { return before.hasMove() && before.bestMove() == played; }
};

// PlayerSummary: one side's moves of one or more games.
struct PlayerSummary {
    int moves = 0;
    double totalDrop = 0;
    std::int64_t totalCpLoss = 0;
    std::array<int, 4> marks{};  // by Mark
    void add(const MoveAnalysis& move);
    void add(const PlayerSummary& other);
    double averageDrop() const;    // winning chance, 0..1
    double averageCpLoss() const;  // centi-soldiers
    int count(Mark mark) const { return marks[static_cast<std::size_t>(mark)]; }
};

// "average loss 1.2% (15 cs), 1 inaccuracy, 0 mistakes, 0 blunders"
std::string summaryText(const PlayerSummary& summary);

// AnalysisOptions: how moves are judged.
struct AnalysisOptions {
    double scale = kWinningChanceScale;
    MarkThresholds thresholds;
};

// GameAnalysis: one analysed game.
//   index       0-based number of the game in its file
//   pdn         the game as read
//   start       its start position
//   moves       one entry per move of the record
//   whiteScores every position's score for White, start first (moves.size() + 1 of them): its
//               search's best score, or the rules' verdict where the game is over (kMate,
//               -kMate, 0)
//   players     by index(Color)
//   positions   positions searched, nodes their nodes
struct GameAnalysis {
    int index = 0;
    PdnGame pdn;
    Position start;
    std::vector<MoveAnalysis> moves;
    std::vector<Score> whiteScores;
    std::array<PlayerSummary, 2> players;
    int positions = 0;
    std::uint64_t nodes = 0;
};

// Replays the game (every move must be legal, none after the game ended) and searches each of
// its positions in order, the analyser cleared first: the same game gives the same analysis
// at a node or depth limit with one thread. Errors name the ply: "ply 7: move 'c3-e5' is not
// legal in this position".
common::Result<GameAnalysis> analyseGame(int gameIndex, const PdnGame& game, Analyser& analyser,
                                         const AnalysisOptions& options = {});

// The game as annotated PDN: its tags, an Annotator tag (`annotator`), a first comment with
// both players' summaries, then each move with its mark and a comment:
//   c3-d4? {[%eval -1.20] [%depth 12] mistake (-23%), best e3-f4 (0.10)}
// (multiPV lines are listed after "lines" when there are more than one).
PdnGame annotatedPdn(const GameAnalysis& game, const std::string& annotator);

// One JSON object per move (`"type": "move"`), then one for the game (`"type": "game"`), each
// on one line (docs/analysis.md lists the fields).
std::vector<std::string> jsonLines(const GameAnalysis& game);

// White's winning chance at each position of the game, start first, and the mark of the move
// that led to it (none for the start): the points of the evaluation graph (diagram.h).
std::vector<ChancePoint> chanceCurve(const GameAnalysis& game, double scale = kWinningChanceScale);

}  // namespace lasca::analysis
