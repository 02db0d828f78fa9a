#include "torneio/play/ai/ismcts.h"
#include "torneio/rules/distance.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <vector>

namespace torneio::play {

namespace {

// Rollout policy constants (probabilities per turn).
constexpr double kKingStepChance = 0.08;   // the king moves at random
constexpr double kGreedyStepChance = 0.7;  // a warrior steps toward a beatable target
// Evaluation: how much a unit of strength and a nearby enemy warrior weigh in a seat's share.
constexpr double kStrengthWeight = 0.08;
constexpr double kThreatFactor = 0.6;  // share multiplier per enemy warrior near the king
constexpr int kThreatRadius = 2;

// Whether any enemy piece stands on the square and the warrior (of `seat`, `strength`) would
// win a combat there (G8, D6: ties to the attacker; a king there is always worth calling).
bool combatWins(const State& state, int seat, Square square, int strength) {
    bool anyone = false;
    for (int s = 0; s < state.seats(); ++s) {
        if (s == seat || state.eliminated(s)) continue;
        const int piece = state.pieces(s).pieceOn(square);
        if (piece < 0) continue;
        if (piece == kKing) return true;
        if (state.pieces(s)[piece].strength > strength) return false;
        anyone = true;
    }
    return anyone;
}

// The step of `piece` that brings it nearest to an enemy piece it can beat, kNoSquare if none.
Square greedyStep(const State& state, int seat, int piece) {
    const Geometry& g = state.geometry();
    const OwnPieces& own = state.pieces(seat);
    const int strength = own[piece].strength;
    Square target = kNoSquare;
    int best = std::numeric_limits<int>::max();
    for (int s = 0; s < state.seats(); ++s) {
        if (s == seat || state.eliminated(s)) continue;
        for (int q = 0; q < kPiecesPerSeat; ++q) {
            const Piece& p = state.pieces(s)[q];
            if (!p.alive || (q != kKing && p.strength > strength)) continue;
            const int d = chebyshev(g, own[piece].square, p.square) - (q == kKing ? 2 : 0);
            if (d < best) {
                best = d;
                target = p.square;
            }
        }
    }
    if (target == kNoSquare) return kNoSquare;
    Square step = kNoSquare;
    int nearest = std::numeric_limits<int>::max();
    for (Square to : pieceDestinations(own, piece, g)) {
        const int d = chebyshev(g, to, target);
        if (d < nearest) {
            nearest = d;
            step = to;
        }
    }
    return step;
}

Action rolloutTurn(const State& state, common::Random& random) {
    const int seat = state.toDecide();
    const Geometry& g = state.geometry();
    const OwnPieces& own = state.pieces(seat);
    for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w)
        if (own[w].alive && combatWins(state, seat, own[w].square, own[w].strength))
            return combatAction(own[w].square);
    if (own.kingAlive() && random.chance(kKingStepChance)) {
        const SquareList to = pieceDestinations(own, kKing, g);
        if (!to.empty())
            return moveAction(
                kKing, to[static_cast<int>(random.index(static_cast<std::size_t>(to.size())))]);
    }
    std::array<int, kWarriors> movable{};
    int count = 0;
    for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w)
        if (own[w].alive && !pieceDestinations(own, w, g).empty())
            movable[static_cast<std::size_t>(count++)] = w;
    if (count > 0) {
        const int w = movable[random.index(static_cast<std::size_t>(count))];
        if (random.chance(kGreedyStepChance)) {
            const Square step = greedyStep(state, seat, w);
            if (step != kNoSquare) return moveAction(w, step);
        }
        const SquareList to = pieceDestinations(own, w, g);
        return moveAction(w,
                          to[static_cast<int>(random.index(static_cast<std::size_t>(to.size())))]);
    }
    const SquareList kingTo = pieceDestinations(own, kKing, g);
    if (!kingTo.empty())
        return moveAction(
            kKing, kingTo[static_cast<int>(random.index(static_cast<std::size_t>(kingTo.size())))]);
    for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w)
        if (own[w].alive) return combatAction(own[w].square);
    return passAction();
}

// Node: one action in the search tree.
//   action    the action that leads here from the parent (the root's is unused)
//   seat      the seat that chose it (-1 at the root)
//   children  indices into the node pool
//   visits    simulations through this node; available: simulations in which its action was
//             legal at the parent (ISMCTS availability, the UCB1 "parent count")
//   reward    the sum of the rewards `seat` got in those simulations
// Size: about 96 bytes plus the children.
struct Node {
    Action action;
    int seat = -1;
    std::vector<int> children;
    int visits = 0;
    int available = 0;
    double reward = 0;
};

Rewards rollout(State& state, int rounds, common::Random& random) {
    int turnsLeft = rounds * std::max(1, state.survivors());
    while (!state.over() && turnsLeft > 0) {
        if (state.phase() == Phase::Turn) --turnsLeft;
        const int seat = state.toDecide();
        const Action action = rolloutAction(state, random);
        if (!state.apply(seat, action)) break;  // not reached: the policy plays legal actions
    }
    return evaluate(state);
}

double ucb(const Node& child, double exploration) {
    if (child.visits == 0) return std::numeric_limits<double>::infinity();
    return child.reward / child.visits +
           exploration * std::sqrt(std::log(std::max(1, child.available)) / child.visits);
}

// Steps 1-5 of one ISMCTS simulation (see ismcts.h) from a determinized state.
void simulate(std::vector<Node>& tree, State& state, const SearchLimits& limits,
              common::Random& random, std::vector<Action>& legal) {
    std::vector<int> path{0};
    int node = 0;
    while (!state.over()) {  // Step 2: select among the actions legal here
        const int seat = state.toDecide();
        legalActions(state.request(), state.pieces(seat), state.geometry(), legal);
        int untried = 0;
        int best = -1;
        double bestScore = -std::numeric_limits<double>::infinity();
        std::vector<char> seen(legal.size(), 0);
        for (int child : tree[static_cast<std::size_t>(node)].children) {
            Node& c = tree[static_cast<std::size_t>(child)];
            const auto it = std::find(legal.begin(), legal.end(), c.action);
            if (it == legal.end() || c.seat != seat) continue;
            seen[static_cast<std::size_t>(it - legal.begin())] = 1;
            ++c.available;
            const double score = ucb(c, limits.exploration);
            if (score > bestScore) {
                bestScore = score;
                best = child;
            }
        }
        for (char s : seen) untried += s ? 0 : 1;
        if (untried > 0) {  // Step 3: expand one untried action
            auto pick = static_cast<int>(random.index(static_cast<std::size_t>(untried)));
            std::size_t index = 0;
            for (; index < legal.size(); ++index)
                if (!seen[index] && pick-- == 0) break;
            Node fresh;
            fresh.action = legal[index];
            fresh.seat = seat;
            fresh.available = 1;
            tree.push_back(fresh);
            const int id = static_cast<int>(tree.size()) - 1;
            tree[static_cast<std::size_t>(node)].children.push_back(id);
            path.push_back(id);
            (void)state.apply(seat, fresh.action);
            break;
        }
        node = best;
        path.push_back(node);
        (void)state.apply(seat, tree[static_cast<std::size_t>(node)].action);
    }
    const Rewards rewards = rollout(state, limits.rolloutRounds, random);  // Step 4
    for (int id : path) {  // Step 5: each seat's own reward
        Node& n = tree[static_cast<std::size_t>(id)];
        ++n.visits;
        if (n.seat >= 0) n.reward += rewards[static_cast<std::size_t>(n.seat)];
    }
}

// A full state for the knowledge's seat's turn drawn from the belief (event logging off), or
// nothing when the sample cannot start a State.
std::optional<State> determinize(const Request& request, const Knowledge& k, const Belief& belief,
                                 common::Random& random) {
    return stateForTurn(request, k, belief.sample(k, random));
}

Action searchTurn(const Request& request, const Knowledge& k, const Belief& belief,
                  const SearchLimits& limits, common::Random& random, SearchStats* stats) {
    std::vector<Node> tree(1);
    tree.reserve(static_cast<std::size_t>(limits.simulations) + 1);
    std::vector<Action> legal;
    const SearchClock clock(limits.moveTimeMs);
    int done = 0;
    for (; done < limits.simulations && !clock.expired(done); ++done) {
        auto state = determinize(request, k, belief, random);  // Step 1
        if (!state) continue;
        simulate(tree, *state, limits, random, legal);
    }
    const std::vector<Action> rootLegal = legalActions(request, k.own(), k.geometry());
    Action best = rootLegal.front();
    int bestVisits = -1;
    for (int child : tree[0].children) {
        const Node& c = tree[static_cast<std::size_t>(child)];
        if (c.visits > bestVisits &&
            std::find(rootLegal.begin(), rootLegal.end(), c.action) != rootLegal.end()) {
            bestVisits = c.visits;
            best = c.action;
        }
    }
    if (stats) {
        stats->simulations = done;
        stats->nodes = static_cast<int>(tree.size());
        std::size_t bytes = tree.capacity() * sizeof(Node);
        for (const Node& n : tree) bytes += n.children.capacity() * sizeof(int);
        stats->treeBytes = bytes;
    }
    return best;
}

// The seat after `seat` still in (D9), and whether the round wrapped.
int nextSeat(const StartPosition& start, int seats, int seat, bool& wrapped) {
    for (int k = 1; k <= seats; ++k) {
        const int candidate = (seat + k) % seats;
        if (!start.pieces[static_cast<std::size_t>(candidate)].kingAlive()) continue;
        wrapped = seat + k >= seats;
        return candidate;
    }
    wrapped = false;
    return seat;
}

// A mid-combat reply applied to a determinization; the position of the next turn.
StartPosition afterReply(StartPosition start, const Request& request, const Action& action,
                         const Knowledge& k, common::Random& random) {
    const Geometry& g = k.geometry();
    const int self = k.seat();
    switch (request.kind) {
        case RequestKind::RetreatOrder: {
            OwnPieces& loser = start.pieces[static_cast<std::size_t>(request.loser)];
            const int piece = loser.pieceOn(request.from);
            if (piece < 0) break;
            Square to = action.square;
            if (loser.occupies(to)) {  // refused in this determinization: somewhere else
                const SquareList free = pieceDestinations(loser, piece, g);
                to = free.empty() ? request.from
                                  : free[static_cast<int>(
                                        random.index(static_cast<std::size_t>(free.size())))];
            }
            loser[piece].square = to;
            break;
        }
        case RequestKind::Withdraw:
            start.pieces[static_cast<std::size_t>(self)][request.piece].square = action.square;
            break;
        case RequestKind::Reward:
            ++start.pieces[static_cast<std::size_t>(self)][action.piece].strength;
            break;
        default:
            break;
    }
    bool wrapped = false;
    start.turnSeat = nextSeat(start, g.seats(), std::max(0, k.turnSeat()), wrapped);
    start.round = std::min(g.params().maxRounds, std::max(1, k.round()) + (wrapped ? 1 : 0));
    return start;
}

Action searchFromNextTurn(const Request& request, const Knowledge& k, const Belief& belief,
                          const SearchLimits& limits, common::Random& random, SearchStats* stats) {
    const std::vector<Action> legal = legalActions(request, k.own(), k.geometry());
    if (legal.size() == 1) return legal.front();
    std::vector<Node> arms(legal.size());
    const SearchClock clock(limits.moveTimeMs);
    int done = 0;
    for (; done < limits.simulations && !clock.expired(done); ++done) {
        std::size_t pick = 0;
        double bestScore = -std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < arms.size(); ++i) {
            arms[i].available = done + 1;
            const double score = ucb(arms[i], limits.exploration);
            if (score > bestScore) {
                bestScore = score;
                pick = i;
            }
        }
        const StartPosition start =
            afterReply(belief.sample(k, random), request, legal[pick], k, random);
        auto created = State::fromPosition(k.geometry().params(), start);
        Rewards rewards{};
        if (created) {
            State state = std::move(created).value();
            state.setEventLogging(false);
            rewards = rollout(state, limits.rolloutRounds, random);
        }
        ++arms[pick].visits;
        arms[pick].reward += rewards[static_cast<std::size_t>(k.seat())];
    }
    std::size_t best = 0;
    for (std::size_t i = 1; i < arms.size(); ++i)
        if (arms[i].visits > arms[best].visits) best = i;
    if (stats) {
        stats->simulations = done;
        stats->nodes = static_cast<int>(arms.size());
        stats->treeBytes = arms.capacity() * sizeof(Node);
    }
    return legal[best];
}

}  // namespace

std::optional<State> stateForTurn(const Request& request, const Knowledge& k, StartPosition start) {
    start.turnSeat = k.seat();
    start.round = std::max(1, request.round);
    auto created = State::fromPosition(k.geometry().params(), start);
    if (!created) return std::nullopt;
    State state = std::move(created).value();
    state.setEventLogging(false);
    return state;
}

Action rolloutAction(const State& state, common::Random& random) {
    const Request& request = state.request();
    const int seat = state.toDecide();
    const OwnPieces& own = state.pieces(seat);
    switch (request.kind) {
        case RequestKind::Turn:
            return rolloutTurn(state, random);
        case RequestKind::RetreatOrder: {
            std::array<Square, SquareList::kCapacity> options{};
            int count = 0;
            for (Square to : state.geometry().warriorSteps(request.from))
                if (std::find(request.refused.begin(), request.refused.end(), to) ==
                    request.refused.end())
                    options[static_cast<std::size_t>(count++)] = to;
            if (count == 0) return randomAction(request, own, state.geometry(), random);
            return orderAction(options[random.index(static_cast<std::size_t>(count))]);
        }
        case RequestKind::Withdraw: {
            const SquareList to = pieceDestinations(own, request.piece, state.geometry());
            if (to.empty()) return randomAction(request, own, state.geometry(), random);
            return withdrawAction(
                to[static_cast<int>(random.index(static_cast<std::size_t>(to.size())))]);
        }
        case RequestKind::Reward: {
            int best = -1;
            for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w)
                if (own[w].alive && (best < 0 || own[w].strength > own[best].strength)) best = w;
            return rewardAction(best < 0 ? kFirstWarrior : best);
        }
        case RequestKind::SetUp:
            break;
    }
    return randomAction(request, own, state.geometry(), random);
}

Rewards evaluate(const State& state) {
    Rewards rewards{};
    const int seats = state.seats();
    if (state.over()) {
        const Outcome& outcome = state.outcome();
        const int count = std::max(1, __builtin_popcount(outcome.seats));
        for (int s = 0; s < seats; ++s)
            if (outcome.seats & (1u << s)) rewards[static_cast<std::size_t>(s)] = 1.0 / count;
        return rewards;
    }
    const Geometry& g = state.geometry();
    double total = 0;
    for (int s = 0; s < seats; ++s) {
        if (state.eliminated(s)) continue;
        const OwnPieces& own = state.pieces(s);
        int strength = 0;
        for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w)
            if (own[w].alive) strength += own[w].strength;
        int threats = 0;
        for (int o = 0; o < seats; ++o) {
            if (o == s || state.eliminated(o)) continue;
            for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w) {
                const Piece& p = state.pieces(o)[w];
                if (p.alive && chebyshev(g, p.square, own[kKing].square) <= kThreatRadius)
                    ++threats;
            }
        }
        const double value = (1.0 + kStrengthWeight * strength) * std::pow(kThreatFactor, threats);
        rewards[static_cast<std::size_t>(s)] = value;
        total += value;
    }
    for (double& r : rewards) r = total > 0 ? r / total : 0;
    return rewards;
}

std::vector<double> rolloutValues(const Request& request, const Knowledge& k, const Belief& belief,
                                  const std::vector<Action>& candidates, const SearchLimits& limits,
                                  std::uint64_t seed, SearchStats* stats) {
    std::vector<double> total(candidates.size(), 0.0);
    common::Random random(seed);
    const SearchClock clock(limits.moveTimeMs);
    int done = 0;
    for (int s = 0; s < limits.simulations && !clock.expired(done); ++s) {
        const auto determinized = determinize(request, k, belief, random);
        if (!determinized) continue;
        const std::uint64_t rolloutSeed = random.next();
        for (std::size_t c = 0; c < candidates.size(); ++c) {
            State state = *determinized;
            if (!state.apply(k.seat(), candidates[c])) continue;
            common::Random rolloutRandom(rolloutSeed);
            total[c] += rollout(state, limits.rolloutRounds,
                                rolloutRandom)[static_cast<std::size_t>(k.seat())];
        }
        ++done;
    }
    for (double& t : total) t = done > 0 ? t / done : 0;
    if (stats) {
        stats->simulations = done;
        stats->nodes = static_cast<int>(candidates.size());
        stats->treeBytes = 0;
    }
    return total;
}

Action searchDecision(const Request& request, const Knowledge& knowledge, const Belief& belief,
                      const SearchLimits& limits, std::uint64_t seed, SearchStats* stats) {
    common::Random random(seed);
    SearchLimits bounded = limits;
    bounded.simulations = std::max(1, limits.simulations);
    if (request.kind == RequestKind::Turn)
        return searchTurn(request, knowledge, belief, bounded, random, stats);
    return searchFromNextTurn(request, knowledge, belief, bounded, random, stats);
}

}  // namespace torneio::play
