// The tree of a game's lines on the analysis board ("Variations"): adding, following,
// promoting and removing lines, and the same tree through PDN and JSON.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"

#include "web/lasca_tables/move_tree.h"

namespace web::lasca_tables {
namespace {

const MoveLine kMain{"a3-b4", "c5xa3", "c3-d4"};
const MoveLine kOther{"g3-f4", "e5xg3"};           // replaces a3-b4
const MoveLine kLast{"a3-b4", "c5xa3", "e3-f4"};   // replaces c3-d4

// The main line a3-b4 c5xa3 c3-d4, a variation g3-f4 e5xg3 replacing its first move, and e3-f4
// replacing its last.
MoveTree sampleTree() {
    MoveTree tree;
    EXPECT_TRUE(tree.add(kMain));
    EXPECT_TRUE(tree.add(kOther));
    EXPECT_TRUE(tree.add(kLast));
    return tree;
}

TEST(MoveTree, AddsLinesAsVariationsAndFollowsMainContinuations) {
    const MoveTree tree = sampleTree();
    EXPECT_EQ(tree.size(), 6u);
    EXPECT_EQ(tree.mainLine(), kMain);
    EXPECT_EQ(tree.continuation({"g3-f4"}), kOther);
    EXPECT_EQ(tree.continuation({"a3-b4"}), kMain);
    EXPECT_TRUE(tree.contains(kLast));
    EXPECT_FALSE(tree.contains({"a3-b4", "q"}));
    EXPECT_EQ(tree.leaves(), (std::vector<MoveLine>{kMain, kLast, kOther}));
    MoveTree again = sampleTree();
    EXPECT_TRUE(again.add({"g3-f4"}));  // already there: nothing new, nothing made
    EXPECT_EQ(again.size(), 6u);
    EXPECT_EQ(again.positionsMade(), 6u);
}

// Each node holds its position and the rules' verdict, made once when its move enters the tree:
// the same as the rules core's Game replaying the line, over whole random games.
TEST(MoveTree, EveryNodeHoldsThePositionAndVerdictOfItsLine) {
    std::mt19937_64 rng(20261206);
    int ended = 0;
    for (int g = 0; g < 40; ++g) {
        lasca::Game game;
        MoveLine line;
        MoveTree tree;
        while (!game.status(lasca::DrawRules{}).over() && line.size() < 300) {
            lasca::MoveList list;
            lasca::generateMoves(game.current(), list);
            const lasca::Move m = list[static_cast<std::size_t>(rng() % list.size())];
            game.play(m);
            line.push_back(lasca::formatMove(m));
        }
        ended += game.status(lasca::DrawRules{}).over();
        const auto added = tree.add(line);
        ASSERT_TRUE(added) << added.error();
        EXPECT_EQ(tree.positionsMade(), line.size()) << "one make per move";
        const MovePath path = tree.path(line);
        ASSERT_EQ(path.size(), line.size() + 1);
        lasca::Game replay;
        for (std::size_t i = 0; i <= line.size(); ++i) {
            EXPECT_EQ(path[i]->position.toLfen(), replay.current().toLfen());
            EXPECT_EQ(path[i]->position.key(), replay.current().key());
            const auto status = replay.status(lasca::DrawRules{});
            EXPECT_EQ(path[i]->status.outcome, status.outcome) << "game " << g << " ply " << i;
            EXPECT_EQ(path[i]->status.termination, status.termination);
            if (i < line.size()) {
                EXPECT_EQ(lasca::formatMove(path[i + 1]->played), line[i]);
                replay.playText(line[i]);
            }
        }
    }
    EXPECT_GT(ended, 30) << "most random games end by the rules within 300 plies";
}

TEST(MoveTree, RefusesAnIllegalMoveAndAMoveAfterTheEndAddingNothing) {
    MoveTree tree = sampleTree();
    const auto leaves = tree.leaves();
    const auto bad = tree.add({"g3-f4", "e5xg3", "a3-b4", "c3-d4"});  // White moves twice
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().find("move 'c3-d4'"), std::string::npos) << bad.error();
    EXPECT_EQ(tree.leaves(), leaves) << "the legal moves before it were taken out again";
    EXPECT_EQ(tree.size(), 6u);
    // A game White has lost (no white piece left): nothing follows its start.
    const auto lost = lasca::Position::fromLfen("b,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,- w 0 1");
    ASSERT_TRUE(lost) << lost.error();
    MoveTree over(lost.value());
    EXPECT_TRUE(over.root().status.over());
    const auto after = over.add({"a7-b6"});
    ASSERT_FALSE(after);
    EXPECT_NE(after.error().find("comes after the end of the game"), std::string::npos);
    // Another notation of a move already there finds it; a new move is kept as formatMove writes
    // it.
    MoveTree written;
    const auto line = written.add({"a3b4", "c5a3"});
    ASSERT_TRUE(line) << line.error();
    EXPECT_EQ(line.value(), (MoveLine{"a3-b4", "c5xa3"}));
    EXPECT_TRUE(written.add({"a3-b4", "c5xa3"}));
    EXPECT_EQ(written.size(), 2u) << "the same moves";
}

TEST(MoveTree, PromotesOneStepAndMakesAMainLine) {
    MoveTree tree = sampleTree();
    EXPECT_FALSE(tree.promote({"a3-b4"})) << "already first";
    EXPECT_FALSE(tree.promote({"q"})) << "not in the tree";
    EXPECT_TRUE(tree.promote({"g3-f4"}));
    EXPECT_EQ(tree.mainLine(), kOther);
    EXPECT_TRUE(tree.makeMain(kLast));
    EXPECT_EQ(tree.mainLine(), kLast);
    EXPECT_EQ(tree.size(), 6u);
    EXPECT_EQ(tree.path(kLast).back()->position.toLfen(), sampleTree().path(kLast).back()->position.toLfen());
}

TEST(MoveTree, RemovesAMoveAndWhatFollows) {
    MoveTree tree = sampleTree();
    EXPECT_FALSE(tree.remove({})) << "the start position stays";
    EXPECT_FALSE(tree.remove({"q"}));
    EXPECT_TRUE(tree.remove({"a3-b4"}));
    EXPECT_EQ(tree.size(), 2u);
    EXPECT_EQ(tree.mainLine(), kOther) << "the alternative takes its place";
}

TEST(MoveTree, ThroughPdnAndJsonUnchanged) {
    MoveTree tree = sampleTree();
    tree.setComment({"g3-f4"}, "a try");
    lasca::PdnGame pdn;
    pdn.moves = tree.mainLine();
    tree.toPdn(pdn);
    ASSERT_EQ(pdn.variations.size(), 2u);
    EXPECT_EQ(pdn.variations[0].at, 0u);
    EXPECT_EQ(pdn.variations[0].line.moves, kOther);
    EXPECT_EQ(pdn.variations[0].line.comments, (std::vector<std::string>{"a try"}));
    EXPECT_EQ(pdn.variations[1].at, 2u);
    const auto back = MoveTree::fromPdn(lasca::Position::startPosition(), pdn);
    ASSERT_TRUE(back) << back.error();
    EXPECT_EQ(back.value().leaves(), tree.leaves());
    EXPECT_EQ(back.value().toJson(), tree.toJson());
    const auto fromJson = MoveTree::fromJson(lasca::Position::startPosition(), tree.toJson());
    ASSERT_TRUE(fromJson) << fromJson.error();
    EXPECT_EQ(fromJson.value().toJson(), tree.toJson());
    EXPECT_EQ(fromJson.value().size(), tree.size());
    EXPECT_EQ(fromJson.value().positionsMade(), tree.size());
}

// The page's comments go to PDN through the core's writer: a comment with a '}' in it keeps
// the tree's moves as they are when the PDN is read back.
TEST(MoveTree, ACommentNeverChangesThePdnMoves) {
    MoveTree tree = sampleTree();
    tree.setComment({"a3-b4"}, "x} 2. c3-b4 {y");
    tree.setComment({"g3-f4"}, "} a3-b4 {");
    lasca::PdnGame pdn;
    pdn.moves = tree.mainLine();
    tree.toPdn(pdn);
    std::istringstream in(lasca::writePdn(pdn));
    const auto back = lasca::readPdn(in);
    ASSERT_TRUE(back.ok()) << back.error();
    ASSERT_EQ(back.value().size(), 1u);
    const auto read = MoveTree::fromPdn(lasca::Position::startPosition(), back.value()[0]);
    ASSERT_TRUE(read) << read.error();
    EXPECT_EQ(read.value().leaves(), tree.leaves());
    EXPECT_EQ(read.value().size(), tree.size());
}

TEST(MoveTree, RefusesJsonOfAnotherShapeOrWithAnIllegalMove) {
    for (const char* text : {"[]", "{}", R"({"moves":[1]})",
                             R"({"moves":["a3-b4"],"variations":[{"at":5,"line":{"moves":["g3-f4"]}}]})",
                             R"({"moves":["a3-b4"],"variations":[{"at":-1,"line":{"moves":["g3-f4"]}}]})",
                             R"({"moves":["a3-b4"],"comments":"x"})",
                             R"({"moves":["a3-b4","c3-d4"]})",
                             R"({"moves":["a3-b4"],"variations":[{"at":0,"line":{"moves":["b4-c5"]}}]})"}) {
        EXPECT_FALSE(MoveTree::fromJson(lasca::Position::startPosition(), nlohmann::json::parse(text)))
            << text;
    }
}

}  // namespace
}  // namespace web::lasca_tables
