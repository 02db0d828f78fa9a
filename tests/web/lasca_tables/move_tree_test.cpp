// The tree of a game's lines on the analysis board ("Variations"): adding, following,
// promoting and removing lines, and the same tree through PDN and JSON.
#include <gtest/gtest.h>

#include <sstream>

#include "web/lasca_tables/move_tree.h"

namespace web::lasca_tables {
namespace {

// The main line a b c, a variation x y replacing b, and z replacing c.
MoveTree sampleTree() {
    MoveTree tree({"a", "b", "c"});
    tree.add({"a", "x", "y"});
    tree.add({"a", "b", "z"});
    return tree;
}

TEST(MoveTree, AddsLinesAsVariationsAndFollowsMainContinuations) {
    const MoveTree tree = sampleTree();
    EXPECT_EQ(tree.size(), 6u);
    EXPECT_EQ(tree.mainLine(), (MoveLine{"a", "b", "c"}));
    EXPECT_EQ(tree.continuation({"a", "x"}), (MoveLine{"a", "x", "y"}));
    EXPECT_EQ(tree.continuation({"a"}), (MoveLine{"a", "b", "c"}));
    EXPECT_TRUE(tree.contains({"a", "b", "z"}));
    EXPECT_FALSE(tree.contains({"a", "q"}));
    EXPECT_EQ(tree.leaves(),
              (std::vector<MoveLine>{{"a", "b", "c"}, {"a", "b", "z"}, {"a", "x", "y"}}));
    MoveTree again = tree;
    again.add({"a", "x"});  // already there: nothing new
    EXPECT_EQ(again.size(), 6u);
}

TEST(MoveTree, PromotesOneStepAndMakesAMainLine) {
    MoveTree tree = sampleTree();
    EXPECT_FALSE(tree.promote({"a", "b"})) << "already first";
    EXPECT_FALSE(tree.promote({"a", "q"})) << "not in the tree";
    EXPECT_TRUE(tree.promote({"a", "x"}));
    EXPECT_EQ(tree.mainLine(), (MoveLine{"a", "x", "y"}));
    EXPECT_TRUE(tree.makeMain({"a", "b", "z"}));
    EXPECT_EQ(tree.mainLine(), (MoveLine{"a", "b", "z"}));
    EXPECT_EQ(tree.size(), 6u);
}

TEST(MoveTree, RemovesAMoveAndWhatFollows) {
    MoveTree tree = sampleTree();
    EXPECT_FALSE(tree.remove({})) << "the start position stays";
    EXPECT_FALSE(tree.remove({"q"}));
    EXPECT_TRUE(tree.remove({"a", "b"}));
    EXPECT_EQ(tree.size(), 3u);
    EXPECT_EQ(tree.mainLine(), (MoveLine{"a", "x", "y"})) << "the alternative takes its place";
}

TEST(MoveTree, ThroughPdnAndJsonUnchanged) {
    MoveTree tree = sampleTree();
    tree.setComment({"a", "x"}, "a try");
    lasca::PdnGame pdn;
    pdn.moves = tree.mainLine();
    tree.toPdn(pdn);
    ASSERT_EQ(pdn.variations.size(), 2u);
    EXPECT_EQ(pdn.variations[0].at, 1u);
    EXPECT_EQ(pdn.variations[0].line.moves, (MoveLine{"x", "y"}));
    EXPECT_EQ(pdn.variations[0].line.comments, (std::vector<std::string>{"a try"}));
    EXPECT_EQ(pdn.variations[1].at, 2u);
    const MoveTree back = MoveTree::fromPdn(pdn);
    EXPECT_EQ(back.leaves(), tree.leaves());
    EXPECT_EQ(back.toJson(), tree.toJson());
    MoveTree fromJson;
    ASSERT_TRUE(MoveTree::fromJson(tree.toJson(), fromJson));
    EXPECT_EQ(fromJson.toJson(), tree.toJson());
    EXPECT_EQ(fromJson.size(), tree.size());
}

// The page's comments go to PDN through the core's writer: a comment with a '}' in it keeps
// the tree's moves as they are when the PDN is read back.
TEST(MoveTree, ACommentNeverChangesThePdnMoves) {
    MoveTree tree({"c3-d4", "e5xc3"});
    tree.add({"c3-d4", "g5-h4"});
    tree.setComment({"c3-d4"}, "x} 2. c3-b4 {y");
    tree.setComment({"c3-d4", "g5-h4"}, "} a3-b4 {");
    lasca::PdnGame pdn;
    pdn.moves = tree.mainLine();
    tree.toPdn(pdn);
    std::istringstream in(lasca::writePdn(pdn));
    const auto back = lasca::readPdn(in);
    ASSERT_TRUE(back.ok()) << back.error();
    ASSERT_EQ(back.value().size(), 1u);
    const MoveTree read = MoveTree::fromPdn(back.value()[0]);
    EXPECT_EQ(read.leaves(), tree.leaves());
    EXPECT_EQ(read.size(), tree.size());
}

TEST(MoveTree, RefusesJsonOfAnotherShape) {
    MoveTree tree = sampleTree();
    const MoveTree before = tree;
    for (const char* text : {"[]", "{}", R"({"moves":[1]})",
                             R"({"moves":["a"],"variations":[{"at":5,"line":{"moves":["b"]}}]})",
                             R"({"moves":["a"],"variations":[{"at":-1,"line":{"moves":["b"]}}]})",
                             R"({"moves":["a"],"comments":"x"})"}) {
        EXPECT_FALSE(MoveTree::fromJson(nlohmann::json::parse(text), tree)) << text;
        EXPECT_EQ(tree.toJson(), before.toJson()) << "unchanged after " << text;
    }
}

}  // namespace
}  // namespace web::lasca_tables
