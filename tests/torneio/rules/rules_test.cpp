// The state machine: set-ups, turns and rounds (G3, G6, D9-D11, D13), and every kind of combat
// (G7-G12, D5-D7, D12), checked event by event. Seats are written 1..N as in the event lines.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "torneio/rules/state.h"
#include "torneio/torneio_test_util.h"

namespace torneio {
namespace {

using test::army;
using test::eventLines;
using test::play;
using test::position;
using test::requestLine;
using test::sq;
using Lines = std::vector<std::string>;

const Params kTwo = defaultParams(2);
const Params kThree = defaultParams(3);
const Params kFour = defaultParams(4);

SetUp setUpFrom(const Geometry& g, const char* text) {
    return parseSetUp(text, g).value();
}

// G3: each seat's set-up is a decision, in seat order, seen only by that seat; D9: seat 1 then
// moves first, in round 1.
TEST(Rules, SetUpsAreSecretDecisionsG3D9) {
    State state = State::create(kTwo).value();
    const Geometry& g = state.geometry();
    EXPECT_EQ(state.phase(), Phase::SetUp);
    EXPECT_EQ(requestLine(state), "1: request setup");
    EXPECT_FALSE(state.apply(1, setUpAction(setUpFrom(g, "king b8 warriors a7:3 c7:3 e7:4"))));
    play(state, 0, "setup king c1 warriors a1:3 e1:3 g1:4");
    EXPECT_EQ(requestLine(state), "2: request setup");
    play(state, 1, "setup king b8 warriors a7:3 c7:3 e7:4");
    EXPECT_EQ(eventLines(state),
              (Lines{"1: event setup king c1 warriors a1:3 e1:3 g1:4",
                     "2: event setup king b8 warriors a7:3 c7:3 e7:4", "all: event turn 1 1"}));
    EXPECT_EQ(requestLine(state), "1: request turn 1");
    EXPECT_EQ(state.pieces(1)[2], (Piece{sq(g, "c7"), 3, true}));  // G2: king + 3 warriors

    // The same through withSetUps: the same events and history.
    const std::vector<torneio::SetUp> setUps{setUpFrom(g, "king c1 warriors a1:3 e1:3 g1:4"),
                                             setUpFrom(g, "king b8 warriors a7:3 c7:3 e7:4")};
    State direct = State::withSetUps(kTwo, setUps).value();
    EXPECT_EQ(direct.events(), state.events());
    EXPECT_EQ(direct.history(), state.history());
    // D2: a set-up outside the zone is refused.
    const std::vector<torneio::SetUp> wrong{setUpFrom(g, "king c1 warriors a1:3 e1:3 g1:4"),
                                            setUpFrom(g, "king c1 warriors a7:3 c7:3 e7:4")};
    EXPECT_FALSE(State::withSetUps(kTwo, wrong).ok());
    EXPECT_FALSE(State::withSetUps(kTwo, std::span(setUps).first(1)).ok());
}

// G6/D8: a move is announced only as "moved"; which piece and where is private to the mover.
TEST(Rules, MoveIsAnnouncedOnlyAsMovedG6) {
    const Geometry g(kTwo);
    State state = position(
        kTwo, {army(g, "a1", {"d4:4", "g1:3", "h2:3"}), army(g, "a8", {"d5:4", "g8:3", "h7:3"})});
    const std::size_t from = state.events().size();
    play(state, 0, "move 1 d5");  // D4: onto an opponent's square, which blocks nothing
    EXPECT_EQ(eventLines(state, from),
              (Lines{"all: event moved 1", "1: event move 1 d4 d5", "all: event turn 2 1"}));
    EXPECT_EQ(state.pieces(0)[1].square, sq(g, "d5"));
    EXPECT_EQ(state.turnSeat(), 1);
}

// D9/D11/D13: seats play in order; a round ends when every remaining seat has played; after
// the last round the survivors draw.
TEST(Rules, RoundsAndDrawAfterLastRoundD9D11D13) {
    Params p = kTwo;
    p.maxRounds = 2;
    const Geometry g(p);
    State state = position(
        p, {army(g, "a1", {"c1:4", "e1:3", "g1:3"}), army(g, "b8", {"d8:4", "f8:3", "h8:3"})});
    play(state, 0, "move 1 c2");
    play(state, 1, "move 1 d7");
    EXPECT_EQ(state.round(), 2);
    EXPECT_EQ(formatEvent(state.events().back(), g), "event turn 1 2");
    play(state, 0, "move 1 c3");
    const std::size_t from = state.events().size();
    play(state, 1, "move 1 d6");
    EXPECT_EQ(eventLines(state, from),
              (Lines{"all: event moved 2", "2: event move 1 d7 d6", "all: event end draw 1 2"}));
    EXPECT_TRUE(state.over());
    EXPECT_EQ(state.outcome(), (Outcome{OutcomeKind::Draw, 3u, 2}));
    EXPECT_EQ(state.toDecide(), -1);
    EXPECT_FALSE(state.apply(0, moveAction(1, sq(g, "c4"))).ok());  // the game is over
}

// D9/D13: the turn and round lines of a 3-seat game.
TEST(Rules, TurnLinesCarryTheRoundD13) {
    const Geometry g(kThree);
    State state = position(
        kThree, {army(g, "c1", {"e1:4", "g1:3", "d2:3"}), army(g, "a3", {"b4:4", "a5:3", "b6:3"}),
                 army(g, "c10", {"e10:4", "g10:3", "d9:3"})});
    play(state, 0, "move 1 e2");
    play(state, 1, "move 1 c4");
    play(state, 2, "move 1 e9");
    const Lines lines = eventLines(state);
    EXPECT_EQ(lines.front(), "all: event turn 1 1");
    EXPECT_EQ(lines[3], "all: event turn 2 1");
    EXPECT_EQ(lines[6], "all: event turn 3 1");
    EXPECT_EQ(lines.back(), "all: event turn 1 2");
}

TEST(Rules, WrongSeatAndIllegalActionsChangeNothing) {
    const Geometry g(kTwo);
    State state = position(
        kTwo, {army(g, "a1", {"d4:4", "g1:3", "h2:3"}), army(g, "a8", {"d5:4", "g8:3", "h7:3"})});
    const std::vector<Event> before = state.events();
    EXPECT_FALSE(state.apply(1, moveAction(1, sq(g, "d6"))).ok());  // not its turn
    EXPECT_FALSE(state.apply(0, moveAction(1, sq(g, "d6"))).ok());  // two steps
    EXPECT_FALSE(state.apply(0, combatAction(sq(g, "a1"))).ok());   // the king (G7)
    EXPECT_FALSE(state.apply(0, orderAction(sq(g, "d5"))).ok());    // not asked
    EXPECT_FALSE(state.apply(0, passAction()).ok());                // D10
    EXPECT_FALSE(state.apply(7, passAction()).ok());
    EXPECT_EQ(state.events(), before);
    EXPECT_TRUE(state.history().empty());
}

// D5: a combat on a square without opponents: nothing revealed, the turn is spent.
TEST(Combat, OnEmptySquareD5) {
    const Geometry g(kTwo);
    State state = position(
        kTwo, {army(g, "a1", {"d4:4", "g1:3", "h2:3"}), army(g, "a8", {"d5:4", "g8:3", "h7:3"})});
    play(state, 0, "combat d4");
    EXPECT_EQ(eventLines(state, 1), (Lines{"all: event combat 1 d4", "all: event unopposed 1 d4",
                                           "all: event turn 2 1"}));
}

// G8: a tie that involves the attacker goes to the attacker; G9 retreat; G10 reward.
TEST(Combat, TieGoesToAttackerG8G9G10) {
    const Geometry g(kTwo);
    State state = position(
        kTwo, {army(g, "a1", {"d4:4", "g1:3", "h2:3"}), army(g, "a8", {"d4:4", "g8:3", "h7:3"})});
    play(state, 0, "combat d4");
    EXPECT_EQ(eventLines(state, 1), (Lines{"all: event combat 1 d4", "all: event reveal 2 4",
                                           "all: event reveal 1 4", "all: event result 1"}));
    EXPECT_EQ(state.phase(), Phase::Retreat);
    EXPECT_EQ(requestLine(state), "1: request order 2 d4");
    std::size_t from = state.events().size();
    play(state, 0, "order e5");
    EXPECT_EQ(eventLines(state, from), (Lines{"all: event retreat 2 e5", "all: event gained 1 1"}));
    EXPECT_EQ(requestLine(state), "1: request reward 1");
    EXPECT_FALSE(state.apply(0, rewardAction(0)).ok());  // never the king
    from = state.events().size();
    play(state, 0, "reward 1");
    EXPECT_EQ(eventLines(state, from), (Lines{"1: event placed 1 5", "all: event turn 2 1"}));
    EXPECT_EQ(state.pieces(1)[1].square, sq(g, "e5"));
    EXPECT_EQ(state.pieces(0)[1].strength, 5);
    EXPECT_EQ(state.pointsGained(0), 1);
}

// G8/D6: the attacker is weaker than two defenders sharing the top strength: nobody wins, no
// points, every warrior withdraws secretly in D12 order (the attacker's included, last).
TEST(Combat, AttackerLosesToTieOfDefendersNoWinnerG8D6D12) {
    const Geometry g(kThree);
    State state = position(
        kThree, {army(g, "c1", {"e5:2", "e1:4", "g1:4"}), army(g, "a3", {"e5:5", "b4:3", "a5:2"}),
                 army(g, "c10", {"e5:5", "e10:3", "g10:2"})});
    play(state, 0, "combat e5");
    EXPECT_EQ(eventLines(state, 1),
              (Lines{"all: event combat 1 e5", "all: event reveal 2 5", "all: event reveal 3 5",
                     "all: event reveal 1 2", "all: event result none"}));
    EXPECT_EQ(state.phase(), Phase::Withdraw);
    EXPECT_EQ(requestLine(state), "2: request withdraw 1 e5");
    std::size_t from = state.events().size();
    play(state, 1, "withdraw e6");
    EXPECT_EQ(requestLine(state), "3: request withdraw 1 e5");
    play(state, 2, "withdraw d6");
    EXPECT_EQ(requestLine(state), "1: request withdraw 1 e5");
    play(state, 0, "withdraw f4");
    EXPECT_EQ(eventLines(state, from),
              (Lines{"all: event withdrew 2", "2: event withdraw 1 e5 e6", "all: event withdrew 3",
                     "3: event withdraw 1 e5 d6", "all: event withdrew 1",
                     "1: event withdraw 1 e5 f4", "all: event turn 2 1"}));
    for (int seat = 0; seat < 3; ++seat) EXPECT_EQ(state.pointsGained(seat), 0);
}

// D6/D12: several defenders of different players; reveals clockwise from the seat after the
// attacker, attacker last; the strongest wins and beats every other warrior, one point each.
TEST(Combat, SeveralDefendersOfDifferentPlayersD6D12) {
    const Geometry g(kFour);
    State state = position(
        kFour,
        {army(g, "c1", {"f6:4", "e1:3", "g1:3"}), army(g, "a3", {"f6:3", "b4:3", "a5:4"}),
         army(g, "c10", {"f6:6", "e10:2", "g10:2"}), army(g, "j4", {"f6:2", "i5:4", "j6:4"})},
        /*turnSeat=*/1);
    play(state, 1, "combat f6");
    EXPECT_EQ(eventLines(state, 1),
              (Lines{"all: event combat 2 f6", "all: event reveal 3 6", "all: event reveal 4 2",
                     "all: event reveal 1 4", "all: event reveal 2 3", "all: event result 3"}));
    // D12.4: the losers in the same order: seat 4, seat 1, then the attacker.
    EXPECT_EQ(requestLine(state), "3: request order 4 f6");
    play(state, 2, "order g7");
    EXPECT_EQ(requestLine(state), "3: request order 1 f6");
    play(state, 2, "order f5");
    EXPECT_EQ(requestLine(state), "3: request order 2 f6");
    play(state, 2, "order e6");
    EXPECT_EQ(requestLine(state), "3: request reward 3");
    play(state, 2, "reward 1");
    EXPECT_EQ(requestLine(state), "3: request reward 2");
    play(state, 2, "reward 2");
    play(state, 2, "reward 1");
    EXPECT_EQ(eventLines(state, 7),
              (Lines{"all: event retreat 4 g7", "all: event retreat 1 f5",
                     "all: event retreat 2 e6", "all: event gained 3 3", "3: event placed 1 7",
                     "3: event placed 2 3", "3: event placed 1 8", "all: event turn 3 1"}));
    EXPECT_EQ(state.pieces(2)[1].strength, 8);
    EXPECT_EQ(state.pieces(0)[1].square, sq(g, "f5"));
}

// G11: a king alone on the square: its owner is out at once, all its pieces leave; the
// attacker wins (kings never win) and gains the king's point; D9: the eliminated seat's turns
// are skipped.
TEST(Combat, KingAloneG11D9) {
    const Geometry g(kThree);
    State state = position(
        kThree, {army(g, "c1", {"d4:3", "e1:3", "g1:4"}), army(g, "d4", {"b4:3", "a5:3", "b6:4"}),
                 army(g, "c10", {"e10:3", "g10:3", "d9:4"})});
    play(state, 0, "combat d4");
    EXPECT_EQ(eventLines(state, 1),
              (Lines{"all: event combat 1 d4", "all: event reveal 2 king", "all: event reveal 1 3",
                     "all: event result 1", "all: event eliminated 2", "all: event gained 1 1"}));
    EXPECT_TRUE(state.eliminated(1));
    for (const Piece& p : state.pieces(1).pieces) EXPECT_FALSE(p.alive);
    EXPECT_EQ(requestLine(state), "1: request reward 1");
    play(state, 0, "reward 2");
    EXPECT_EQ(state.events().back().kind, EventKind::Turn);
    EXPECT_EQ(formatEvent(state.events().back(), g), "event turn 3 1");  // seat 2 skipped
    play(state, 2, "move 1 e9");
    EXPECT_EQ(formatEvent(state.events().back(), g), "event turn 1 2");
}

// D9/D13: when seat 1 is eliminated by the last seat of a round, the next round starts with
// the first seat still in.
TEST(Combat, NextRoundStartsWithFirstSeatStillInD9D13) {
    const Geometry g(kThree);
    State state =
        position(kThree,
                 {army(g, "f5", {"c1:3", "e1:3", "g1:4"}), army(g, "a3", {"b4:3", "a5:3", "b6:4"}),
                  army(g, "c10", {"f5:3", "g10:3", "d9:4"})},
                 /*turnSeat=*/2);
    play(state, 2, "combat f5");
    play(state, 2, "reward 1");
    EXPECT_TRUE(state.eliminated(0));
    EXPECT_EQ(formatEvent(state.events().back(), g), "event turn 2 2");
}

// G11/D6: a king beside a warrior: the king's owner is out; the warrior, stronger than the
// attacker, wins; the winner scores the attacker's warrior, the attacker the king (winner
// first, D12.5).
TEST(Combat, KingBesideWarriorG11D6D12) {
    const Geometry g(kThree);
    State state = position(
        kThree, {army(g, "c1", {"d4:3", "e1:3", "g1:4"}), army(g, "d4", {"b4:3", "a5:3", "b6:4"}),
                 army(g, "c10", {"d4:7", "g10:2", "d9:1"})});
    play(state, 0, "combat d4");
    EXPECT_EQ(requestLine(state), "3: request order 1 d4");
    play(state, 2, "order c3");
    EXPECT_EQ(requestLine(state), "3: request reward 1");
    play(state, 2, "reward 1");
    EXPECT_EQ(requestLine(state), "1: request reward 1");
    play(state, 0, "reward 1");
    EXPECT_EQ(eventLines(state, 1),
              (Lines{"all: event combat 1 d4", "all: event reveal 2 king", "all: event reveal 3 7",
                     "all: event reveal 1 3", "all: event result 3", "all: event eliminated 2",
                     "all: event retreat 1 c3", "all: event gained 3 1", "3: event placed 1 8",
                     "all: event gained 1 1", "1: event placed 1 4", "all: event turn 3 1"}));
}

// D6: the attacker gains the king's point even when nobody wins.
TEST(Combat, AttackerScoresKingWhenNobodyWinsD6) {
    const Geometry g(kFour);
    State state = position(
        kFour,
        {army(g, "c1", {"f6:1", "e1:4", "g1:5"}), army(g, "f6", {"b4:3", "a5:3", "b6:4"}),
         army(g, "c10", {"f6:5", "e10:3", "g10:2"}), army(g, "j4", {"f6:5", "i5:3", "j6:2"})});
    play(state, 0, "combat f6");
    play(state, 2, "withdraw f7");
    play(state, 3, "withdraw g6");
    play(state, 0, "withdraw e5");
    play(state, 0, "reward 3");
    EXPECT_EQ(
        eventLines(state, 1),
        (Lines{"all: event combat 1 f6", "all: event reveal 2 king", "all: event reveal 3 5",
               "all: event reveal 4 5", "all: event reveal 1 1", "all: event result none",
               "all: event eliminated 2", "all: event withdrew 3", "3: event withdraw 1 f6 f7",
               "all: event withdrew 4", "4: event withdraw 1 f6 g6", "all: event withdrew 1",
               "1: event withdraw 1 f6 e5", "all: event gained 1 1", "1: event placed 3 6",
               "all: event turn 3 1"}));
}

// G9/D12: the loser's own piece stands on the ordered square: a public refusal, and the winner
// orders again, never the same square twice.
TEST(Combat, RetreatRefusedWhereLoserHasOwnPieceG9D12) {
    const Geometry g(kTwo);
    State state = position(
        kTwo, {army(g, "a1", {"d4:5", "g1:3", "h2:2"}), army(g, "e5", {"d4:4", "c5:3", "h7:3"})});
    play(state, 0, "combat d4");
    const std::size_t from = state.events().size();
    play(state, 0, "order e5");
    EXPECT_EQ(requestLine(state), "1: request order 2 d4 refused e5");
    EXPECT_FALSE(state.apply(0, orderAction(sq(g, "e5"))).ok());  // never twice
    play(state, 0, "order c5");
    EXPECT_EQ(requestLine(state), "1: request order 2 d4 refused e5 c5");
    play(state, 0, "order d5");
    EXPECT_EQ(eventLines(state, from), (Lines{"all: event refused 2 e5", "all: event refused 2 c5",
                                              "all: event retreat 2 d5", "all: event gained 1 1"}));
    EXPECT_EQ(state.pieces(1)[1].square, sq(g, "d5"));
}

// D7: every square the loser's piece could reach holds one of its own pieces: it is removed,
// publicly, without asking the winner; it still counts as defeated (G10).
TEST(Combat, NoRetreatSquareRemovesPieceD7) {
    const Geometry g(kTwo);
    State state = position(
        kTwo, {army(g, "h1", {"a1:5", "g1:3", "h2:2"}), army(g, "a2", {"a1:4", "b1:3", "b2:3"})});
    play(state, 0, "combat a1");
    EXPECT_EQ(eventLines(state, 1),
              (Lines{"all: event combat 1 a1", "all: event reveal 2 4", "all: event reveal 1 5",
                     "all: event result 1", "all: event removed 2 a1", "all: event gained 1 1"}));
    EXPECT_FALSE(state.pieces(1)[1].alive);
    EXPECT_EQ(state.pieces(1)[1].square, kNoSquare);
    EXPECT_EQ(requestLine(state), "1: request reward 1");
}

// D7/D12.4: a withdrawal with nowhere to go removes the piece too, publicly.
TEST(Combat, NoWithdrawalSquareRemovesPieceD7) {
    const Geometry g(kThree);
    State state = position(
        kThree, {army(g, "c1", {"a1:2", "e1:4", "g1:4"}), army(g, "a2", {"a1:5", "b1:3", "b2:2"}),
                 army(g, "c10", {"a1:5", "e10:3", "g10:2"})});
    play(state, 0, "combat a1");
    EXPECT_EQ(requestLine(state), "3: request withdraw 1 a1");
    play(state, 2, "withdraw a2");  // D4: onto seat 2's king, which it cannot know
    play(state, 0, "withdraw b1");
    EXPECT_EQ(eventLines(state, 5),
              (Lines{"all: event result none", "all: event removed 2 a1", "all: event withdrew 3",
                     "3: event withdraw 1 a1 a2", "all: event withdrew 1",
                     "1: event withdraw 1 a1 b1", "all: event turn 2 1"}));
}

// G11/G12: the last other king falls: the game ends at once, before retreats and rewards.
TEST(Combat, LastKingFallsEndsGameG11G12) {
    const Geometry g(kTwo);
    State game = position(
        kTwo, {army(g, "a1", {"d4:3", "g1:3", "h2:4"}), army(g, "d4", {"c5:4", "g8:3", "h7:3"})});
    play(game, 0, "combat d4");
    EXPECT_EQ(eventLines(game, 1),
              (Lines{"all: event combat 1 d4", "all: event reveal 2 king", "all: event reveal 1 3",
                     "all: event result 1", "all: event eliminated 2", "all: event end win 1"}));
    EXPECT_TRUE(game.over());
    EXPECT_EQ(game.outcome(), (Outcome{OutcomeKind::Win, 1u, 1}));
    EXPECT_EQ(game.pointsGained(0), 0);  // no reward once the game is over
}

// G11/G12: two kings on one square fall together; a warrior beside them is beaten but the game
// is already over.
TEST(Combat, TwoKingsFallTogetherG11G12) {
    const Geometry g(kThree);
    State state =
        position(kThree,
                 {army(g, "c1", {"e5:3", "e1:3", "g1:4"}), army(g, "e5", {"b4:3", "a5:3", "b6:4"}),
                  army(g, "e5", {"e10:3", "g10:3", "d9:4"})},
                 /*turnSeat=*/0, /*round=*/7);
    play(state, 0, "combat e5");
    EXPECT_EQ(eventLines(state, 1), (Lines{"all: event combat 1 e5", "all: event reveal 2 king",
                                           "all: event reveal 3 king", "all: event reveal 1 3",
                                           "all: event result 1", "all: event eliminated 2",
                                           "all: event eliminated 3", "all: event end win 1"}));
    EXPECT_EQ(state.outcome(), (Outcome{OutcomeKind::Win, 1u, 7}));
}

TEST(Rules, FromPositionRejectsImpossiblePositions) {
    const Geometry g(kTwo);
    StartPosition start;
    start.pieces[0] = army(g, "a1", {"a1:3", "g1:3", "h2:4"});  // two own pieces on a1
    start.pieces[1] = army(g, "d4", {"c5:4", "g8:3", "h7:3"});
    EXPECT_FALSE(State::fromPosition(kTwo, start).ok());
    start.pieces[0] = army(g, "-", {"b1:3", "g1:3", "h2:4"});  // warriors without a king
    EXPECT_FALSE(State::fromPosition(kTwo, start).ok());
    start.pieces[0] = army(g, "-", {"-:3", "-:3", "-:4"});  // one seat left
    EXPECT_FALSE(State::fromPosition(kTwo, start).ok());
    start.pieces[0] = army(g, "a1", {"b1:3", "g1:3", "h2:4"});
    start.pieces[0][kKing].strength = 1;  // G4
    EXPECT_FALSE(State::fromPosition(kTwo, start).ok());
    start.pieces[0][kKing].strength = 0;
    start.round = 201;
    EXPECT_FALSE(State::fromPosition(kTwo, start).ok());
    start.round = 1;
    start.turnSeat = 2;
    EXPECT_FALSE(State::fromPosition(kTwo, start).ok());
    start.turnSeat = 1;
    EXPECT_TRUE(State::fromPosition(kTwo, start).ok());
}

}  // namespace
}  // namespace torneio
