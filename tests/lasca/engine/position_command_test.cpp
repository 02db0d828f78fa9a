// The reader of the `position` command (lasca/engine/protocol.h), shared by the engine's loop
// and lasca-reference: what each takes from the command's words, and why it refuses one.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "common/text.h"
#include "lasca/core/position.h"
#include "lasca/engine/protocol.h"

namespace lasca::engine {
namespace {

std::variant<PositionCommand, PositionCommandError> parse(const std::string& line) {
    return parsePositionCommand(common::splitWhitespace(line));
}

PositionCommand command(const std::string& line) {
    auto parsed = parse(line);
    if (const auto* bad = std::get_if<PositionCommandError>(&parsed)) {
        ADD_FAILURE() << line << ": " << bad->word;
        return {};
    }
    return std::get<PositionCommand>(parsed);
}

PositionCommandError error(const std::string& line) {
    auto parsed = parse(line);
    if (!std::holds_alternative<PositionCommandError>(parsed)) {
        ADD_FAILURE() << line << " was read";
        return {};
    }
    return std::get<PositionCommandError>(parsed);
}

TEST(PositionCommand, StartposAndFenWithTheirMoves) {
    const PositionCommand start = command("position startpos");
    EXPECT_EQ(start.start.toLfen(), kStartLfen);
    EXPECT_TRUE(start.moves.empty());
    const PositionCommand moved = command("position  startpos moves c3-d4\te5xc3");
    EXPECT_EQ(moved.start.toLfen(), kStartLfen);
    EXPECT_EQ(moved.moves, (std::vector<std::string>{"c3-d4", "e5xc3"}));
    const std::string lfen = "b,b,b,b/b,b,b/b,b,b,b/-,w,-/w,w,-,w/w,w,w/w,w,w,w b 0 1";
    const PositionCommand fen = command("position fen " + lfen + " moves e5-f4 zz");
    EXPECT_EQ(fen.start.toLfen(), lfen);
    EXPECT_EQ(fen.moves, (std::vector<std::string>{"e5-f4", "zz"}));  // played by the caller
    EXPECT_TRUE(command("position startpos moves").moves.empty());
}

TEST(PositionCommand, RefusalsSayWhy) {
    using Kind = PositionCommandError::Kind;
    EXPECT_EQ(error("position").kind, Kind::NoStart);
    EXPECT_EQ(error("position").word, "");
    EXPECT_EQ(error("position moves c3-d4").kind, Kind::NoStart);
    EXPECT_EQ(error("position moves c3-d4").word, "moves");
    EXPECT_EQ(error("position startpos c3-d4").kind, Kind::AfterStartpos);
    EXPECT_EQ(error("position startpos c3-d4 moves").word, "c3-d4");
    EXPECT_EQ(error("position fen").kind, Kind::BadLfen);
    const PositionCommandError bad = error("position fen x y moves c3-d4");
    EXPECT_EQ(bad.kind, Kind::BadLfen);
    EXPECT_EQ(bad.word, Position::fromLfen("x y").error());
}

}  // namespace
}  // namespace lasca::engine
