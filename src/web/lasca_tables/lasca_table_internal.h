// What the files of LascaTable share: limits, the names of colours, and the JSON of moves and
// statuses.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"
#include "lasca/core/game.h"
#include "web/lasca_tables/lasca_table.h"
#include "web/lasca_tables/move_tree.h"
#include "web/messages/messages.h"
#include "web/store/store.h"

namespace web::lasca_tables {

// The message and store names every file of LascaTable uses.
using messages::boolField;
using messages::checkFields;
using messages::errorMessage;
using messages::intField;
using messages::messageType;
using messages::parseMessage;
using messages::Say;
using messages::stringField;
using store::StoredLascaGame;

inline constexpr int kMateScore = 10000;       // a mate's place on the evaluation bar and graph
inline constexpr std::size_t kMaxLfen = 2000;  // longer LFEN text is refused before parsing
inline constexpr std::size_t kMaxPdn = 60000;  // within the 64 KB message limit
inline constexpr std::size_t kMaxMoveText = 64;

std::string colourName(lasca::Color c);
// The engine's colour from its name ("white", "black", or "none": people play both sides);
// nothing for another name. The inverse of colourName, with "none".
std::optional<std::optional<lasca::Color>> engineColourOf(std::string_view name);
// A line of moves from a message field: an array of move texts.
common::Result<MoveLine> lineField(const Json& m, const char* name);
// The words of a game's end, with its rule (lasca-rules.md): server.lasca.end.*; nothing while
// the game is on.
std::optional<Say> statusSay(const lasca::GameStatus& status);
// A refusal of what only a program gets wrong (a field missing or of the wrong type: the page
// never sends it): its English detail, under server.error.refused.
Say refused(std::string detail);
// What a person is told of a move text that `pos` does not take: not a move's squares, written
// with the wrong sign between them, or not a legal move there.
Say moveRefusal(const lasca::Position& pos, std::string_view text);
// A move's comment with one evaluation at most: every `[%eval E]` in it taken out, then
// `[%eval W]` for White's score `white` in centi-soldiers put first, or without a score the last
// one it had (a comment read from PDN keeps its evaluation, once). Spaces are closed up.
std::string withOneEval(const std::string& comment, std::optional<int> white);
// A move's squares, origin first: ["c3", "e5"].
Json squaresJson(const lasca::Move& m);
// The legal moves of a position: [{"move": text, "path": squares}, ...].
Json legalMovesJson(const lasca::Position& pos);

}  // namespace web::lasca_tables
