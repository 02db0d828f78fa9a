// The PDN reader on inputs the fuzzer (tests/lasca/fuzz/pdn_fuzz.cpp) found it mishandling:
// each is read as it is meant, and a game read, written and read again is the same game.
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

// writePdn, then read again: the same tags, moves, comments, glyphs and result.
void expectRoundTrip(const PdnGame& game) {
    const PdnGame again = readOne(writePdn(game));
    EXPECT_EQ(again.tags, game.tags);
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

}  // namespace
}  // namespace lasca
