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

#include <deque>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
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
// Variations nested deeper than kMaxPdnVariationDepth are an error when read.
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

// The tags as writePdn writes them, PDN's export form (PGN's): the Seven Tag Roster first, in
// its order (Event, Site, Date, Round, White, Black, Result), each with the game's value (its
// first tag of that name) or the default ("?", Date "????.??.??", Result the game's result),
// then the game's other tags in their order. A game read back has these tags.
std::vector<std::pair<std::string, std::string>> exportTags(const PdnGame& game);

// The tags (exportTags), a blank line, movetext, a blank line. Comments (the first, comments, the
// lines') are written on one line without any '}' (it cannot stand inside braces), so that no
// comment changes the moves read back; annotations are written as they are.
std::string writePdn(const PdnGame& game);

// Reads every game of a PDN stream; errors name the line. A game's movetext ends at its result
// (a result outside comments and variations): comments may still follow it, and the next word
// begins the next game. Bad movetext is an error: a control character (NUL...), a glyph that
// is not $0..$255, a variation nested deeper than kMaxPdnVariationDepth, an unclosed '('.
common::Result<std::vector<PdnGame>> readPdn(std::istream& in);

// PdnEntry: one game of a PDN stream read by readPdnEntries.
//   line  the 1-based line the game starts on
//   game  the game, or what is wrong with it ("malformed tag pair on line <n>")
struct PdnEntry {
    int line = 0;
    common::Result<PdnGame> game = common::makeError("empty");
};

// PdnReader: reads PDN one line at a time and hands out each game (or what is wrong with it)
// once it has ended: at the first word after its result, where the next game's tag pairs
// begin, or at the end of the stream. A broken game does not stop the rest. Holds the game
// being read and the games ended but not yet handed out (a line may end several).
class PdnReader {
  public:
    // Takes the next line (a trailing "\n" or "\r\n" is dropped); returns the oldest game
    // ended and not yet handed out (by this line or an earlier one), if any.
    std::optional<PdnEntry> feed(std::string line);
    // The end of the stream: ends the game being read, then hands out the games left, one a
    // call; nothing once all are out.
    std::optional<PdnEntry> finish();

  private:
    void movetext(const std::string& line);
    void append(std::string_view piece);
    std::size_t scan(const std::string& line, std::size_t from);
    void end();
    std::optional<PdnEntry> next();

    std::deque<PdnEntry> ended_;  // games ended, oldest first
    PdnEntry current_;
    PdnGame game_;
    std::string error_;       // the first error of the game being read
    std::string text_;        // its movetext so far, a line of the stream a line of it
    std::vector<int> lines_;  // the stream's number of each line of text_
    int depth_ = 0;           // the variations open at the end of text_
    bool inComment_ = false;  // text_ ends inside a {comment}
    bool hasResult_ = false;  // text_ holds the game's result: only comments may follow
    bool inMoves_ = false;
    bool started_ = false;  // a non-blank line of it was seen
    int number_ = 0;        // lines read
};

// Reads every game of a PDN stream with a PdnReader, a broken game not stopping the rest: for
// PDN written by people.
std::vector<PdnEntry> readPdnEntries(std::istream& in);

// PDN and the rules (pdn_replay.cpp).

// Replays a game through the rules core: every move must be legal from the FEN tag (or the
// start position), and a result claimed by a rules termination (R9, T1, T2) must be what the
// rules say of the final position. Returns the final position's LFEN.
common::Result<std::string> replayPdn(const PdnGame& game, const DrawRules& rules);

// The game a PDN game records: its moves played from its start (startOf) under `rules`. An
// error names the first move that is not legal or that follows the end of the game
// ("move 2 'a5-b4': ...").
common::Result<Game> gameOfPdn(const PdnGame& pdn, const DrawRules& rules);

// A game as PDN: `tags`, then a FEN tag when it does not start from the start position; its
// moves; the result the rules give it.
PdnGame pdnOfGame(const Game& game, const DrawRules& rules,
                  std::vector<std::pair<std::string, std::string>> tags);

}  // namespace lasca
