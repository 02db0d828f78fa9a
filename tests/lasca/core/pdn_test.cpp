// The PDN reader and writer: games end at their results, the writer writes the Seven Tag Roster,
// bad movetext is an error naming its line, and inputs the fuzzer (tests/lasca/fuzz/pdn_fuzz.cpp)
// found them mishandling: each is read as it is meant, and a game read, written and read again
// is the same game.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "lasca/core/pdn.h"

namespace lasca {
namespace {

PdnGame readOne(const std::string& text) {
    std::istringstream in(text);
    auto games = readPdn(in);
    EXPECT_TRUE(games) << games.error();
    if (!games || games.value().size() != 1) {
        ADD_FAILURE() << "expected one game";
        return {};
    }
    return games.value()[0];
}

std::vector<PdnEntry> entriesOf(const std::string& text) {
    std::istringstream in(text);
    return readPdnEntries(in);
}

// The error of a text holding one broken game ("" when it reads).
std::string errorOf(const std::string& text) {
    const auto entries = entriesOf(text);
    if (entries.size() != 1) {
        ADD_FAILURE() << "expected one game, got " << entries.size();
        return "";
    }
    return entries[0].game ? "" : entries[0].game.error();
}

// writePdn, then read again: the tags as written (exportTags), the same moves, comments, glyphs
// and result.
void expectRoundTrip(const PdnGame& game) {
    const PdnGame again = readOne(writePdn(game));
    EXPECT_EQ(again.tags, exportTags(game));
    EXPECT_EQ(again.moves, game.moves);
    EXPECT_EQ(again.comments, game.comments);
    EXPECT_EQ(again.nags, game.nags);
    EXPECT_EQ(again.result, game.result);
    EXPECT_EQ(again.variations.size(), game.variations.size());
}

// Fuzz finding (2026-12-06): "*?!" was read as a move "*" (with glyph ?!), which is written
// back as the result "*": a result with marks is the result.
TEST(PdnFuzzFindings, AResultWithMarksIsTheResult) {
    const PdnGame game =
        readOne("%escape\n&[Bad tag\ng.n3-d4 {uncloDsed\n[not a dag]} e2-f4 *?! )\n");
    EXPECT_EQ(game.moves, (std::vector<std::string>{"&[Bad", "tag", "n3-d4", "e2-f4"}));
    EXPECT_EQ(game.result, "*");
    expectRoundTrip(game);
}

// The same for a word glued to its move number: "1.2-0" is the number and the result, "1.$3" the
// number and a glyph, "1.!?" the number and a mark, as each is written back.
TEST(PdnFuzzFindings, AWordAfterAMoveNumberIsReadOnItsOwn) {
    const PdnGame game = readOne("1.c3-d4 1...$3 1...!? 2.2-0\n");
    EXPECT_EQ(game.moves, (std::vector<std::string>{"c3-d4"}));
    EXPECT_EQ(game.nags, (std::vector<Nags>{{3, 5}}));
    EXPECT_EQ(game.result, "2-0");
    expectRoundTrip(game);
}

// Fuzz finding (2026-12-06): a carriage return inside a tag line ("[Event \"match\"]\r[Site...")
// was kept in the value and written back as a space, so the game read back was another: it is
// read as a space.
TEST(PdnFuzzFindings, ACarriageReturnInATagValueIsASpace) {
    const PdnGame game =
        readOne("[Event \"match\"]\r[Site(\"here\"]\n[Round \"1\"]\n\n1. c3-d4 *\n");
    ASSERT_EQ(game.tags.size(), 2u);
    EXPECT_EQ(game.tags[0].first, "Event");
    EXPECT_EQ(game.tags[0].second, "match\"] [Site(\"here");
    expectRoundTrip(game);
}

// Two games without tags, written one after the other, read back as two games (the reader took
// the second game's moves as the first's: a game ends at its result).
TEST(PdnGames, TwoGamesWrittenReadBackAsTwo) {
    PdnGame game;
    game.moves = {"c3-d4"};
    const auto entries = entriesOf(writePdn(game) + writePdn(game));
    ASSERT_EQ(entries.size(), 2u);
    for (const PdnEntry& entry : entries) {
        ASSERT_TRUE(entry.game) << entry.game.error();
        EXPECT_EQ(entry.game.value().moves, game.moves);
        EXPECT_EQ(entry.game.value().result, "*");
    }
    EXPECT_EQ(entries[1].line, 11);
}

// PGN's and PDN's export form: a game ends at its result, and the next word begins the next
// game, on the same line or a later one; comments after the result are still the game's.
TEST(PdnGames, AGameEndsAtItsResult) {
    const auto entries = entriesOf(
        "1. c3-d4 e5xc3 * {the end} 1. a3-b4 2-0\n\n"
        "1. e3-f4 (1. c3-b4 *) 0-2\n"
        "1. c3-d4 1-1 ) }\n");
    ASSERT_EQ(entries.size(), 4u);
    std::vector<std::vector<std::string>> moves;
    std::vector<std::string> results;
    for (const PdnEntry& entry : entries) {
        ASSERT_TRUE(entry.game) << entry.game.error();
        moves.push_back(entry.game.value().moves);
        results.push_back(entry.game.value().result);
    }
    EXPECT_EQ(moves, (std::vector<std::vector<std::string>>{
                         {"c3-d4", "e5xc3"}, {"a3-b4"}, {"e3-f4"}, {"c3-d4"}}));
    EXPECT_EQ(results, (std::vector<std::string>{"*", "2-0", "0-2", "1-1"}));
    EXPECT_EQ(entries[0].game.value().comments, (std::vector<std::string>{"", "the end"}));
    EXPECT_EQ(entries[2].game.value().variations.size(), 1u);  // its "*" ends no game
    EXPECT_EQ(
        (std::vector<int>{entries[0].line, entries[1].line, entries[2].line, entries[3].line}),
        (std::vector<int>{1, 1, 3, 4}));
}

// The Seven Tag Roster first, in its order, with PGN's defaults; the other tags after it.
TEST(PdnGames, WritesTheSevenTagRoster) {
    PdnGame game;
    game.moves = {"c3-d4"};
    game.result = "2-0";
    EXPECT_EQ(writePdn(game),
              "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
              "[White \"?\"]\n[Black \"?\"]\n[Result \"2-0\"]\n\n1. c3-d4 2-0\n\n");
    game.tags = {{"Opening", "R7"}, {"White", "Anna"}, {"Event", "club"}, {"Event", "again"}};
    EXPECT_EQ(exportTags(game),
              (std::vector<std::pair<std::string, std::string>>{{"Event", "club"},
                                                                {"Site", "?"},
                                                                {"Date", "????.??.??"},
                                                                {"Round", "?"},
                                                                {"White", "Anna"},
                                                                {"Black", "?"},
                                                                {"Result", "2-0"},
                                                                {"Opening", "R7"},
                                                                {"Event", "again"}}));
    expectRoundTrip(game);
    const PdnGame again = readOne(writePdn(game));
    EXPECT_EQ(writePdn(again), writePdn(game));
}

// Bad movetext is an error naming its line, as a malformed tag pair is; the reader goes on with
// the next game.
TEST(PdnErrors, BadMovetextIsAnErrorNamingItsLine) {
    std::string deep = "1. c3-d4";
    for (int i = 0; i < kMaxPdnVariationDepth; ++i) deep += " (1. a3-b4";
    deep += "\n (1. e3-f4";
    for (int i = 0; i <= kMaxPdnVariationDepth; ++i) deep += ")";
    EXPECT_EQ(errorOf("[Event \"x\"]\n\n" + deep + " *\n"),
              "variation nested deeper than 32 levels on line 4");
    EXPECT_EQ(errorOf("1. c3-d4\n$999 *\n"), "glyph '$999' is not $0..$255 on line 2");
    EXPECT_EQ(errorOf("1. c3-d4 $x *\n"), "glyph '$x' is not $0..$255 on line 1");
    EXPECT_EQ(errorOf("1. c3-d4 {a\ncomment} e5xc3\n(1... b6-a5 *\n"), "unclosed '(' on line 3");
    EXPECT_EQ(errorOf("(1. c3-d4\n"), "unclosed '(' on line 1");
    EXPECT_EQ(errorOf(std::string("\0", 1)), "control character 0x00 on line 1");
    EXPECT_EQ(errorOf("1. c3-d4 {\x1b[31m} *"), "control character 0x1b on line 1");
    EXPECT_EQ(errorOf(std::string("[Event \"") + '\0' + "\"]\n\n1. c3-d4 *\n"),
              "control character 0x00 on line 1");
    // A variation nested exactly as deep as allowed reads.
    std::string deepest = "1. c3-d4";
    for (int i = 0; i < kMaxPdnVariationDepth; ++i) deepest += " (1. a3-b4";
    for (int i = 0; i < kMaxPdnVariationDepth; ++i) deepest += ")";
    EXPECT_EQ(errorOf(deepest + " *"), "");
    // 100,000 unclosed '(' and the games after them.
    const auto entries =
        entriesOf("1. c3-d4 " + std::string(100000, '(') +
                  "\n\n[Event \"next\"]\n\n1. c3-d4 *\n1. e3-f4\n%escaped\n$1000 *\n");
    ASSERT_EQ(entries.size(), 3u);
    ASSERT_FALSE(entries[0].game);
    EXPECT_EQ(entries[0].game.error(), "unclosed '(' on line 1");
    EXPECT_TRUE(entries[1].game);
    ASSERT_FALSE(entries[2].game);
    EXPECT_EQ(entries[2].game.error(), "glyph '$1000' is not $0..$255 on line 8");
    std::istringstream strict("1. c3-d4 $256 *\n");
    EXPECT_FALSE(readPdn(strict));
}

// A game as PDN and back: the FEN tag only for another start, the result by the rules; a move
// that is not legal, or that follows the end (R9), is named with its number and text.
TEST(PdnReplay, GameOfPdnAndBack) {
    Game game;
    ASSERT_TRUE(game.playText("c3-d4").ok());
    ASSERT_TRUE(game.playText("e5xc3").ok());
    PdnGame pdn = pdnOfGame(game, DrawRules{}, {{"Event", "x"}});
    EXPECT_EQ(pdn.tags, (std::vector<std::pair<std::string, std::string>>{{"Event", "x"}}));
    EXPECT_EQ(pdn.moves, (std::vector<std::string>{"c3-d4", "e5xc3"}));
    EXPECT_EQ(pdn.result, "*");
    const auto back = gameOfPdn(pdn, DrawRules{});
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back.value().moves(), game.moves());
    pdn.moves.push_back("a1-b2");
    EXPECT_EQ(gameOfPdn(pdn, DrawRules{}).error().rfind("move 3 'a1-b2': ", 0), 0u);
    EXPECT_EQ(replayPdn(pdn, DrawRules{}).error().rfind("ply 3: ", 0), 0u);

    const std::string noWhite = "b,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,- w 0 1";
    const Game over(Position::fromLfen(noWhite).value());
    PdnGame lost = pdnOfGame(over, DrawRules{}, {});
    EXPECT_EQ(lost.tags, (std::vector<std::pair<std::string, std::string>>{{"FEN", noWhite}}));
    EXPECT_EQ(lost.result, "0-2");
    lost.moves = {"c3-d4"};
    EXPECT_EQ(gameOfPdn(lost, DrawRules{}).error(), "move 1 'c3-d4': played after the game ended");
    EXPECT_EQ(replayPdn(lost, DrawRules{}).error(), "move 1 played after the game ended");
}

}  // namespace
}  // namespace lasca
