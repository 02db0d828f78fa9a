// The true state of a Torneio game, as the referee holds it, and the state machine that applies
// decisions (G1-G12, D1-D13). One State answers: who decides next and what it is asked
// (request()), what a reply does (apply), what happened (events(), each with its audience), and
// how the game ended (outcome()). What one seat may know of it is view.h's job.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "common/result.h"
#include "torneio/rules/action.h"
#include "torneio/rules/event.h"
#include "torneio/rules/geometry.h"
#include "torneio/rules/params.h"

namespace torneio {

// Phase: what the pending decision is about.
//   SetUp     a seat chooses its secret set-up (seats 1..N in order; G3)
//   Turn      the seat to play moves, calls a combat or passes (G6, D10)
//   Retreat   the winner of a combat orders a losing piece somewhere (G9, D7, D12.4)
//   Withdraw  after a combat without winner, a piece's owner withdraws it (G9, D12.4)
//   Reward    a seat places one gained point (G10, D12.5)
//   Over      the game has ended (G12, D11); nobody decides
enum class Phase : std::uint8_t { SetUp, Turn, Retreat, Withdraw, Reward, Over };

enum class OutcomeKind : std::uint8_t { Ongoing, Win, Draw };

// Outcome: how a game ended.
//   kind    Ongoing until the end; Win (G12: one seat left) or Draw (D11: after the last round
//           the survivors draw)
//   seats   bit i set for each winning / drawing seat i
//   round   the round in which the game ended (for a D11 draw: maxRounds)
struct Outcome {
    OutcomeKind kind = OutcomeKind::Ongoing;
    unsigned seats = 0;
    int round = 0;

    friend bool operator==(const Outcome&, const Outcome&) = default;
};

// Decision: one applied action, in the order of play.
//   seat        who decided
//   action      the reply
//   firstEvent  index in State::events() of the first event the action caused; its events run
//               up to the next decision's firstEvent (or the end)
struct Decision {
    int seat = -1;
    Action action;
    std::size_t firstEvent = 0;

    friend bool operator==(const Decision&, const Decision&) = default;
};

// StartPosition: a game started from a position rather than from set-up decisions (tests,
// puzzles, an AI's sampled states). Seats whose king is dead are eliminated (their other pieces
// must be dead too). Strengths may add up to more than strengthTotal: the difference counts as
// points already placed (checkInvariants).
//   pieces     per seat (entries past params.seats are ignored)
//   turnSeat   the seat to play first (alive)
//   round      the current round, 1..maxRounds
struct StartPosition {
    std::array<OwnPieces, kMaxSeats> pieces{};
    int turnSeat = 0;
    int round = 1;

    friend bool operator==(const StartPosition&, const StartPosition&) = default;
};

// State: the whole truth of one game.
//
// What it holds
//   geometry_      the board and the Params (shared between copies)
//   pieces_[s]     seat s's four pieces (true squares and strengths)
//   setUpDone_[s]  whether seat s has set up (before that its pieces are all dead)
//   eliminated_[s] G11: seat s is out; all its pieces are dead
//   placed_[s]     points seat s has placed on its warriors (G10); gained_[s] points gained,
//                  forfeited_[s] points lost for want of a living warrior
//   turnSeat_      the seat whose turn it is (or was, during a combat's decisions)
//   round_         the current round, 1.. (D11/D13)
//   phase_, request_  the pending decision; request_.seat decides
//   combat_        the combat being resolved (Retreat/Withdraw/Reward phases)
//   outcome_       the result once phase_ == Over
//   events_        every event so far, with audiences (unless event logging is off)
//   history_       every applied decision
// Invariants: checkInvariants below.
// Size: about 730 bytes plus the event and history vectors; copying is cheap when logging is
// off (setEventLogging(false)), as a search would use it.
class State {
  public:
    // A new game whose set-ups are decisions (phase SetUp, seat 0 first).
    static common::Result<State> create(const Params& params);
    // A new game with the given set-ups (one per seat, in seat order), applied as decisions:
    // the same events and history as if each seat had sent its set-up.
    static common::Result<State> withSetUps(const Params& params, std::span<const SetUp> setUps);
    // A game from a position; its first event is the first turn's "turn" event.
    static common::Result<State> fromPosition(const Params& params, const StartPosition& start);
    // A state `seat` cannot tell from `real` (OpenSpiel's ResampleFromInfostate; play/resample.h
    // draws `sample`): the same pending decision, its own pieces, every event it saw and its own
    // decisions, while every other seat in the game keeps the pieces `sample` gives it. What
    // `seat` could not see is gone: the other seats' private events and decisions, their start
    // pieces. Each replaced seat gets one private "position" event with its pieces (what it knows
    // in this world, so that its own information tells its worlds apart). sampledFor() is
    // `seat`: the state has no history of decisions to number or serialize. An error when the
    // sample is no state of this game: a seat's pieces overlap, or a combat being resolved lacks
    // a piece on its square (or the only free square) that the rules need.
    static common::Result<State> withHiddenPieces(const State& real, int seat,
                                                  const StartPosition& sample);

    const Geometry& geometry() const { return *geometry_; }
    const Params& params() const { return geometry_->params(); }
    int seats() const { return params().seats; }

    const OwnPieces& pieces(int seat) const { return pieces_[static_cast<std::size_t>(seat)]; }
    bool eliminated(int seat) const { return eliminated_[static_cast<std::size_t>(seat)]; }
    bool setUpDone(int seat) const { return setUpDone_[static_cast<std::size_t>(seat)]; }
    int pointsGained(int seat) const { return gained_[static_cast<std::size_t>(seat)]; }
    int pointsPlaced(int seat) const { return placed_[static_cast<std::size_t>(seat)]; }
    int pointsForfeited(int seat) const { return forfeited_[static_cast<std::size_t>(seat)]; }
    int survivors() const;  // seats not eliminated

    Phase phase() const { return phase_; }
    bool over() const { return phase_ == Phase::Over; }
    int turnSeat() const { return turnSeat_; }
    int round() const { return round_; }
    // The seat that decides next, -1 when the game is over.
    int toDecide() const { return over() ? -1 : request_.seat; }
    // The pending request (meaningless when over()).
    const Request& request() const { return request_; }
    const Outcome& outcome() const { return outcome_; }
    // The starting position when the game was made by fromPosition.
    const std::optional<StartPosition>& start() const { return start_; }

    const std::vector<Event>& events() const { return events_; }
    const std::vector<Decision>& history() const { return history_; }
    // The seat a withHiddenPieces state was drawn for; -1 for a game the rules played.
    int sampledFor() const { return sampledFor_; }
    // With logging off no events are kept (events() stays as it was); the rules run the same.
    void setEventLogging(bool on) { logEvents_ = on; }
    bool eventLogging() const { return logEvents_; }

    // Applies `seat`'s reply to the pending request: an error (and no change) when the game is
    // over, when `seat` is not the one to decide, or when the action is not legal (checkAction).
    // Otherwise returns the index in events() of the first event it caused.
    common::Result<std::size_t> apply(int seat, const Action& action);

    // The referee puts `seat` out for a protocol fault, at any moment (it need not be the seat
    // to decide): the public event "disqualified", then its pieces leave the board as for G11
    // and its turns are skipped (D9). The game goes on for the others: a set-up it owed is
    // skipped; its turn ends; in a combat its retreats, withdrawals and rewards are dropped,
    // and when it was the winner the losing pieces not yet ordered stay on the square. One
    // seat left wins (G12). Not a decision: history() does not list it; a record keeps its
    // event and replayRecord disqualifies again where the event stands. An error (no change)
    // when the game is over or the seat is already out. Returns the index of its first event.
    common::Result<std::size_t> disqualify(int seat, Fault fault);

  private:
    explicit State(std::shared_ptr<const Geometry> geometry);

    // The combat being resolved (D12). Seats are listed in D12 order: clockwise from the seat
    // after the attacker, attacker last.
    //   movers      seats whose warrior must retreat (winner) or withdraw (no winner), in order
    //   next        index into movers of the piece being handled
    //   refused     RetreatOrder: squares refused for the current piece
    //   rewards     who gains points and how many are left to place, winner first (D12.5);
    //               `announced` once the current one's "gained" event is out
    struct RewardDue {
        int seat = -1;
        int total = 0;
        int left = 0;
    };
    struct CombatStage {
        int attacker = -1;
        Square square = kNoSquare;
        int winner = -1;
        std::array<int, kMaxSeats> movers{};
        int moverCount = 0;
        int next = 0;
        std::vector<Square> refused;
        std::array<RewardDue, 2> rewards{};
        int rewardCount = 0;
        int nextReward = 0;
        bool announced = false;
    };

    void emit(const Event& event);
    void applySetUp(int seat, const SetUp& setUp);
    void applyTurn(int seat, const Action& action);
    void applyOrder(const Action& action);
    void applyWithdraw(int seat, const Action& action);
    void applyReward(int seat, const Action& action);
    void startGame();
    void beginTurn(int seat);
    void endTurn();
    void resolveCombat(int attacker, Square square);
    void eliminate(int seat);
    void finishWin();
    void finishDraw();
    void askRetreatOrNext();
    void askWithdrawOrNext();
    void askRewardOrNext();
    void removePiece(int seat, int piece);
    int nextSeatToSetUp(int after) const;
    void dropFromCombat(int seat);

    std::shared_ptr<const Geometry> geometry_;
    std::array<OwnPieces, kMaxSeats> pieces_{};
    std::array<bool, kMaxSeats> setUpDone_{};
    std::array<bool, kMaxSeats> eliminated_{};
    std::array<int, kMaxSeats> gained_{};
    std::array<int, kMaxSeats> placed_{};
    std::array<int, kMaxSeats> forfeited_{};
    std::array<int, kMaxSeats> initialExtra_{};  // fromPosition: strength above the total
    int turnSeat_ = 0;
    int round_ = 1;
    Phase phase_ = Phase::SetUp;
    Request request_;
    CombatStage combat_;
    Outcome outcome_;
    std::optional<StartPosition> start_;
    std::vector<Event> events_;
    std::vector<Decision> history_;
    int sampledFor_ = -1;
    bool logEvents_ = true;

    friend common::Result<bool> checkInvariants(const State& state);
};

// The same as state.apply(seat, action).
common::Result<std::size_t> apply(State& state, int seat, const Action& action);

// true when every invariant holds, else the first one broken:
//   alive pieces on the board, dead ones on kNoSquare; no two alive pieces of one seat on one
//   square (G5); king strength 0 (G4), warrior strengths >= 0 (D3); per seat, the warriors'
//   strengths (dead ones included) add up to strengthTotal + points placed (G10; plus the extra
//   of a StartPosition); placed + forfeited <= gained; eliminated <=> king dead after set-up,
//   and an eliminated seat has no alive piece (G11); a game not over has at least 2 survivors;
//   a Win outcome names the one survivor; the deciding seat is not eliminated; in the Turn
//   phase it is turnSeat; round in 1..maxRounds; the pending request is well formed.
common::Result<bool> checkInvariants(const State& state);

}  // namespace torneio
