// The AI's search: Information Set MCTS (Cowling, Powley, Whitehouse 2012, "single observer"
// ISMCTS) over determinizations drawn from a Belief (belief.h). It is written against the rules
// core (State::fromPosition, legalActions, apply) and the resampler only.
//
// One simulation (turn decisions, the root is the searching seat's turn):
//   Step 1  determinize: draw a full position from the belief (own pieces exact, one particle
//           per opponent) and start a State from it (event logging off)
//   Step 2  select: from the root, at every decision of the simulated game, the children whose
//           action is legal in this determinization are "available" (their availability count
//           grows); pick by UCB1 over availability (mean reward of the seat that moved + c *
//           sqrt(ln availability / visits)) until a legal action has no child yet
//   Step 3  expand: add one untried legal action (chosen at random) and apply it
//   Step 4  roll out: play on with rolloutAction for at most rolloutRounds rounds (a game may
//           last 200 rounds, far beyond what a rollout can afford) and score the position with
//           evaluate: a reward per seat
//   Step 5  back up: every node on the path adds the reward of the seat that chose its action
//           (each seat maximises its own result: a sound multi-player backup)
// The root's decision is its most visited child.
//
// Decisions in the middle of a combat (a retreat order, a withdrawal, a reward point) cannot
// start a State (fromPosition starts at a turn), so they are searched "from the next turn":
// flat UCB1 over the legal replies, each simulation applying the reply to a determinization,
// finishing the combat by the simple rule (other pending retreats and points stay as they are)
// and rolling out from the next seat's turn.
//
// Limits: `simulations` per decision (with a seed, the same inputs give the same decision);
// `moveTimeMs` stops earlier when it is reached (then the result depends on the machine).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "common/random.h"
#include "torneio/play/ai/belief.h"
#include "torneio/play/knowledge.h"
#include "torneio/rules/action.h"
#include "torneio/rules/state.h"

namespace torneio::play {

// SearchLimits: the budget and shape of one search.
//   simulations    determinizations (and rollouts) per decision, >= 1
//   moveTimeMs     wall-clock limit per decision, 0 = none
//   rolloutRounds  rounds a rollout plays before evaluate scores it
//   exploration    UCB1 constant c (rewards are in 0..1)
struct SearchLimits {
    int simulations = 300;  // kDefaultSimulations (ai_options.h)
    int moveTimeMs = 0;
    int rolloutRounds = 5;
    double exploration = 0.7;
};

// SearchStats: what one search did (for benchmarks and the `info` of a tool).
struct SearchStats {
    int simulations = 0;
    int nodes = 0;
    std::size_t treeBytes = 0;
};

// SearchClock: SearchLimits::moveTimeMs for a loop of simulations; it reads the clock only
// every kCheckEvery simulations (0 ms: never expires).
class SearchClock {
  public:
    static constexpr int kCheckEvery = 16;
    explicit SearchClock(int limitMs)
        : limitMs_(limitMs), start_(std::chrono::steady_clock::now()) {}
    bool expired(int simulation) const {
        if (limitMs_ <= 0 || simulation % kCheckEvery != 0) return false;
        const auto spent = std::chrono::steady_clock::now() - start_;
        return std::chrono::duration_cast<std::chrono::milliseconds>(spent).count() >= limitMs_;
    }

  private:
    int limitMs_;
    std::chrono::steady_clock::time_point start_;
};

using Rewards = std::array<double, kMaxSeats>;

// Decides `request` for the knowledge's seat (Turn, RetreatOrder, Withdraw or Reward; set-ups
// are the AI player's set-up policy). Reads only the knowledge and the belief.
Action searchDecision(const Request& request, const Knowledge& knowledge, const Belief& belief,
                      const SearchLimits& limits, std::uint64_t seed, SearchStats* stats = nullptr);

// Policy improvement by rollouts (Tesauro and Galperin 1996) for a turn of the knowledge's
// seat: every candidate is applied to the same determinizations drawn from the belief, and each
// game rolled out (rolloutAction, limits.rolloutRounds rounds, the same rollout randomness for
// every candidate of a determinization: common random numbers). Returns each candidate's mean
// reward for the seat (0..1), all 0 when no simulation ran. limits.simulations
// determinizations (moveTimeMs may stop earlier).
std::vector<double> rolloutValues(const Request& request, const Knowledge& knowledge,
                                  const Belief& belief, const std::vector<Action>& candidates,
                                  const SearchLimits& limits, std::uint64_t seed,
                                  SearchStats* stats = nullptr);

// A sampled hidden state made into a State at the knowledge's seat's turn of the request's
// round, event logging off; nothing when the sample cannot start a State.
std::optional<State> stateForTurn(const Request& request, const Knowledge& knowledge,
                                  StartPosition start);

// The rollout policy, on a full (determinized) state: a warrior sharing its square with a king
// or with only weaker or equal warriors calls the combat; otherwise mostly a warrior steps
// toward the nearest enemy piece it can beat, sometimes a random step; the king rarely moves;
// retreats and withdrawals at random; reward points onto the strongest warrior.
Action rolloutAction(const State& state, common::Random& random);

// The reward of each seat, in 0..1, summing to 1 over the seats still in: 1 for a winner, an
// equal share for a draw; in a game still going, a share that grows with the seat's living
// warriors' strength and shrinks with enemy warriors near its king. 0 for seats that are out.
Rewards evaluate(const State& state);

}  // namespace torneio::play
