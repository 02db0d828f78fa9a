// PDN records: writing, reading back, and re-checking with the rules.
#include <gtest/gtest.h>

#include <sstream>

#include "lasca/match/pdn_record.h"

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

// PDN written by people: {comments}, (variations), $NAGs, move marks, ; comments and
// % escape lines are skipped; unknown tags are kept.
TEST(Pdn, ReadsPdnWrittenByPeople) {
    std::istringstream in(
        "[Event \"club\"]\n[Opening \"R7\"]\n% escape line\n\n"
        "{A first comment (with a bracket} 1.c3-d4! e5xc3 $2 2. d2xb4 g5-f4?! (2... b6-a5 {x}\n"
        "(2... f6-g5) 3. b4xd6) 3. e3xg5 ; the rest of the line [is skipped\n"
        "d6-e5?? 4. b4xd6 {a comment over\n[%eval 0.3] two lines} e7xc5 *\n");
    const auto games = readPdn(in);
    ASSERT_TRUE(games.ok()) << games.error();
    ASSERT_EQ(games.value().size(), 1u);
    const PdnGame& g = games.value()[0];
    EXPECT_EQ(g.moves, (std::vector<std::string>{"c3-d4", "e5xc3", "d2xb4", "g5-f4", "e3xg5",
                                                 "d6-e5", "b4xd6", "e7xc5"}));
    EXPECT_EQ(g.tag("Opening"), "R7");
    EXPECT_EQ(g.result, "*");
    EXPECT_EQ(g.comment, "A first comment (with a bracket");
    // The variation replaces g5-f4 (index 3) and holds one of its own replacing b6-a5.
    ASSERT_EQ(g.variations.size(), 1u);
    EXPECT_EQ(g.variations[0].at, 3u);
    EXPECT_EQ(g.variations[0].line.moves, (std::vector<std::string>{"b6-a5", "b4xd6"}));
    EXPECT_EQ(g.variations[0].line.comments, (std::vector<std::string>{"x"}));
    ASSERT_EQ(g.variations[0].line.variations.size(), 1u);
    EXPECT_EQ(g.variations[0].line.variations[0].at, 0u);
    EXPECT_EQ(g.variations[0].line.variations[0].line.moves, (std::vector<std::string>{"f6-g5"}));
    ASSERT_EQ(g.comments.size(), 7u);
    EXPECT_EQ(g.comments[6], "a comment over [%eval 0.3] two lines");
    // Marks and $n are read as glyphs of the move before them: ! 1, $2, ?! 6, ?? 4.
    EXPECT_EQ(g.nags, (std::vector<Nags>{{1}, {2}, {}, {6}, {}, {4}}));
    EXPECT_TRUE(g.variations[0].line.nags.empty());
}

// Glyphs ($n, move marks read as glyphs) and a comment before a variation's first move are read
// and written back; a glyph out of 0..255 is not a glyph, and never a move.
TEST(Pdn, GlyphsAndAVariationsFirstCommentRoundTrip) {
    std::istringstream in(
        "1. c3-d4!? $14 (1. a3-b4 {the quiet one} $2 ( {and another} 1. e3-f4 ) g7-f6) "
        "1... e5xc3 2. d2xb4 !! *\n");
    const auto games = readPdn(in);
    ASSERT_TRUE(games.ok()) << games.error();
    const PdnGame& g = games.value()[0];
    EXPECT_EQ(g.moves, (std::vector<std::string>{"c3-d4", "e5xc3", "d2xb4"}));
    EXPECT_EQ(g.nags, (std::vector<Nags>{{5, 14}, {}, {3}}));
    ASSERT_EQ(g.variations.size(), 1u);
    const PdnLine& v = g.variations[0].line;
    EXPECT_EQ(v.moves, (std::vector<std::string>{"a3-b4", "g7-f6"}));
    EXPECT_EQ(v.comment, "");
    EXPECT_EQ(v.comments, (std::vector<std::string>{"the quiet one"}));
    EXPECT_EQ(v.nags, (std::vector<Nags>{{2}}));
    ASSERT_EQ(v.variations.size(), 1u);
    EXPECT_EQ(v.variations[0].line.comment, "and another");
    EXPECT_EQ(v.variations[0].line.moves, (std::vector<std::string>{"e3-f4"}));

    const std::string text = writePdn(g);
    EXPECT_NE(text.find("1. c3-d4 $5 $14 (1. a3-b4 $2 {the quiet one} ({and another} 1. e3-f4) "
                        "1... g7-f6) 1... e5xc3 2. d2xb4 $3 *"),
              std::string::npos)
        << text;
    std::istringstream again(text);
    const auto back = readPdn(again);
    ASSERT_TRUE(back.ok()) << back.error();
    const PdnGame& r = back.value()[0];
    EXPECT_EQ(r.moves, g.moves);
    EXPECT_EQ(r.nags, g.nags);
    EXPECT_EQ(r.variations[0].line.nags, v.nags);
    EXPECT_EQ(r.variations[0].line.variations[0].line.comment, "and another");
    EXPECT_EQ(writePdn(r), text);
}

TEST(Pdn, VariationsAndCommentsRoundTrip) {
    PdnGame g = toPdn(sampleRecord(), PdnHeader{});
    g.comments = {"", "a reply"};
    PdnVariation inner{0, PdnLine{{"f6-g5"}, {}, {}}};
    PdnVariation v{3, PdnLine{{"b6-a5", "b4xd6"}, {"why not"}, {inner}}};
    g.variations = {v, PdnVariation{0, PdnLine{{"a3-b4"}, {}, {}}}};
    const std::string text = writePdn(g);
    EXPECT_NE(text.find("1. c3-d4 (1. a3-b4) 1... e5xc3 {a reply} 2. d2xb4 g5-f4 (2... b6-a5 "
                        "{why not} (2... f6-g5) 3. b4xd6) 3. e3xg5"),
              std::string::npos)
        << text;
    std::istringstream in(text);
    const auto back = readPdn(in);
    ASSERT_TRUE(back.ok()) << back.error();
    const PdnGame& r = back.value()[0];
    EXPECT_EQ(r.moves, g.moves);
    EXPECT_EQ(r.comments, g.comments);
    ASSERT_EQ(r.variations.size(), 2u);
    EXPECT_EQ(r.variations[0].at, 0u);
    EXPECT_EQ(r.variations[1].at, 3u);
    EXPECT_EQ(r.variations[1].line.moves, v.line.moves);
    EXPECT_EQ(r.variations[1].line.comments, v.line.comments);
    ASSERT_EQ(r.variations[1].line.variations.size(), 1u);
    EXPECT_EQ(r.variations[1].line.variations[0].line.moves, inner.line.moves);
}

TEST(Pdn, GarbledVariationsNeverBreakTheReader) {
    // Stray parentheses and braces, a variation before any move, an unclosed comment: read.
    for (const std::string& text : std::vector<std::string>{
             "(1. a3-b4) 1. c3-d4 ) ) e5xc3 *", "1. c3-d4 {never closed (", "} ) 1. c3-d4"}) {
        std::istringstream in(text + "\n");
        const auto games = readPdn(in);
        ASSERT_TRUE(games.ok()) << text;
        ASSERT_EQ(games.value().size(), 1u);
        EXPECT_EQ(games.value()[0].moves.front(), "c3-d4") << text;
    }
    // Unclosed parentheses, nesting far past the limit: an error naming the line.
    std::string deep = "1. c3-d4 ";
    for (int i = 0; i < 5000; ++i) deep += "(1. a3-b4 ";
    for (const std::string& text : std::vector<std::string>{"1. c3-d4 (e5xc3 (((", deep}) {
        std::istringstream in(text + "\n");
        const auto games = readPdn(in);
        ASSERT_FALSE(games.ok()) << text;
        EXPECT_NE(games.error().find("on line 1"), std::string::npos) << games.error();
    }
}

TEST(Pdn, ABrokenGameDoesNotStopTheRest) {
    const std::string good = writePdn(toPdn(sampleRecord(), PdnHeader{}));
    std::istringstream in(good + "[Event \"no end\n\n1. c3-d4 *\n\n" + good);
    const auto entries = readPdnEntries(in);
    ASSERT_EQ(entries.size(), 3u);
    EXPECT_TRUE(entries[0].game.ok());
    EXPECT_EQ(entries[0].line, 1);
    ASSERT_FALSE(entries[1].game.ok());
    EXPECT_EQ(entries[1].line, 16);
    EXPECT_EQ(entries[1].game.error(), "malformed tag pair on line 16");
    ASSERT_TRUE(entries[2].game.ok());
    EXPECT_EQ(entries[2].game.value().moves, sampleRecord().moves);
    std::istringstream again(good + "[Event \"no end\n\n1. c3-d4 *\n\n" + good);
    EXPECT_FALSE(readPdn(again).ok());  // the strict reader stops at the first error
}

TEST(Pdn, WritesAnnotationsAndAFirstComment) {
    PdnGame g = toPdn(sampleRecord(), PdnHeader{});
    g.comment = "summary";
    g.annotations = {"?! {[%eval 0.30]}", "", " {note}"};
    const std::string text = writePdn(g);
    EXPECT_NE(text.find("{summary} 1. c3-d4?! {[%eval 0.30]} e5xc3 2. d2xb4 {note} g5-f4"),
              std::string::npos)
        << text;
    std::istringstream in(text);
    EXPECT_EQ(readPdn(in).value()[0].moves, sampleRecord().moves);
}

// A comment never changes the moves: a '}' in it would end it early and let the rest be read
// as movetext, so the writer drops it (and writes line breaks as spaces).
TEST(Pdn, ACommentNeverChangesTheMoves) {
    PdnGame g;
    g.moves = {"c3-d4"};
    g.comments = {"x} 2. c3-b4 {y"};
    g.comment = "pre} 1... e5xc3 {";
    g.variations = {PdnVariation{0, PdnLine{{"a3-b4"}, {"z} g7-f6 {"}, {}}}};
    const std::string text = writePdn(g);
    std::istringstream in(text);
    const auto back = readPdn(in);
    ASSERT_TRUE(back.ok()) << back.error();
    ASSERT_EQ(back.value().size(), 1u);
    const PdnGame& r = back.value()[0];
    EXPECT_EQ(r.moves, g.moves) << text;
    EXPECT_EQ(r.comments, (std::vector<std::string>{"x 2. c3-b4 {y"})) << text;
    EXPECT_EQ(r.comment, "pre 1... e5xc3 {") << text;
    ASSERT_EQ(r.variations.size(), 1u) << text;
    EXPECT_EQ(r.variations[0].line.moves, (std::vector<std::string>{"a3-b4"})) << text;
    g.comments = {"two\nlines}"};
    g.comment = "}";  // nothing left: no braces written
    g.variations.clear();
    const std::string again = writePdn(g);
    EXPECT_NE(again.find("1. c3-d4 {two lines}"), std::string::npos) << again;
    EXPECT_EQ(again.find("{}"), std::string::npos) << again;
}

}  // namespace
}  // namespace lasca::match
