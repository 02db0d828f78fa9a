// PDN (Portable Draughts Notation) records of Lasca games: writing a GameRecord, reading games
// back, and re-checking a read game against the rules core. The match runner turns its game
// records into PDN games (lasca/match/pdn_record.h).
//
// Conventions (see docs/match.md): results use the draughts form "2-0" (White wins), "0-2"
// (Black wins), "1-1" (draw), "*" (unfinished). Tags written, in order: Event, Site, Date,
// Round ("<pair>.<game>", both 1-based: game 1 of a pair has the first engine as White),
// White, Black, Result, GameType "Lasca", FEN (the start LFEN, always written),
// Termination (endReasonName), TerminationDetails (only when there is a detail), PlyCount.
// Moves are in the project's notation with move numbers ("1. c3-d4 e5xc3 2. ..."; a game
// starting with Black to move begins "1... ").
#pragma once

#include <istream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "lasca/core/game.h"

namespace lasca {

// Nags: the numeric annotation glyphs ($n, 0..255) after one move, in the order read. A move
// mark is read as its glyph: "!" $1, "?" $2, "!!" $3, "??" $4, "!?" $5, "?!" $6.
using Nags = std::vector<int>;
inline constexpr int kMaxNag = 255;

// PdnLine: a line of moves played instead of a move of another line (RAV: "( ... )").
//   moves       move tokens, as PdnGame::moves
//   comments    comments[i]: the {comment} text after moves[i]; may be shorter than moves
//   variations  the lines played instead of its own moves (PdnVariation::at indexes moves)
//   comment     the comment before its first move ("( {why not} 2. b2-a3 ...)")
//   nags        nags[i]: the glyphs after moves[i]; may be shorter than moves
// PdnVariation is still incomplete here: `variations` has no default member initializer
// (one would instantiate the vector's constructor at this point, which clang rejects); it
// starts empty all the same.
struct PdnVariation;
struct PdnLine {
    std::vector<std::string> moves{};
    std::vector<std::string> comments{};
    std::vector<PdnVariation> variations;
    std::string comment{};
    std::vector<Nags> nags{};
};

// PdnVariation: a line played instead of the move `at` of the enclosing line, written in
// parentheses right after that move ("1. c3-d4 (1. a3-b4 g7-f6) 1... f6-e5").
struct PdnVariation {
    std::size_t at = 0;
    PdnLine line;
};

// PdnGame: one game as read from (or written to) PDN.
//   tags         tag pairs in file order (name, value), values unescaped
//   moves        the main line's move tokens, without numbers, comments, variations, NAGs ($n),
//                move marks (! ?: read into nags) or the result
//   result       the result token ("2-0", "0-2", "1-1" or "*")
//   comment      the comment before the first move (without braces)
//   annotations  written only: text written right after moves[i] (a mark such as "?!" and/or
//                " {comment}"); may be shorter than moves, empty entries write nothing
//   comments     comments[i]: the {comment} text after moves[i] (several joined by a space);
//                read, and written after the annotation; may be shorter than moves
//   variations   the lines played instead of main-line moves (RAV), nested; read and written
//   nags         nags[i]: the glyphs after moves[i] ($n, and move marks read as glyphs); read,
//                and written as "$n" after the annotation; may be shorter than moves
// Variations nested deeper than kMaxPdnVariationDepth are skipped when read.
inline constexpr int kMaxPdnVariationDepth = 32;
struct PdnGame {
    std::vector<std::pair<std::string, std::string>> tags;
    std::vector<std::string> moves;
    std::string result = "*";
    std::string comment;
    std::vector<std::string> annotations;
    std::vector<std::string> comments;
    std::vector<PdnVariation> variations;
    std::vector<Nags> nags;
    std::optional<std::string> tag(const std::string& name) const;
};

const char* pdnResult(Outcome outcome);        // "2-0", "0-2", "1-1", "*"
Outcome outcomeOf(const std::string& result);  // the inverse; anything else is Ongoing

// The position a game starts from: its FEN tag, or the start position without one.
common::Result<Position> startOf(const PdnGame& game);

// Tags, a blank line, movetext, a blank line. Comments (the first, comments, the lines') are
// written on one line without any '}' (it cannot stand inside braces), so that no comment
// changes the moves read back; annotations are written as they are.
std::string writePdn(const PdnGame& game);

// Reads every game of a PDN stream; errors name the line.
common::Result<std::vector<PdnGame>> readPdn(std::istream& in);

// PdnEntry: one game of a PDN stream read by readPdnEntries.
//   line  the 1-based line the game starts on
//   game  the game, or what is wrong with it ("malformed tag pair on line <n>")
struct PdnEntry {
    int line = 0;
    common::Result<PdnGame> game = common::makeError("empty");
};

// PdnReader: reads PDN one line at a time and hands out each game (or what is wrong with it)
// as soon as it ends: where the next game's tag pairs begin, or at the end of the stream. A
// broken game does not stop the rest. Holds only the game being read.
class PdnReader {
  public:
    // Takes the next line (a trailing "\n" or "\r\n" is dropped); returns the game it ended.
    std::optional<PdnEntry> feed(std::string line);
    // The end of the stream: the last game, if there is one.
    std::optional<PdnEntry> finish();

  private:
    PdnEntry take();

    PdnEntry current_;
    PdnGame game_;
    std::string error_;  // the first error of the game being read
    std::string text_;   // its movetext so far
    bool inMoves_ = false;
    bool started_ = false;  // a non-blank line of it was seen
    int number_ = 0;        // lines read
};

// Reads every game of a PDN stream with a PdnReader, a broken game not stopping the rest: for
// PDN written by people.
std::vector<PdnEntry> readPdnEntries(std::istream& in);

// Replays a game through the rules core: every move must be legal from the FEN tag (or the
// start position), and a result claimed by a rules termination (R9, T1, T2) must be what the
// rules say of the final position. Returns the final position's LFEN.
common::Result<std::string> replayPdn(const PdnGame& game, const DrawRules& rules);

}  // namespace lasca
