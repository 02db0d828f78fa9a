// Move notation: writing, the accepted reading forms, and errors as values.
#include "lasca/core/notation.h"

#include <gtest/gtest.h>

#include <random>

#include "lasca/core/game.h"
#include "lasca/test_util.h"

namespace lasca {
namespace {

// After c3-d4 e5xc3, White must capture: d2xb4 and b2xd4 are the legal moves.
Position afterExchange() {
    Game game;
    EXPECT_TRUE(game.playText("c3-d4").ok());
    EXPECT_TRUE(game.playText("e5xc3").ok());
    return game.current();
}

TEST(Notation, WritesStepsAndCaptures) {
    const Position start = Position::startPosition();
    EXPECT_EQ(formatMove(parseMove(start, "c3-d4").value()), "c3-d4");
    EXPECT_EQ(formatMove(parseMove(afterExchange(), "d2xb4").value()), "d2xb4");
    EXPECT_EQ(formatMove(Move{}), "0000");
}

TEST(Notation, AcceptsCompactFormsAndPromotionMark) {
    const Position start = Position::startPosition();
    const Move step = parseMove(start, "c3-d4").value();
    EXPECT_EQ(parseMove(start, "c3d4").value(), step);
    EXPECT_EQ(parseMove(start, "c3-d4*").value(), step);
    const Position pos = afterExchange();
    EXPECT_EQ(parseMove(pos, "d2b4").value(), parseMove(pos, "d2xb4").value());
}

TEST(Notation, MultiJumpNeedsEveryLandingSquare) {
    // White officer on b2 with black soldiers on c3 and e5: b2xd4xf6 is one move.
    const Position pos = test::lfen("-,-,-,-/-,-,-/-,-,b,-/-,-,-/-,b,-,-/W,-,-/-,-,-,- w");
    EXPECT_EQ(formatMove(parseMove(pos, "b2xd4xf6").value()), "b2xd4xf6");
    EXPECT_TRUE(parseMove(pos, "b2d4f6").ok());
    const auto prefix = parseMove(pos, "b2xd4");
    ASSERT_FALSE(prefix.ok());
    EXPECT_NE(prefix.error().find("not legal"), std::string::npos);
}

struct BadMove {
    const char* text;
    const char* messagePart;
};
class MoveErrors : public ::testing::TestWithParam<BadMove> {};

TEST_P(MoveErrors, NameWhatIsWrong) {
    const auto result = parseMove(Position::startPosition(), GetParam().text);
    ASSERT_FALSE(result.ok()) << GetParam().text;
    EXPECT_NE(result.error().find(GetParam().messagePart), std::string::npos) << result.error();
}

INSTANTIATE_TEST_SUITE_P(
    Notation, MoveErrors,
    ::testing::Values(BadMove{"", "empty move"}, BadMove{"z9-d4", "bad square name 'z9'"},
                      BadMove{"c3-d5", "bad square name 'd5'"},
                      BadMove{"c3", "at least two squares"}, BadMove{"c3-", "ends where a square"},
                      BadMove{"c3-d4xe5", "mixes separators"},
                      BadMove{"c3xd4", "is a step, written with 'x'"},
                      BadMove{"c3-b4-a5", "not legal"}, BadMove{"a1-b2", "not legal"},
                      BadMove{"c5-d4", "not legal"}, BadMove{"c3-d4\x01", "ends where a square"}));

TEST(Notation, CaptureWrittenWithDashIsRejected) {
    const auto result = parseMove(afterExchange(), "d2-b4");
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.error().find("is a capture"), std::string::npos);
}

TEST(Notation, ParserSurvivesGarbage) {
    std::mt19937 rng(7);
    const std::string alphabet = "abcdefgh12345678-x* \xff";
    const Position pos = Position::startPosition();
    for (int i = 0; i < 50000; ++i) {
        std::string text;
        const std::size_t length = rng() % 20;
        for (std::size_t k = 0; k < length; ++k) text += alphabet[rng() % alphabet.size()];
        const auto result = parseMove(pos, text);
        if (result) {
            MoveList legal;
            generateMoves(pos, legal);
            EXPECT_TRUE(legal.contains(result.value())) << text;
        } else {
            EXPECT_FALSE(result.error().empty());
        }
    }
    EXPECT_FALSE(parseMove(pos, std::string(1 << 20, 'a')).ok());
}

TEST(Notation, EveryGeneratedMoveRoundTrips) {
    for (unsigned seed = 1; seed <= 200; ++seed) {
        test::playRandomGame(Position::startPosition(), seed, 200,
                             [](const Position& pos, const Move&) {
                                 MoveList list;
                                 generateMoves(pos, list);
                                 for (const Move& m : list) {
                                     const auto back = parseMove(pos, formatMove(m));
                                     ASSERT_TRUE(back.ok()) << back.error();
                                     ASSERT_EQ(back.value(), m);
                                     // Read without the position: the same shape.
                                     const auto shape = moveShape(formatMove(m));
                                     ASSERT_TRUE(shape.ok()) << shape.error();
                                     ASSERT_EQ(shape.value(), m);
                                     ASSERT_EQ(shape.value().capture, m.capture);
                                 }
                             });
    }
}

// Drawing a move that led to a position needs its squares without checking legality.
TEST(Notation, MoveSquaresWithoutAPosition) {
    const auto squares = moveSquares("d2xb4xd6");
    ASSERT_TRUE(squares.ok());
    EXPECT_EQ(squares.value(),
              (std::vector<Square>{*parseSquare("d2"), *parseSquare("b4"), *parseSquare("d6")}));
    EXPECT_TRUE(moveSquares("c3d4").ok());
    EXPECT_FALSE(moveSquares("c3").ok());
    EXPECT_FALSE(moveSquares("c3-z9").ok());
}

// A move's shape read without a position (R4 steps, R5 jumps), with its jumped squares
// (EveryGeneratedMoveRoundTrips reads every generated move so); shapes no move can have are
// refused.
TEST(Notation, MoveShapeWithoutAPosition) {
    const Move jumps = moveShape("d2b4d6").value();
    EXPECT_TRUE(jumps.capture);
    EXPECT_EQ(jumps.jumped(0), *parseSquare("c3"));
    EXPECT_EQ(jumps.jumped(1), *parseSquare("c5"));
    EXPECT_FALSE(moveShape("c3").ok());
    EXPECT_EQ(moveShape("c3-e7").error(),
              "move 'c3-e7': each square must be one diagonal step or one jump (two squares "
              "along a diagonal) from the one before");
    EXPECT_EQ(moveShape("c3-d4-e5").error(), "move 'c3-d4-e5' mixes steps and jumps");
    EXPECT_EQ(moveShape("c3xe5-g7").error(), "move 'c3xe5-g7' mixes separators");
    EXPECT_EQ(moveShape("c3xd4").error(), "move 'c3xd4': written with 'x' but it is a step");
    EXPECT_EQ(moveShape("c3-e5").error(), "move 'c3-e5': written with '-' but it is a capture");
}

// The board as text (Python's str(position)): a row per rank, a column by its top piece and
// its height.
TEST(Notation, BoardText) {
    EXPECT_EQ(boardText(Position::startPosition()),
              "  +-----------------------------+\n"
              "7 | b       b       b       b   |\n"
              "6 |     b       b       b       |\n"
              "5 | b       b       b       b   |\n"
              "4 |     .       .       .       |\n"
              "3 | w       w       w       w   |\n"
              "2 |     w       w       w       |\n"
              "1 | w       w       w       w   |\n"
              "  +-----------------------------+\n"
              "    a   b   c   d   e   f   g\n"
              "white to move");
    const auto stacked =
        Position::fromLfen("-,-,Wwb,-/-,-,-/-,-,-,-/-,-,-/b,-,-,-/-,-,-/-,-,-,- b");
    ASSERT_TRUE(stacked.ok()) << stacked.error();
    const std::string text = boardText(stacked.value());
    EXPECT_NE(text.find("7 | .       .       W3      .   |\n"), std::string::npos) << text;
    EXPECT_NE(text.find("3 | b       .       .       .   |\n"), std::string::npos) << text;
    EXPECT_TRUE(text.ends_with("\nblack to move")) << text;
}

}  // namespace
}  // namespace lasca
