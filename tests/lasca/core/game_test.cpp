// Game: history, repetition counting (T1), the no-progress counter (T2) and the verdict (R9).
#include "lasca/core/game.h"

#include <gtest/gtest.h>

#include "lasca/core/notation.h"
#include "lasca/test_util.h"

namespace lasca {
namespace {

// Two officers each, far apart, shuffling: positions repeat every four plies.
constexpr const char* kShuffle = "-,-,-,B/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- w 0 1";

TEST(Game, CountsOccurrencesOfThePosition) {
    Game game(test::lfen(kShuffle));
    EXPECT_EQ(game.occurrences(), 1);
    for (const char* m : {"a1-b2", "g7-f6", "b2-a1", "f6-g7"}) ASSERT_TRUE(game.playText(m).ok());
    EXPECT_EQ(game.occurrences(), 2);
    EXPECT_FALSE(game.status(DrawRules{}).over());
    for (const char* m : {"a1-b2", "g7-f6", "b2-a1"}) ASSERT_TRUE(game.playText(m).ok());
    EXPECT_EQ(game.occurrences(), 2);  // the position after the third ply, seen twice
    ASSERT_TRUE(game.playText("f6-g7").ok());
    EXPECT_EQ(game.occurrences(), 3);
    const GameStatus status = game.status(DrawRules{});
    EXPECT_EQ(status.outcome, Outcome::Draw);
    EXPECT_EQ(status.termination, Termination::Repetition);
    EXPECT_FALSE(game.status(DrawRules{false, true}).over());
}

// A move taken back leaves the game as if it had never been played: position, keys, counts.
TEST(Game, TakeBackUndoesTheLastMove) {
    Game game(test::lfen(kShuffle));
    EXPECT_FALSE(game.takeBack());
    for (const char* m : {"a1-b2", "g7-f6", "b2-a1", "f6-g7", "a1-b2"})
        ASSERT_TRUE(game.playText(m).ok());
    Game before(test::lfen(kShuffle));
    for (const char* m : {"a1-b2", "g7-f6", "b2-a1", "f6-g7"}) ASSERT_TRUE(before.playText(m).ok());
    const auto last = game.takeBack();
    ASSERT_TRUE(last);
    EXPECT_EQ(formatMove(*last), "a1-b2");
    EXPECT_EQ(game.current(), before.current());
    EXPECT_EQ(game.moves(), before.moves());
    EXPECT_EQ(game.keys(), before.keys());
    EXPECT_EQ(game.occurrences(), 2);
    EXPECT_EQ(game.start(), before.start());
}

TEST(Game, RepetitionLooksBackOnlyToTheLastIrreversibleMove) {
    // The key history is only searched back quietPlies plies: a soldier move in between
    // makes earlier positions unreachable, and the counter says so.
    Game game(test::lfen("-,-,-,B/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,w,-,- w 0 1"));
    for (const char* m : {"a1-b2", "g7-f6", "b2-a1", "f6-g7"}) ASSERT_TRUE(game.playText(m).ok());
    EXPECT_EQ(game.occurrences(), 2);
    ASSERT_TRUE(game.playText("c1-d2").ok());
    EXPECT_EQ(game.current().quietPlies(), 0);
    ASSERT_TRUE(game.playText("g7-f6").ok());
    EXPECT_EQ(game.occurrences(), 1);
}

// What a search of the current position takes: the keys it can repeat, oldest first.
TEST(Game, RepetitionHistoryStartsAtTheLastIrreversibleMove) {
    Game game(test::lfen(kShuffle));
    EXPECT_TRUE(game.repetitionHistory().empty());
    for (const char* m : {"a1-b2", "g7-f6", "b2-a1"}) ASSERT_TRUE(game.playText(m).ok());
    const std::vector<Key> history(game.keys().begin(), game.keys().end() - 1);
    EXPECT_EQ(game.repetitionHistory(), history);
    Game fromStart;
    ASSERT_TRUE(fromStart.playText("c3-d4").ok());  // a soldier move: nothing before repeats
    EXPECT_TRUE(fromStart.repetitionHistory().empty());
}

TEST(Game, RejectsIllegalMoveAndKeepsState) {
    Game game;
    const Position before = game.current();
    const auto result = game.playText("c3-c4");
    EXPECT_FALSE(result.ok());
    EXPECT_EQ(game.current(), before);
    EXPECT_TRUE(game.moves().empty());
    EXPECT_EQ(game.keys().size(), 1u);
}

TEST(Game, KeysFollowEveryMove) {
    Game game;
    for (const char* m : {"c3-d4", "e5xc3", "d2xb4"}) ASSERT_TRUE(game.playText(m).ok());
    ASSERT_EQ(game.keys().size(), 4u);
    EXPECT_EQ(game.keys().back(), game.current().key());
    EXPECT_EQ(game.keys().front(), Position::startPosition().key());
    EXPECT_EQ(game.current().moveNumber(), 2);
}

TEST(Game, NamesOfOutcomes) {
    EXPECT_STREQ(outcomeName(Outcome::WhiteWins), "white wins");
    EXPECT_STREQ(terminationName(Termination::NoProgress), "no progress");
}

}  // namespace
}  // namespace lasca
