// A Lasca table for two people (include/web/lasca_tables/duel.h), on a virtual clock: only the side
// to move moves (never a watcher), the clock runs for the side to move from the first move with its
// increment, a flag falls exactly when the time is gone, resignation and draw by agreement end
// the game, the rules end it too, and a kept duel comes back the same (time not charged while
// the server was down). Tokens: three, 128-bit, kept only as hashes.
#include "web/lasca_tables/duel.h"

#include <gtest/gtest.h>

#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"

namespace web::lasca_tables {

using store::StoredDuel;

namespace {

using lasca::Color;

// A move, resignation or draw offer done: nothing to tell the person.
bool done(const std::optional<messages::Say>& refusal) {
    return !refusal;
}

// The first legal move of the duel's position, as text.
std::string anyMove(const LascaDuel& duel) {
    lasca::MoveList list;
    lasca::generateMoves(duel.game().current(), list);
    return lasca::formatMove(list[0]);
}

TEST(Duel, OnlyTheSideToMoveMovesAndTheTokensNameTheSeats) {
    auto duel = LascaDuel::create("d1", std::nullopt, 0).value();
    const auto tokens = duel.takeTokens();
    ASSERT_EQ(tokens.size(), 3u);
    EXPECT_TRUE(duel.takeTokens().empty());
    EXPECT_EQ(tokens[0].size(), 32u);
    EXPECT_EQ(duel.seatOfToken(tokens[0]), DuelSeat::White);
    EXPECT_EQ(duel.seatOfToken(tokens[1]), DuelSeat::Black);
    EXPECT_EQ(duel.seatOfToken(tokens[2]), DuelSeat::Watch);
    EXPECT_FALSE(duel.seatOfToken(tokens[0] + "0"));
    EXPECT_FALSE(duel.seatOfToken(""));
    const auto kept = duel.stored(0);
    EXPECT_EQ(kept.whiteHash.find(tokens[0]), std::string::npos);

    const std::string first = anyMove(duel);
    EXPECT_FALSE(done(duel.move(DuelSeat::Black, first, 0)));
    EXPECT_FALSE(done(duel.move(DuelSeat::Watch, first, 0)));
    EXPECT_FALSE(done(duel.move(DuelSeat::White, "a1-h8", 0)));
    EXPECT_TRUE(duel.moveTexts().empty()) << "refused moves change nothing";
    ASSERT_TRUE(done(duel.move(DuelSeat::White, first, 0)));
    EXPECT_FALSE(done(duel.move(DuelSeat::White, anyMove(duel), 0))) << "not White's turn";
    ASSERT_TRUE(done(duel.move(DuelSeat::Black, anyMove(duel), 0)));
    EXPECT_EQ(duel.moveTexts().size(), 2u);
    EXPECT_TRUE(duel.clockJson(0).is_null());
    EXPECT_FALSE(LascaDuel::create("x", DuelClock{10, 0}, 0).ok());
    EXPECT_FALSE(LascaDuel::create("x", DuelClock{60000, -1}, 0).ok());
}

TEST(Duel, TheClockRunsForTheSideToMoveAndAFlagFalls) {
    auto duel = LascaDuel::create("d2", DuelClock{60000, 2000}, 1000).value();
    EXPECT_FALSE(duel.running()) << "no time runs before White's first move";
    ASSERT_TRUE(done(duel.move(DuelSeat::White, anyMove(duel), 50000)));  // free, + increment
    EXPECT_EQ(duel.remaining(Color::White, 50000), 62000);
    EXPECT_EQ(duel.running(), Color::Black);
    EXPECT_EQ(duel.remaining(Color::Black, 60000), 50000);
    ASSERT_TRUE(done(duel.move(DuelSeat::Black, anyMove(duel), 60000)));
    EXPECT_EQ(duel.remaining(Color::Black, 60000), 52000);
    EXPECT_EQ(duel.untilFlag(60000), 62000);
    EXPECT_FALSE(duel.checkTime(60000 + 61999));
    EXPECT_TRUE(duel.checkTime(60000 + 62000));
    EXPECT_EQ(duel.result(), "0-2");
    EXPECT_EQ(duel.rule(), "time");
    EXPECT_FALSE(done(duel.move(DuelSeat::White, anyMove(duel), 200000)));
    const auto clock = duel.clockJson(300000);
    EXPECT_EQ(clock["white"], 0);
    EXPECT_TRUE(clock["running"].is_null());
    // A move after the flag fell is refused even when nobody noticed the fall yet.
    auto late = LascaDuel::create("d3", DuelClock{1000, 0}, 0).value();
    ASSERT_TRUE(done(late.move(DuelSeat::White, anyMove(late), 0)));
    EXPECT_FALSE(done(late.move(DuelSeat::Black, anyMove(late), 1000)));
    EXPECT_EQ(late.result(), "2-0");
}

TEST(Duel, ResignationDrawByAgreementAndTheRules) {
    auto duel = LascaDuel::create("d4", DuelClock{60000, 0}, 0).value();
    EXPECT_FALSE(done(duel.draw(DuelSeat::Watch, true, 0)));
    EXPECT_FALSE(done(duel.draw(DuelSeat::White, false, 0))) << "nothing to withdraw";
    ASSERT_TRUE(done(duel.draw(DuelSeat::White, true, 0)));
    EXPECT_FALSE(done(duel.draw(DuelSeat::White, true, 0)));
    ASSERT_TRUE(done(duel.move(DuelSeat::White, anyMove(duel), 0)));
    EXPECT_EQ(duel.drawOffer(), Color::White) << "the offer stands until Black answers";
    ASSERT_TRUE(done(duel.move(DuelSeat::Black, anyMove(duel), 1000)));
    EXPECT_FALSE(duel.drawOffer()) << "Black's move declined it";
    ASSERT_TRUE(done(duel.draw(DuelSeat::Black, true, 2000)));
    ASSERT_TRUE(done(duel.draw(DuelSeat::White, true, 3000)));
    EXPECT_EQ(duel.result(), "1-1");
    EXPECT_EQ(duel.rule(), "agreement");
    EXPECT_FALSE(done(duel.resign(DuelSeat::White, 4000)));

    auto other = LascaDuel::create("d5", std::nullopt, 0).value();
    EXPECT_FALSE(done(other.resign(DuelSeat::Watch, 0)));
    ASSERT_TRUE(done(other.resign(DuelSeat::Black, 0)));
    EXPECT_EQ(other.result(), "2-0");
    EXPECT_EQ(other.rule(), "resign");

    // The rules: a position where White's move leaves Black without a move (R9).
    StoredDuel nearEnd = other.stored(0);
    nearEnd.id = "d6";
    nearEnd.startLfen = "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,b,-,-/w,-,-/-,-,-,- w 0 1";
    nearEnd.moves.clear();
    nearEnd.result = "*";
    nearEnd.rule = "";
    auto ending = LascaDuel::restore(nearEnd, 0);
    ASSERT_TRUE(ending.ok()) << ending.error();
    ASSERT_TRUE(done(ending.value().move(DuelSeat::White, anyMove(ending.value()), 0)));
    EXPECT_EQ(ending.value().result(), "2-0");
    EXPECT_EQ(ending.value().rule(), "R9");
}

TEST(Duel, AKeptDuelComesBackTheSame) {
    auto duel = LascaDuel::create("d7", DuelClock{60000, 1000}, 0).value();
    const auto tokens = duel.takeTokens();
    ASSERT_TRUE(done(duel.move(DuelSeat::White, anyMove(duel), 0)));
    ASSERT_TRUE(done(duel.move(DuelSeat::Black, anyMove(duel), 5000)));
    ASSERT_TRUE(done(duel.draw(DuelSeat::White, true, 6000)));
    const auto kept = duel.stored(8000);
    EXPECT_EQ(kept.whiteMs, 61000) << "White's time when its turn began";
    EXPECT_EQ(kept.turnStarted, 5000) << "White's turn began with Black's move";
    auto back = LascaDuel::restore(kept, 9000);  // a crash, and a restart a second later
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back.value().moveTexts(), duel.moveTexts());
    EXPECT_EQ(back.value().remaining(Color::White, 9000), 57000)
        << "the time thought before the crash, and while the server was down, is charged";
    EXPECT_EQ(back.value().drawOffer(), Color::White);
    EXPECT_EQ(back.value().seatOfToken(tokens[1]), DuelSeat::Black);
    EXPECT_EQ(back.value().stored(9000).moves, kept.moves);
    auto again = back.value().stored(9000);
    again.updated = kept.updated;
    EXPECT_EQ(again, kept) << "kept again as it was";
    auto late = LascaDuel::restore(kept, 1000000);  // the server was down for a long time
    ASSERT_TRUE(late.ok());
    EXPECT_TRUE(late.value().checkTime(1000000)) << "White's flag fell while it was down";
    EXPECT_EQ(late.value().result(), "0-2");
    auto old = kept;  // kept before the turn's start was: runs from the restart
    old.turnStarted = 0;
    EXPECT_EQ(LascaDuel::restore(old, 9000).value().remaining(Color::White, 9500), 60500);
    auto bad = kept;
    bad.moves.push_back("a1-h8");
    EXPECT_FALSE(LascaDuel::restore(bad, 0).ok());
    bad = kept;
    bad.result = "3-0";
    EXPECT_FALSE(LascaDuel::restore(bad, 0).ok());
}

}  // namespace
}  // namespace web::lasca_tables
