// The hunt policy (ai.h huntDecision, huntScores): the `ai` player's decisions but the set-up,
// from the belief's per-square summaries (mapBelief) alone; the planned sweep is sweep.h's.
#include <algorithm>
#include <cmath>
#include <vector>

#include "torneio/play/ai/ai.h"
#include "torneio/play/ai/sweep.h"
#include "torneio/rules/distance.h"

namespace torneio::play {

BeliefMap mapBelief(const Belief& belief, const Knowledge& k) {
    const auto squares = static_cast<std::size_t>(k.geometry().squareCount());
    BeliefMap map;
    map.king.assign(squares, 0.0);
    map.warriors.assign(squares, 0.0);
    for (auto& s : map.stronger) s.assign(squares, 0.0);
    const OwnPieces& own = k.own();
    for (int seat = 0; seat < k.geometry().seats(); ++seat) {
        if (seat == k.seat() || k.eliminated(seat)) continue;
        const std::vector<Particle>& ps = belief.particles(seat);
        if (ps.empty()) continue;
        const double weight = 1.0 / static_cast<double>(ps.size());
        const std::vector<double>& field = belief.kingField(seat);
        for (std::size_t q = 0; q < field.size(); ++q) map.king[q] += field[q];
        map.kingFields.push_back(field);
        map.kingSteps.push_back(belief.kingStepChance(seat));
        for (const Particle& p : ps) {
            for (int i = 0; i < kPiecesPerSeat; ++i) {
                const Piece& piece = p.pieces[i];
                if (!piece.alive) continue;
                const auto q = static_cast<std::size_t>(piece.square);
                if (i == kKing) continue;  // the king's grid filter below
                map.warriors[q] += weight;
                for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w)
                    if (own[w].alive && piece.strength > own[w].strength)
                        map.stronger[static_cast<std::size_t>(w)][q] += weight;
            }
        }
    }
    return map;
}

namespace {

// Hunters: the squares of the own living warriors, for the coverage sum.
struct Hunters {
    std::array<Square, kWarriors> squares{};
    int count = 0;
};

Hunters huntersOf(const OwnPieces& own) {
    Hunters h;
    for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w)
        if (own[w].alive) h.squares[static_cast<std::size_t>(h.count++)] = own[w].square;
    return h;
}

// Coverage: sum over squares of P(king there) times the chance that at least one hunter finds
// it, each hunter independently with reach^distance.
double coverage(const Hunters& hunters, const BeliefMap& map, const Geometry& g,
                const std::vector<double>& reachPow) {
    double total = 0;
    for (Square q = 0; q < g.squareCount(); ++q) {
        const double p = map.king[static_cast<std::size_t>(q)];
        if (p <= 0) continue;
        double miss = 1;
        for (int i = 0; i < hunters.count; ++i)
            miss *= 1 - reachPow[static_cast<std::size_t>(
                            chebyshev(g, hunters.squares[static_cast<std::size_t>(i)], q))];
        total += p * (1 - miss);
    }
    return total;
}

// Expected enemy warriors on the square or next to it: what threatens a king standing there.
double kingDanger(Square square, const BeliefMap& map, const Geometry& g) {
    double danger = map.warriors[static_cast<std::size_t>(square)];
    for (Square n : g.warriorSteps(square)) danger += map.warriors[static_cast<std::size_t>(n)];
    return danger;
}

// HuntContext: what every score of one decision reads.
struct HuntContext {
    const OwnPieces& own;
    const Geometry& g;
    const BeliefMap& map;
    const HuntWeights& weights;
    std::vector<double> reachPow;
    double baseCoverage = 0;
    // Per living hunter (huntersOf's order), per square: the chance it misses a king there,
    // 1 - reach^distance; a warrior step recomputes only the stepping hunter's.
    Hunters hunters;
    std::array<std::vector<double>, kWarriors> miss;
};

void prepareCoverage(HuntContext& c) {
    c.hunters = huntersOf(c.own);
    for (int i = 0; i < c.hunters.count; ++i) {
        std::vector<double>& miss = c.miss[static_cast<std::size_t>(i)];
        miss.resize(static_cast<std::size_t>(c.g.squareCount()));
        for (Square q = 0; q < c.g.squareCount(); ++q)
            miss[static_cast<std::size_t>(q)] =
                1 - c.reachPow[static_cast<std::size_t>(
                        chebyshev(c.g, c.hunters.squares[static_cast<std::size_t>(i)], q))];
    }
}

// coverage() with the hunter at index `moved` (huntersOf's order) on `to`: the same sum, in
// the same order of factors, from the kept misses of the others.
double coverageWithStep(const HuntContext& c, int moved, Square to) {
    double total = 0;
    for (Square q = 0; q < c.g.squareCount(); ++q) {
        const double p = c.map.king[static_cast<std::size_t>(q)];
        if (p <= 0) continue;
        double miss = 1;
        for (int i = 0; i < c.hunters.count; ++i)
            miss *= i == moved ? 1 - c.reachPow[static_cast<std::size_t>(chebyshev(c.g, to, q))]
                               : c.miss[static_cast<std::size_t>(i)][static_cast<std::size_t>(q)];
        total += p * (1 - miss);
    }
    return total;
}

double scoreCombat(const HuntContext& c, Square square) {
    const int w = c.own.pieceOn(square);
    const auto q = static_cast<std::size_t>(square);
    return c.weights.combatWeight * c.map.king[q] -
           c.weights.loseRisk * c.map.stronger[static_cast<std::size_t>(w)][q];
}

double scoreWarriorStep(const HuntContext& c, int warrior, Square to) {
    double gain = 0;  // a king (G9 withdrawal) hunts nothing
    if (warrior >= kFirstWarrior && c.own[warrior].alive) {
        int moved = 0;  // the warrior's index among the living hunters
        for (int w = kFirstWarrior; w < warrior; ++w) moved += c.own[w].alive ? 1 : 0;
        gain = coverageWithStep(c, moved, to) - c.baseCoverage;
    }
    const double risk =
        c.map.stronger[static_cast<std::size_t>(warrior)][static_cast<std::size_t>(to)];
    return c.weights.moveWeight * gain - c.weights.loseRisk * risk;
}

double scoreKingStep(const HuntContext& c, Square from, Square to) {
    const Geometry& g = c.g;
    double hide = 0;
    if (!c.map.exposure.empty())
        hide = c.weights.hideWeight * (c.map.exposure[static_cast<std::size_t>(from)] -
                                       c.map.exposure[static_cast<std::size_t>(to)]);
    return c.weights.kingDanger * (kingDanger(from, c.map, g) - kingDanger(to, c.map, g)) + hide -
           c.weights.kingMoveCost;
}

double scoreTurnAction(const HuntContext& c, const Action& a) {
    switch (a.kind) {
        case ActionKind::Combat:
            return scoreCombat(c, a.square);
        case ActionKind::Move:
            if (a.piece == kKing) return scoreKingStep(c, c.own[kKing].square, a.square);
            return scoreWarriorStep(c, a.piece, a.square);
        default:
            return -1e9;  // pass: only when nothing else is legal
    }
}

// G9: the loser goes as far from the own king as its steps allow.
double scoreOrder(const HuntContext& c, Square to) {
    const Piece& king = c.own[kKing];
    const double probe = c.weights.probeWeight * c.map.king[static_cast<std::size_t>(to)];
    if (!king.alive) return probe;
    return probe + std::min(chebyshev(c.g, to, king.square), 6);
}

Action strongestReward(const OwnPieces& own) {
    int best = -1;
    for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w)
        if (own[w].alive && (best < 0 || own[w].strength > own[best].strength)) best = w;
    return rewardAction(best < 0 ? kFirstWarrior : best);
}

}  // namespace

Action huntDecision(const Request& request, const Knowledge& k, const Belief& belief,
                    const HuntWeights& weights, common::Random& random) {
    if (request.kind == RequestKind::Reward ||
        legalActions(request, k.own(), k.geometry()).size() == 1)
        return huntDecision(request, k, BeliefMap{}, weights, random);
    return huntDecision(request, k, mapBelief(belief, k), weights, random);
}

std::vector<double> huntScores(const Request& request, const Knowledge& k, const BeliefMap& map,
                               const HuntWeights& weights, common::Random& random) {
    return huntScores(request, k.own(), k.geometry(), map, weights, random);
}

std::vector<double> huntScores(const Request& request, const OwnPieces& own, const Geometry& g,
                               const BeliefMap& map, const HuntWeights& weights,
                               common::Random& random) {
    const std::vector<Action> legal = legalActions(request, own, g);
    HuntContext c{own, g, map, weights, {}, 0, {}, {}};
    for (int d = 0; d <= g.size(); ++d) c.reachPow.push_back(std::pow(weights.reach, d));
    c.baseCoverage = coverage(huntersOf(own), map, g, c.reachPow);
    prepareCoverage(c);
    const bool plan = request.kind == RequestKind::Turn && weights.planHorizon > 0 &&
                      !map.kingFields.empty() && map.kingSteps.size() == map.kingFields.size();
    const Sweep start = plan ? sweepStart(own, map) : Sweep{};
    std::vector<double> scores;
    scores.reserve(legal.size());
    for (const Action& a : legal) {
        double score = random.unit() * 1e-6;  // seeded tie-break
        switch (request.kind) {
            case RequestKind::Turn:
                score += scoreTurnAction(c, a);
                if (plan) score += weights.planWeight * planTurnAction(g, map, weights, start, a);
                break;
            case RequestKind::RetreatOrder:
                score += scoreOrder(c, a.square);
                break;
            case RequestKind::Withdraw:
                score += scoreWarriorStep(c, request.piece, a.square);
                break;
            default:
                break;
        }
        scores.push_back(score);
    }
    return scores;
}

Action huntDecision(const Request& request, const Knowledge& k, const BeliefMap& map,
                    const HuntWeights& weights, common::Random& random) {
    return huntDecision(request, k.own(), k.geometry(), map, weights, random);
}

Action huntDecision(const Request& request, const OwnPieces& own, const Geometry& g,
                    const BeliefMap& map, const HuntWeights& weights, common::Random& random) {
    if (request.kind == RequestKind::Reward) {
        const Action reward = strongestReward(own);
        if (isLegal(request, own, g, reward)) return reward;
    }
    const std::vector<Action> legal = legalActions(request, own, g);
    if (legal.size() == 1) return legal.front();
    const std::vector<double> scores = huntScores(request, own, g, map, weights, random);
    const auto best = std::max_element(scores.begin(), scores.end()) - scores.begin();
    return legal[static_cast<std::size_t>(best)];
}

}  // namespace torneio::play
