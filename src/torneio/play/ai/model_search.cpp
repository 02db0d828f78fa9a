#include "torneio/play/ai/model_search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <vector>

#include "torneio/play/ai/ismcts.h"
#include "torneio/rules/distance.h"

namespace torneio::play {

namespace {

// The fleeing king (the heuristic's) steps only when a warrior of another seat stands within
// this many squares of it (Chebyshev), as the belief's fleeing hypothesis assumes.
constexpr int kFleeRadius = 3;
// A king in the open has 8 steps (G5): the random mover's king share is taken there.
constexpr int kOpenKingSteps = 8;

// RolloutBelief: the own seat's belief inside one simulation.
//   map          the root's BeliefMap; its king probabilities are recomputed from `fields`
//   fields[s]    opponent s's king field (empty: the own seat, or s is out)
//   stepChance[s]  the chance a move of s is its king's step, under the belief's weighted
//                mobility hypotheses (the own seat does not know the kind it plays against)
//   hunts[s]     opponent s's map for its own hunt of the own king: its belief about the own
//                king (BeliefMap::seenKing) as the simulated events change it, no warriors
//                (empty: not kept)
struct RolloutBelief {
    BeliefMap map;
    std::array<std::vector<double>, kMaxSeats> fields;
    std::array<double, kMaxSeats> stepChance{};
    std::array<BeliefMap, kMaxSeats> hunts;
};

// The chance an opponent gives a "moved" of the own seat to be the own king's step: the own
// king's steps among all its steps, as the random mover's share (the own king moves rarely;
// an opponent that models it as still would never spread its belief).
constexpr double kOwnKingStepChance = 0.05;

RolloutBelief rolloutBelief(const Belief& belief, const Knowledge& k, const BeliefMap& map) {
    RolloutBelief r;
    r.map = map;
    for (int s = 0; s < k.geometry().seats(); ++s) {
        if (s == k.seat() || k.eliminated(s) || belief.kingField(s).empty()) continue;
        const auto i = static_cast<std::size_t>(s);
        r.fields[i] = belief.kingField(s);
        const std::array<double, kKingMobilities>& w = belief.kingMobilityWeights(s);
        for (int h = 0; h < kKingMobilities; ++h)
            if (h != Belief::kFleeingHypothesis)
                r.stepChance[i] +=
                    w[static_cast<std::size_t>(h)] * belief.kingMoveChance(s, h, kOpenKingSteps);
        const std::vector<double>& seen = map.seenKing[i];
        if (seen.empty()) continue;
        BeliefMap& hunt = r.hunts[i];
        hunt.king = seen;
        hunt.warriors.assign(seen.size(), 0.0);
        for (auto& stronger : hunt.stronger) stronger.assign(seen.size(), 0.0);
    }
    return r;
}

void emptyField(std::vector<double>& f, Square q) {
    if (f.empty()) return;
    f[static_cast<std::size_t>(q)] = 0;
    const double total = std::accumulate(f.begin(), f.end(), 0.0);
    if (total > 1e-12)
        for (double& p : f) p /= total;
}

void refreshKingMap(RolloutBelief& r) {
    std::fill(r.map.king.begin(), r.map.king.end(), 0.0);
    for (const std::vector<double>& f : r.fields)
        for (std::size_t q = 0; q < f.size() && q < r.map.king.size(); ++q) r.map.king[q] += f[q];
}

// A combat on q that eliminated no one: no king of any seat stands there (G11).
void emptySquare(RolloutBelief& r, Square q) {
    for (std::vector<double>& f : r.fields) emptyField(f, q);
    for (BeliefMap& hunt : r.hunts) emptyField(hunt.king, q);
}

// The own seat's view of what the last applied action told it (the public events: a "moved"
// of the seat, a combat on a square, eliminations).
void observe(RolloutBelief& r, const State& state, int self, int seat, const Action& action) {
    if (action.kind == ActionKind::Move && seat != self) {
        auto& f = r.fields[static_cast<std::size_t>(seat)];
        if (!f.empty())
            f = diffuseKingField(state.geometry(), f, r.stepChance[static_cast<std::size_t>(seat)]);
    } else if (action.kind == ActionKind::Move) {
        for (BeliefMap& hunt : r.hunts)
            if (!hunt.king.empty())
                hunt.king = diffuseKingField(state.geometry(), hunt.king, kOwnKingStepChance);
    } else if (action.kind == ActionKind::Combat) {
        emptySquare(r, action.square);
    }
    for (int s = 0; s < state.seats(); ++s)
        if (state.eliminated(s)) r.fields[static_cast<std::size_t>(s)].clear();
}

Square randomOf(const SquareList& squares, common::Random& random) {
    return squares[static_cast<int>(random.index(static_cast<std::size_t>(squares.size())))];
}

// The nearest warrior of another seat to `square` (Chebyshev), a large number if none.
int nearestOtherWarrior(const State& state, int seat, Square square) {
    int best = 1 << 20;
    for (int s = 0; s < state.seats(); ++s) {
        if (s == seat || state.eliminated(s)) continue;
        for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w) {
            const Piece& p = state.pieces(s)[w];
            if (p.alive) best = std::min(best, chebyshev(state.geometry(), square, p.square));
        }
    }
    return best;
}

// An opponent's turn by its kind (the mobility hypothesis h of Belief): the random mover any
// legal action alike; a still king or a hunter (h below the random mover) the hunt on its
// belief about the own king when the player keeps one (its king stepping with its kind's
// chance first); otherwise, and for the fleeing king, a combat call with its kind's share, a
// king step with its kind's chance, else a warrior step at random.
Action modelTurn(const State& state, int seat, int h, const Belief& belief, const RolloutBelief& r,
                 const HuntWeights& hunt, common::Random& random) {
    const Geometry& g = state.geometry();
    const OwnPieces& own = state.pieces(seat);
    if (h < 0 || h == Belief::kRandomMoverHypothesis)
        return randomAction(state.request(), own, g, random);
    const BeliefMap& theirs = r.hunts[static_cast<std::size_t>(seat)];
    if (h < Belief::kRandomMoverHypothesis && !theirs.king.empty()) {
        const SquareList to = pieceDestinations(own, kKing, g);
        if (own.kingAlive() && !to.empty() &&
            random.chance(belief.kingMoveChance(seat, h, to.size())))
            return moveAction(kKing, randomOf(to, random));
        return huntDecision(state.request(), own, g, theirs, hunt, random);
    }
    std::array<int, kWarriors> living{};
    int count = 0;
    for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w)
        if (own[w].alive) living[static_cast<std::size_t>(count++)] = w;
    if (count > 0 && random.chance(belief.combatShare(h)))
        return combatAction(own[living[random.index(static_cast<std::size_t>(count))]].square);
    if (own.kingAlive()) {
        const SquareList to = pieceDestinations(own, kKing, g);
        if (!to.empty()) {
            if (h == Belief::kFleeingHypothesis) {
                const Square at = own[kKing].square;
                if (nearestOtherWarrior(state, seat, at) <= kFleeRadius &&
                    random.chance(belief.kingMoveChance(seat, h, to.size()))) {
                    Square far = to[0];
                    for (Square q : to)
                        if (nearestOtherWarrior(state, seat, q) >
                            nearestOtherWarrior(state, seat, far))
                            far = q;
                    return moveAction(kKing, far);
                }
            } else if (random.chance(belief.kingMoveChance(seat, h, to.size()))) {
                return moveAction(kKing, randomOf(to, random));
            }
        }
    }
    std::array<int, kWarriors> movable{};
    int movers = 0;
    for (int i = 0; i < count; ++i)
        if (!pieceDestinations(own, living[static_cast<std::size_t>(i)], g).empty())
            movable[static_cast<std::size_t>(movers++)] = living[static_cast<std::size_t>(i)];
    if (movers > 0) {
        const int w = movable[random.index(static_cast<std::size_t>(movers))];
        return moveAction(w, randomOf(pieceDestinations(own, w, g), random));
    }
    return randomAction(state.request(), own, g, random);
}

// Step 3: the value of the simulation's end for the own seat.
double leafValue(const State& state, const RolloutBelief& r, int self,
                 const ModelSearchWeights& weights) {
    if (state.over()) {
        const Outcome& outcome = state.outcome();
        if (!(outcome.seats & (1u << self))) return 0;
        return 1.0 / std::max(1, __builtin_popcount(outcome.seats));
    }
    if (state.eliminated(self)) return 0;
    const Geometry& g = state.geometry();
    const OwnPieces& own = state.pieces(self);
    double found = 0;
    for (Square q = 0; q < g.squareCount(); ++q) {
        const double p = r.map.king[static_cast<std::size_t>(q)];
        if (p <= 0) continue;
        for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w)
            if (own[w].alive && chebyshev(g, own[w].square, q) <= 1) {
                found += p;
                break;
            }
    }
    double exposed = 0;
    if (!r.map.exposure.empty() && own.kingAlive())
        exposed = r.map.exposure[static_cast<std::size_t>(own[kKing].square)];
    const double value = 1.0 / std::max(1, state.survivors()) +
                         weights.findWeight * std::min(1.0, found) -
                         weights.exposureWeight * std::min(1.0, exposed);
    return std::clamp(value, 0.0, 1.0);
}

// The king of `pieces` drawn again from `field` off `excluded` and the squares of its own
// warriors; false when the field has no mass left there.
bool redrawKing(OwnPieces& pieces, const std::vector<double>& field, Square excluded,
                common::Random& random) {
    double free = 0;
    for (std::size_t q = 0; q < field.size(); ++q)
        if (static_cast<Square>(q) != excluded && pieces.pieceOn(static_cast<Square>(q)) <= kKing)
            free += field[q];
    if (free <= 1e-12) return false;
    double at = random.unit() * free;
    Square last = kNoSquare;
    for (std::size_t q = 0; q < field.size(); ++q) {
        const auto square = static_cast<Square>(q);
        if (square == excluded || pieces.pieceOn(square) > kKing || field[q] <= 0) continue;
        last = square;
        at -= field[q];
        if (at < 0) break;
    }
    pieces[kKing].square = last;
    return true;
}

// Steps 1-3 for root action `action`, on the n-th determinization.
std::optional<double> simulate(const Request& request, const Knowledge& k, const Belief& belief,
                               const BeliefMap& map, const HuntWeights& hunt,
                               const ModelSearchWeights& weights, const Action& action,
                               std::uint64_t seed) {
    common::Random random(seed);
    std::array<int, kMaxSeats> kinds{};
    StartPosition start = belief.sampleWithKingFilter(k, random, kinds);  // Step 1
    // With 2 seats a root combat on q wins at once with the drawn hypothesis' probability of
    // the king on q: that share is counted exactly, and the simulation plays the rest of the
    // cases (the king drawn again off q), which takes the largest noise out of the root.
    double foundNow = 0;
    const int other = 1 - k.seat();
    if (weights.exactFind && action.kind == ActionKind::Combat && k.geometry().seats() == 2 &&
        kinds[static_cast<std::size_t>(other)] >= 0) {
        const std::vector<double>& field =
            belief.kingField(other, kinds[static_cast<std::size_t>(other)]);
        foundNow = field[static_cast<std::size_t>(action.square)];
        OwnPieces& theirs = start.pieces[static_cast<std::size_t>(other)];
        if (foundNow >= 1 - 1e-12 || !redrawKing(theirs, field, action.square, random))
            return foundNow;
    }
    auto created = stateForTurn(request, k, std::move(start));
    if (!created) return std::nullopt;
    State state = std::move(*created);
    const int self = k.seat();
    RolloutBelief r = rolloutBelief(belief, k, map);
    if (!state.apply(self, action)) return std::nullopt;
    observe(r, state, self, self, action);
    int turnsLeft = std::max(1, weights.horizon) * std::max(1, state.survivors());  // Step 2
    double discount = 1;
    while (!state.over() && !state.eliminated(self) && turnsLeft > 0) {
        const int seat = state.toDecide();
        Action next;
        if (state.phase() != Phase::Turn) {
            next = rolloutAction(state, random);
        } else if (seat == self) {
            --turnsLeft;
            discount *= weights.discount;
            refreshKingMap(r);
            next = huntDecision(state.request(), state.pieces(self), state.geometry(), r.map, hunt,
                                random);
        } else {
            --turnsLeft;
            next = modelTurn(state, seat, kinds[static_cast<std::size_t>(seat)], belief, r, hunt,
                             random);
        }
        if (!state.apply(seat, next)) break;  // not reached: every policy plays legal actions
        observe(r, state, self, seat, next);
    }
    refreshKingMap(r);
    return foundNow + (1 - foundNow) * discount * leafValue(state, r, self, weights);  // Step 3
}

// Arm: one root action. n: simulations run on it; total: their summed values.
struct Arm {
    Action action;
    int n = 0;
    double total = 0;
    double mean() const { return n > 0 ? total / n : 0; }
};

}  // namespace

Action modelSearchDecision(const Request& request, const Knowledge& k, const Belief& belief,
                           const BeliefMap& map, const HuntWeights& hunt,
                           const ModelSearchWeights& weights, const SearchLimits& limits,
                           std::uint64_t seed, SearchStats* stats) {
    common::Random random(seed);
    const std::vector<Action> legal = legalActions(request, k.own(), k.geometry());
    if (request.kind != RequestKind::Turn || legal.size() == 1 || limits.simulations <= 0)
        return huntDecision(request, k, map, hunt, random);
    // The hunt's best candidates, first best first (ties keep the legal order).
    const std::vector<double> scores = huntScores(request, k, map, hunt, random);
    std::vector<std::size_t> order(legal.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
    // The own king's steps stay the hunt's (model_search.h: the search cannot value hiding).
    const auto kingStep = [](const Action& a) {
        return a.kind == ActionKind::Move && a.piece == kKing;
    };
    if (kingStep(legal[order.front()])) return legal[order.front()];
    std::erase_if(order, [&](std::size_t i) { return kingStep(legal[i]); });
    order.resize(std::min(order.size(), static_cast<std::size_t>(std::max(1, weights.candidates))));
    // A clear decision of the hunt is its own: the search only breaks near ties.
    if (weights.closeMargin > 0 &&
        (order.size() < 2 || scores[order[0]] - scores[order[1]] > weights.closeMargin)) {
        if (stats) *stats = SearchStats{};
        return legal[order.front()];
    }
    std::vector<Arm> arms;
    for (std::size_t i : order) arms.push_back(Arm{legal[i]});
    const std::uint64_t simulationSeed = common::mixSeed(seed, 1);
    const SearchClock clock(limits.moveTimeMs);
    int done = 0;
    for (; done < limits.simulations && !clock.expired(done); ++done) {
        std::size_t pick = 0;
        double best = -std::numeric_limits<double>::infinity();
        for (std::size_t a = 0; a < arms.size(); ++a) {
            const double score =
                arms[a].n == 0
                    ? std::numeric_limits<double>::infinity()
                    : arms[a].mean() + weights.exploration * std::sqrt(std::log(done) / arms[a].n);
            if (score > best) {
                best = score;
                pick = a;
            }
        }
        Arm& arm = arms[pick];
        const std::optional<double> value =
            simulate(request, k, belief, map, hunt, weights, arm.action,
                     common::mixSeed(simulationSeed, static_cast<std::uint64_t>(arm.n)));
        arm.total += value.value_or(arm.mean());  // a sample no State accepts: neutral
        ++arm.n;
    }
    // The best mean among the arms tried, the hunt's choice (arm 0) credited huntBias; ties to
    // the hunt's order.
    const auto value = [&](std::size_t a) {
        return arms[a].mean() + (a == 0 ? weights.huntBias : 0.0);
    };
    std::size_t chosen = 0;
    for (std::size_t a = 1; a < arms.size(); ++a)
        if (arms[a].n > 0 && value(a) > value(chosen)) chosen = a;
    if (stats) {
        stats->simulations = done;
        stats->nodes = static_cast<int>(arms.size());
        stats->treeBytes = arms.capacity() * sizeof(Arm);
    }
    return arms[chosen].action;
}

}  // namespace torneio::play
