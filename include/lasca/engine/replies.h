// The one reader of the engine's reply lines for every client of a Lasca engine (lasca-match,
// lasca-tune spsa, the web tables): `info ... score ... pv ...`, `bestmove <m> [ponder <m>]`
// and the `option name ...` lines of the uci/ugi listing (protocol.md). None of them throws.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lasca::engine {

// ScoreBound: whether the score of an info line is exact or a bound (a failed aspiration
// window: `lowerbound` or `upperbound` after the score).
enum class ScoreBound { Exact, Lower, Upper };

// InfoReply: what one search info line says (`info depth 7 seldepth 9 multipv 1 score cp 35
// nodes 5000 nps 90000 time 55 hashfull 3 pv c3-d4 e5-f4`).
//   depth, selDepth, timeMs, hashfull, nodes, nps   0 when the line has none of them
//   multiPv   1 when the line has none
//   mate      true for `score mate <n>` (n moves to mate, negative: the mover is mated), false
//             for `score cp <n>` (centi-soldiers); score is that n, for the side to move
//   bound     Lower or Upper for a `lowerbound`/`upperbound` line
//   pv        the moves after `pv` as written, at least one
//   fields    the fields the line gave (depth, seldepth, multipv, score, nodes, nps, time,
//             hashfull), each once, in the order first given; a field given twice holds its
//             last value
struct InfoReply {
    int depth = 0;
    int selDepth = 0;
    int multiPv = 1;
    bool mate = false;
    std::int64_t score = 0;
    ScoreBound bound = ScoreBound::Exact;
    std::int64_t nodes = 0;
    std::int64_t nps = 0;
    std::int64_t timeMs = 0;
    std::int64_t hashfull = 0;
    std::vector<std::string> pv;
    std::vector<std::string> fields;

    bool bounded() const { return bound != ScoreBound::Exact; }
};

// Nothing for a line that is not `info`, an `info string` line, a line where a field other than
// pv, lowerbound and upperbound is not followed by a whole number, and a line without a score
// or without a pv.
std::optional<InfoReply> parseInfo(std::string_view line);

// The text of an `info string <text>` line (after one blank; the engine's notes, for example
// `info string table White wins in 5 plies`), nothing for any other line.
std::optional<std::string> parseInfoString(std::string_view line);

// BestMoveReply: `bestmove <move> [ponder <move>]`.
//   move     the move as written; empty for a bare `bestmove` (a garbled reply)
//   ponder   the move after `ponder`; empty when there is none
struct BestMoveReply {
    std::string move;
    std::string ponder;
};

// Nothing when the line's first word is not `bestmove`.
std::optional<BestMoveReply> parseBestMove(std::string_view line);

// OptionReply: one `option name <id> type <t> ...` line of the engine's listing.
//   name       every word between `name` and `type`, joined with single blanks
//   spin       the type is spin; min and max the numbers after `min` and `max` (0 otherwise)
struct OptionReply {
    std::string name;
    bool spin = false;
    std::int64_t min = 0;
    std::int64_t max = 0;
};

// Nothing for a line that is no option declaration (or has no type).
std::optional<OptionReply> parseOption(std::string_view line);

// IdReply: `id name <text>` or `id author <text>`.
//   field  "name" or "author"
//   value  the rest of the line after the blank that follows the field, as written
struct IdReply {
    std::string field;
    std::string value;
};

// Nothing for a line that is not `id name ...` or `id author ...`.
std::optional<IdReply> parseId(std::string_view line);

}  // namespace lasca::engine
