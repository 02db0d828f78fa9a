// The reader of the engine's reply lines (lasca/engine/replies.h).
#include "lasca/engine/replies.h"

#include <gtest/gtest.h>

namespace lasca::engine {
namespace {

TEST(Replies, InfoLineGivesEveryField) {
    const auto info = parseInfo(
        "info depth 7 seldepth 11 multipv 2 score cp -35 nodes 5000 nps 90000 time 55 hashfull 3 "
        "pv c3-d4 e5xc3 d2xb4");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->depth, 7);
    EXPECT_EQ(info->selDepth, 11);
    EXPECT_EQ(info->multiPv, 2);
    EXPECT_FALSE(info->mate);
    EXPECT_EQ(info->score, -35);
    EXPECT_EQ(info->bound, ScoreBound::Exact);
    EXPECT_FALSE(info->bounded());
    EXPECT_EQ(info->nodes, 5000);
    EXPECT_EQ(info->nps, 90000);
    EXPECT_EQ(info->timeMs, 55);
    EXPECT_EQ(info->hashfull, 3);
    EXPECT_EQ(info->pv, (std::vector<std::string>{"c3-d4", "e5xc3", "d2xb4"}));
}

TEST(Replies, InfoLineMateAndBounds) {
    const auto mate = parseInfo("info depth 9 score mate -3 pv a3-b4");
    ASSERT_TRUE(mate);
    EXPECT_TRUE(mate->mate);
    EXPECT_EQ(mate->score, -3);
    EXPECT_EQ(mate->multiPv, 1);
    EXPECT_EQ(mate->nodes, 0);
    const auto lower = parseInfo("info depth 9 score cp 50 lowerbound nodes 10 pv a3-b4");
    ASSERT_TRUE(lower);
    EXPECT_EQ(lower->bound, ScoreBound::Lower);
    EXPECT_TRUE(lower->bounded());
    EXPECT_EQ(lower->nodes, 10);
    const auto upper = parseInfo("info\tdepth 9  score cp 50 upperbound pv a3-b4");
    ASSERT_TRUE(upper);
    EXPECT_EQ(upper->bound, ScoreBound::Upper);
}

TEST(Replies, InfoLinesThatSayNothingGiveNothing) {
    EXPECT_FALSE(parseInfo("info string gameover"));
    EXPECT_FALSE(parseInfo("info string error: unknown command 'x'"));
    EXPECT_FALSE(parseInfo("info"));
    EXPECT_FALSE(parseInfo("bestmove c3-d4"));
    EXPECT_FALSE(parseInfo("info depth 3 nodes 10"));               // no score
    EXPECT_FALSE(parseInfo("info depth 3 score cp 10 pv"));         // an empty pv
    EXPECT_FALSE(parseInfo("info depth 3 score cp 10"));            // no pv
    EXPECT_FALSE(parseInfo("info depth x score cp 10 pv c3-d4"));   // not a number
    EXPECT_FALSE(parseInfo("info depth 3 score cp ten pv c3-d4"));  // not a number
    EXPECT_FALSE(parseInfo("info depth 3 score cp pv c3-d4"));      // no number
    EXPECT_FALSE(parseInfo("info depth 3 currmove c3-d4 score cp 1 pv c3-d4"));
    EXPECT_FALSE(parseInfo("info depth 3 score"));
}

TEST(Replies, BestMoveWithAndWithoutPonder) {
    const auto plain = parseBestMove("bestmove c3-d4");
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->move, "c3-d4");
    EXPECT_EQ(plain->ponder, "");
    const auto ponder = parseBestMove("bestmove d2xb4xd6 ponder e5-f4");
    ASSERT_TRUE(ponder);
    EXPECT_EQ(ponder->move, "d2xb4xd6");
    EXPECT_EQ(ponder->ponder, "e5-f4");
    const auto none = parseBestMove("bestmove 0000");
    ASSERT_TRUE(none);
    EXPECT_EQ(none->move, "0000");
    const auto garbled = parseBestMove("bestmove ");
    ASSERT_TRUE(garbled);
    EXPECT_EQ(garbled->move, "");
    EXPECT_EQ(parseBestMove("bestmove c3-d4 ponder")->ponder, "");
    EXPECT_FALSE(parseBestMove("info depth 1 score cp 0 pv c3-d4"));
    EXPECT_FALSE(parseBestMove("bestmoves c3-d4"));
    EXPECT_FALSE(parseBestMove(""));
}

TEST(Replies, OptionLinesOfTheListing) {
    const auto spin = parseOption("option name Hash type spin default 16 min 1 max 4096");
    ASSERT_TRUE(spin);
    EXPECT_EQ(spin->name, "Hash");
    EXPECT_TRUE(spin->spin);
    EXPECT_EQ(spin->min, 1);
    EXPECT_EQ(spin->max, 4096);
    const auto text = parseOption("option name Debug Log File type string default <empty>");
    ASSERT_TRUE(text);
    EXPECT_EQ(text->name, "Debug Log File");
    EXPECT_FALSE(text->spin);
    EXPECT_FALSE(parseOption("option name Hash"));
    EXPECT_FALSE(parseOption("id name lasca"));
}

// The fields a line gave, in order, each once (the Python client's info dict has these keys);
// a field the reader does not hold is not among them.
TEST(Replies, InfoLineNamesTheFieldsItGave) {
    const auto full = parseInfo(
        "info depth 7 seldepth 11 multipv 2 score cp -35 nodes 5000 nps 90000 time 55 hashfull 3 "
        "pv c3-d4");
    ASSERT_TRUE(full);
    EXPECT_EQ(full->fields, (std::vector<std::string>{"depth", "seldepth", "multipv", "score",
                                                      "nodes", "nps", "time", "hashfull"}));
    const auto some = parseInfo("info score mate 2 tbhits 0 depth 3 depth 4 pv c3-d4");
    ASSERT_TRUE(some);
    EXPECT_EQ(some->fields, (std::vector<std::string>{"score", "depth"}));
    EXPECT_EQ(some->depth, 4);
}

// `id name|author <text>`: the text as written, inner and trailing blanks kept.
TEST(Replies, IdLines) {
    struct Case {
        const char* line;
        const char* field;
        const char* value;
    };
    for (const Case& c :
         {Case{"id name Lasca 0.1.0  (test) ", "name", "Lasca 0.1.0  (test) "},
          Case{"id author the lasca developers", "author", "the lasca developers"}}) {
        const auto id = parseId(c.line);
        ASSERT_TRUE(id) << c.line;
        EXPECT_EQ(id->field, c.field);
        EXPECT_EQ(id->value, c.value);
    }
    for (const char* other : {"id name", "id version 1", "option name Hash type spin"})
        EXPECT_FALSE(parseId(other)) << other;
}

TEST(Replies, InfoStringLinesGiveTheirText) {
    EXPECT_EQ(parseInfoString("info string table White wins in 5 plies"),
              std::optional<std::string>("table White wins in 5 plies"));
    EXPECT_EQ(parseInfoString("info string"), std::optional<std::string>(""));
    for (const char* other : {"info depth 3 score cp 5 pv c3-d4", "info strings x", "bestmove a",
                              "", "info", " info string x"})
        EXPECT_FALSE(parseInfoString(other)) << other;
}

}  // namespace
}  // namespace lasca::engine
