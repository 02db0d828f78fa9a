// PDN records (issue 5, "Records"): writing, reading back, and re-checking with the rules.
#include <gtest/gtest.h>

#include <sstream>

#include "lasca/match/pdn.h"

namespace lasca::match {
namespace {

GameRecord sampleRecord() {
    GameRecord r;
    r.index = 3;
    r.pair = 1;
    r.whiteIsFirst = false;
    r.white = "second \"quoted\"";
    r.black = "first";
    r.startLfen = std::string(kStartLfen);
    // The R7 line of lasca-rules.md; then Black is to move.
    r.moves = {"c3-d4", "e5xc3", "d2xb4", "g5-f4", "e3xg5", "d6-e5", "b4xd6", "e7xc5", "g5xe7"};
    r.outcome = Outcome::WhiteWins;
    r.reason = EndReason::IllegalMove;
    r.detail = "Black: move 'a1-a2' is not legal";
    return r;
}

TEST(Pdn, WritesTheDocumentedTagsAndMovetext) {
    const std::string text = writePdn(toPdn(sampleRecord(), PdnHeader{}));
    EXPECT_NE(text.find("[GameType \"Lasca\"]"), std::string::npos);
    EXPECT_NE(text.find("[Result \"2-0\"]"), std::string::npos);
    EXPECT_NE(text.find("[Round \"2.2\"]"), std::string::npos);
    EXPECT_NE(text.find("[White \"second \\\"quoted\\\"\"]"), std::string::npos);
    EXPECT_NE(text.find("[Termination \"illegal move\"]"), std::string::npos);
    EXPECT_NE(text.find("1. c3-d4 e5xc3 2. d2xb4 g5-f4"), std::string::npos);
    EXPECT_NE(text.find("5. g5xe7 2-0"), std::string::npos);
}

TEST(Pdn, RoundTrip) {
    const GameRecord original = sampleRecord();
    std::istringstream in(writePdn(toPdn(original, PdnHeader{})) +
                          writePdn(toPdn(original, PdnHeader{})));
    const auto games = readPdn(in);
    ASSERT_TRUE(games.ok()) << games.error();
    ASSERT_EQ(games.value().size(), 2u);
    const auto back = toRecord(games.value()[0]);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back.value().moves, original.moves);
    EXPECT_EQ(back.value().white, original.white);
    EXPECT_EQ(back.value().index, original.index);
    EXPECT_EQ(back.value().whiteIsFirst, original.whiteIsFirst);
    EXPECT_EQ(back.value().outcome, original.outcome);
    EXPECT_EQ(back.value().reason, original.reason);
    EXPECT_EQ(back.value().detail, original.detail);
    EXPECT_TRUE(replayPdn(games.value()[1], DrawRules{}).ok());
}

TEST(Pdn, GameStartingWithBlackNumbersWithDots) {
    GameRecord r = sampleRecord();
    r.startLfen = "b,b,b,b/b,b,b/b,b,b,b/-,w,-/w,w,-,w/w,w,w/w,w,w,w b 0 1";
    r.moves = {"e5-f4", "g3xe5"};
    const std::string text = writePdn(toPdn(r, PdnHeader{}));
    EXPECT_NE(text.find("1... e5-f4 2. g3xe5 2-0"), std::string::npos);
    std::istringstream in(text);
    EXPECT_EQ(readPdn(in).value()[0].moves, r.moves);
}

TEST(Pdn, ReplayCatchesAnIllegalMove) {
    PdnGame g = toPdn(sampleRecord(), PdnHeader{});
    g.moves[1] = "e5-f4";
    EXPECT_FALSE(replayPdn(g, DrawRules{}).ok());
}

// R9: a "no legal move" termination must be what the rules say of the final position.
TEST(Pdn, ReplayChecksARulesResult) {
    GameRecord r = sampleRecord();
    r.reason = EndReason::NoLegalMove;
    EXPECT_FALSE(replayPdn(toPdn(r, PdnHeader{}), DrawRules{}).ok());
    r.startLfen = "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- b";
    r.moves.clear();
    EXPECT_TRUE(replayPdn(toPdn(r, PdnHeader{}), DrawRules{}).ok());
}

}  // namespace
}  // namespace lasca::match
