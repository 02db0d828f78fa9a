// Actions and requests: text forms, legality (G2-G10, D2, D3, D7, D10) and random replies.
#include "torneio/rules/action.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "torneio/torneio_test_util.h"

namespace torneio {
namespace {

using test::army;
using test::sq;

Request requestOf(RequestKind kind, int seat) {
    Request r;
    r.kind = kind;
    r.seat = seat;
    return r;
}

TEST(ActionText, RoundTripOfEveryKind) {
    const Geometry g(defaultParams(4));
    torneio::SetUp setUp;
    setUp.king = sq(g, "c1");
    setUp.warriors = {sq(g, "e1"), sq(g, "g1"), sq(g, "d2")};
    setUp.strengths = {3, 3, 4};
    const std::vector<std::pair<Action, std::string>> cases{
        {setUpAction(setUp), "setup king c1 warriors e1:3 g1:3 d2:4"},
        {moveAction(2, sq(g, "d4")), "move 2 d4"},
        {moveAction(0, sq(g, "j10")), "move 0 j10"},
        {combatAction(sq(g, "d4")), "combat d4"},
        {passAction(), "pass"},
        {orderAction(sq(g, "e5")), "order e5"},
        {withdrawAction(sq(g, "e5")), "withdraw e5"},
        {rewardAction(3), "reward 3"},
    };
    for (const auto& [action, text] : cases) {
        EXPECT_EQ(formatAction(action, g), text);
        auto parsed = parseAction(text, g);
        ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.error();
        EXPECT_EQ(parsed.value(), action) << text;
    }
    EXPECT_EQ(parseAction("  move\t2   d4 ", g).value(), moveAction(2, sq(g, "d4")));
}

TEST(ActionText, ErrorsAreValuesAndNumbersRangeChecked) {
    const Geometry g(defaultParams(2));
    for (const char* bad : {"",
                            "jump",
                            "move",
                            "move 4 d4",
                            "move -1 d4",
                            "move 1 d9",
                            "move 1 d4 e5",
                            "move x d4",
                            "combat",
                            "combat i1",
                            "pass now",
                            "order",
                            "withdraw a0",
                            "reward 0",
                            "reward 4",
                            "reward 1 2",
                            "setup",
                            "setup king c1 warriors a1:3 e1:3",
                            "setup king c1 warriors a1:3 e1:3 g1:11",
                            "setup king c1 warriors a1:3 e1:3 g1",
                            "setup king c1 soldiers a1:3 e1:3 g1:4",
                            "setup king c1 warriors a1:3 e1:3 g1:-4",
                            "setup king c1 warriors a1:3 e1:3 g1:4 h2:0",
                            "MOVE 1 d4"})
        EXPECT_FALSE(parseAction(bad, g).ok()) << bad;
}

TEST(RequestText, RoundTripOfEveryKind) {
    const Geometry g(defaultParams(3));
    Request order = requestOf(RequestKind::RetreatOrder, 0);
    order.loser = 2;
    order.from = sq(g, "d4");
    Request refused = order;
    refused.refused = {sq(g, "e5"), sq(g, "c3")};
    Request turn = requestOf(RequestKind::Turn, 0);
    turn.round = 17;
    Request withdraw = requestOf(RequestKind::Withdraw, 0);
    withdraw.piece = 2;
    withdraw.from = sq(g, "j10");
    Request reward = requestOf(RequestKind::Reward, 0);
    reward.points = 2;
    const std::vector<std::pair<Request, std::string>> cases{
        {requestOf(RequestKind::SetUp, 0), "request setup"},
        {turn, "request turn 17"},
        {order, "request order 3 d4"},
        {refused, "request order 3 d4 refused e5 c3"},
        {withdraw, "request withdraw 2 j10"},
        {reward, "request reward 2"},
    };
    for (const auto& [request, text] : cases) {
        EXPECT_EQ(formatRequest(request, g), text);
        auto parsed = parseRequest(text, 0, g);
        ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.error();
        EXPECT_EQ(parsed.value(), request) << text;
    }
}

TEST(RequestText, ErrorsAreValues) {
    const Geometry g(defaultParams(3));
    for (const char* bad :
         {"", "request", "setup", "request setup now", "request turn 0", "request turn 201",
          "request order 4 d4", "request order 0 d4", "request order 2", "request order 2 d4 e5",
          "request order 2 d4 refused", "request order 2 d4 refused e5 e5", "request withdraw 0 d4",
          "request withdraw 2 k4", "request reward 0", "request reward", "request bid 3"})
        EXPECT_FALSE(parseRequest(bad, 0, g).ok()) << bad;
    EXPECT_FALSE(parseRequest("request setup", 3, g).ok());  // no seat 4 of 3
}

// G3, D2, D3: 4 different dark squares of the zone; strengths >= 0 adding up to 10.
TEST(SetUpLegality, ZoneSquaresAndStrengthsG3G4D2D3) {
    const Geometry g(defaultParams(2));
    const Request request = requestOf(RequestKind::SetUp, 0);
    const OwnPieces none;
    const auto check = [&](const char* text) {
        return checkAction(request, none, g, parseAction(text, g).value()).ok();
    };
    EXPECT_TRUE(check("setup king c1 warriors a1:3 e1:3 g1:4"));
    EXPECT_TRUE(check("setup king h2 warriors a1:0 b2:0 d2:10"));  // D3: 0 is allowed
    EXPECT_FALSE(check("setup king b1 warriors a1:3 e1:3 g1:4"));  // light square (D2)
    EXPECT_FALSE(check("setup king c3 warriors a1:3 e1:3 g1:4"));  // outside the zone
    EXPECT_FALSE(check("setup king c1 warriors c1:3 e1:3 g1:4"));  // shared square (G5)
    EXPECT_FALSE(check("setup king c1 warriors a1:3 e1:3 g1:3"));  // adds up to 9 (G4)
    EXPECT_FALSE(check("setup king c1 warriors a1:4 e1:3 g1:4"));  // adds up to 11
    EXPECT_FALSE(check("setup king a7 warriors c7:3 e7:3 g7:4"));  // north's zone
    EXPECT_FALSE(check("move 1 a2"));
    Params strict = defaultParams(2);
    strict.minStrength = 1;
    const Geometry gs(strict);
    EXPECT_FALSE(checkAction(request, none, gs,
                             parseAction("setup king h2 warriors a1:0 b2:0 d2:10", gs).value())
                     .ok());
}

// G2-G4, D2, D3: the number of set-ups: 8*7*6*5*66 on 8x8, 6*5*4*3*66 on 10x10.
TEST(SetUpLegality, CountsAndFullList) {
    const Geometry g2(defaultParams(2));
    const Geometry g4(defaultParams(4));
    const OwnPieces none;
    EXPECT_EQ(countLegalActions(requestOf(RequestKind::SetUp, 1), none, g2), 110'880u);
    EXPECT_EQ(countLegalActions(requestOf(RequestKind::SetUp, 3), none, g4), 23'760u);
    const std::vector<Action> all = legalActions(requestOf(RequestKind::SetUp, 2), none, g4);
    ASSERT_EQ(all.size(), 23'760u);
    std::set<std::string> distinct;
    for (const Action& a : all) {
        EXPECT_TRUE(isLegal(requestOf(RequestKind::SetUp, 2), none, g4, a));
        distinct.insert(formatAction(a, g4));
    }
    EXPECT_EQ(distinct.size(), all.size());
}

// A random set-up is legal, and each zone square / strength shows up about equally often.
TEST(SetUpLegality, RandomSetUpIsLegalAndSpread) {
    const Geometry g(defaultParams(2));
    const Request request = requestOf(RequestKind::SetUp, 1);
    common::Random random(7);
    std::map<Square, int> kingSquares;
    std::map<int, int> firstStrengths;
    constexpr int kDraws = 8000;
    for (int i = 0; i < kDraws; ++i) {
        const Action a = randomAction(request, OwnPieces{}, g, random);
        ASSERT_TRUE(isLegal(request, OwnPieces{}, g, a)) << formatAction(a, g);
        ++kingSquares[a.setUp.king];
        ++firstStrengths[a.setUp.strengths[0]];
    }
    EXPECT_EQ(kingSquares.size(), 8u);
    for (const auto& [square, count] : kingSquares) EXPECT_NEAR(count, kDraws / 8, 200);
    // The first warrior's strength s occurs in (11 - s) of the 66 splits.
    EXPECT_EQ(firstStrengths.size(), 11u);
    EXPECT_NEAR(firstStrengths[0], kDraws * 11 / 66, 200);
    EXPECT_NEAR(firstStrengths[10], kDraws * 1 / 66, 60);
}

// G6, G5, D4: moves by piece index; an opponent's piece never blocks (it is not even known).
TEST(TurnLegality, MovesG5G6D4) {
    const Geometry g(defaultParams(2));
    Request turn = requestOf(RequestKind::Turn, 0);
    turn.round = 1;
    const OwnPieces own = army(g, "a1", {"b2:3", "d4:3", "h8:4"});
    EXPECT_TRUE(isLegal(turn, own, g, moveAction(2, sq(g, "e5"))));
    EXPECT_TRUE(isLegal(turn, own, g, moveAction(0, sq(g, "a3"))));
    EXPECT_FALSE(isLegal(turn, own, g, moveAction(0, sq(g, "b2"))));  // own piece (G5)
    EXPECT_FALSE(isLegal(turn, own, g, moveAction(1, sq(g, "a1"))));  // own king
    EXPECT_FALSE(isLegal(turn, own, g, moveAction(2, sq(g, "d6"))));  // two steps
    EXPECT_FALSE(isLegal(turn, own, g, moveAction(0, sq(g, "c3"))));  // not orthogonal
    // The king: a2, a3, b1, c1 (b2 is diagonal, so it blocks nothing).
    EXPECT_EQ(pieceDestinations(own, kKing, g).size(), 4);
    // 4 king + 7 (b2: a1 own) + 8 + 3 moves, 3 combats, no pass.
    EXPECT_EQ(countLegalActions(turn, own, g), 4u + 7u + 8u + 3u + 3u);
}

// G7: a combat is called on an own warrior's square, never on the king's.
TEST(TurnLegality, CombatOnOwnWarriorSquareOnlyG7) {
    const Geometry g(defaultParams(2));
    Request turn = requestOf(RequestKind::Turn, 0);
    const OwnPieces own = army(g, "a1", {"b2:3", "d4:3", "-:4"});
    EXPECT_TRUE(isLegal(turn, own, g, combatAction(sq(g, "d4"))));
    EXPECT_FALSE(isLegal(turn, own, g, combatAction(sq(g, "a1"))));  // the king's square
    EXPECT_FALSE(isLegal(turn, own, g, combatAction(sq(g, "e5"))));  // nobody of ours there
}

// D10: no pass while a move or a combat is possible; PassRule::Always allows it every turn.
TEST(TurnLegality, PassOnlyWhenStuckD10) {
    const Geometry g(defaultParams(2));
    Request turn = requestOf(RequestKind::Turn, 0);
    const OwnPieces full = army(g, "a1", {"b2:3", "d4:3", "h8:4"});
    EXPECT_FALSE(isLegal(turn, full, g, passAction()));
    // A king alone can always move on a board of 4x4 or more, so D10's pass needs a king with
    // no move: never with the project's boards. Without warriors it still must move.
    const OwnPieces kingAlone = army(g, "a1", {"-:3", "-:3", "-:4"});
    EXPECT_FALSE(passAllowed(kingAlone, g));
    EXPECT_FALSE(isLegal(turn, kingAlone, g, passAction()));
    Params free = defaultParams(2);
    free.pass = PassRule::Always;
    const Geometry gf(free);
    EXPECT_TRUE(isLegal(turn, full, gf, passAction()));
}

// G9, D7, D12: the winner may order any square one step from the combat square, other than
// those already refused for this piece; the request alone decides (the loser's pieces are not
// known to the winner).
TEST(OrderLegality, AnyStepButRefusedG9D12) {
    const Geometry g(defaultParams(2));
    Request order = requestOf(RequestKind::RetreatOrder, 0);
    order.loser = 1;
    order.from = sq(g, "a1");
    order.refused = {sq(g, "a2")};
    const OwnPieces own = army(g, "b1", {"b2:3", "d4:3", "h8:4"});
    EXPECT_FALSE(isLegal(order, own, g, orderAction(sq(g, "a2"))));  // refused already
    EXPECT_TRUE(isLegal(order, own, g, orderAction(sq(g, "b2"))));   // even where we stand
    EXPECT_FALSE(isLegal(order, own, g, orderAction(sq(g, "c3"))));  // two steps
    EXPECT_EQ(countLegalActions(order, own, g), 2u);
}

// G9: a withdrawal goes one warrior step, never onto an own piece.
TEST(WithdrawLegality, OwnStepsOnlyG9) {
    const Geometry g(defaultParams(2));
    Request withdraw = requestOf(RequestKind::Withdraw, 0);
    withdraw.piece = 1;
    withdraw.from = sq(g, "a1");
    const OwnPieces own = army(g, "a2", {"a1:3", "b2:3", "h8:4"});
    EXPECT_EQ(legalActions(withdraw, own, g), std::vector<Action>{withdrawAction(sq(g, "b1"))});
    withdraw.piece = 2;  // that piece is not on a1: a malformed request has no reply
    EXPECT_EQ(countLegalActions(withdraw, own, g), 0u);
}

// G10: a point goes onto a living warrior, never the king.
TEST(RewardLegality, LivingWarriorsOnlyG10) {
    const Geometry g(defaultParams(2));
    Request reward = requestOf(RequestKind::Reward, 0);
    reward.points = 2;
    const OwnPieces own = army(g, "a2", {"a1:3", "-:3", "h8:4"});
    EXPECT_TRUE(isLegal(reward, own, g, rewardAction(1)));
    EXPECT_FALSE(isLegal(reward, own, g, rewardAction(2)));  // dead
    EXPECT_TRUE(isLegal(reward, own, g, rewardAction(3)));
    EXPECT_FALSE(isLegal(reward, own, g, rewardAction(0)));  // the king (G4)
    EXPECT_EQ(countLegalActions(reward, own, g), 2u);
}

// Every request kind: legalActions, countLegalActions, isLegal and randomAction agree.
TEST(Legality, ListCountCheckAndRandomAgree) {
    const Geometry g(defaultParams(2));
    const OwnPieces own = army(g, "d4", {"d5:3", "e4:3", "h8:4"});
    Request turn = requestOf(RequestKind::Turn, 0);
    Request order = requestOf(RequestKind::RetreatOrder, 0);
    order.loser = 1;
    order.from = sq(g, "d5");
    Request withdraw = requestOf(RequestKind::Withdraw, 0);
    withdraw.piece = 1;
    withdraw.from = sq(g, "d5");
    Request reward = requestOf(RequestKind::Reward, 0);
    reward.points = 1;
    common::Random random(3);
    for (const Request& request : {turn, order, withdraw, reward}) {
        const std::vector<Action> all = legalActions(request, own, g);
        EXPECT_EQ(all.size(), countLegalActions(request, own, g));
        std::set<std::string> seen;
        for (const Action& a : all) EXPECT_TRUE(isLegal(request, own, g, a));
        for (int i = 0; i < 2000; ++i) {
            const Action a = randomAction(request, own, g, random);
            EXPECT_TRUE(isLegal(request, own, g, a));
            seen.insert(formatAction(a, g));
        }
        EXPECT_EQ(seen.size(), all.size());  // every legal reply comes up
    }
}

}  // namespace
}  // namespace torneio
