#include "torneio/play/ai/ai.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "common/logging.h"
#include "torneio/play/ai/ai_options.h"
#include "torneio/play/ai/model_search.h"
#include "torneio/rules/distance.h"

namespace torneio::play {

namespace {

// D3: the free points (above the minimum) split in the given proportions of 10, the rounding
// remainder on the first warrior.
std::array<int, kWarriors> split(const Params& params, std::array<int, kWarriors> tenths) {
    const int free = params.strengthTotal - kWarriors * params.minStrength;
    std::array<int, kWarriors> strengths{};
    int given = 0;
    for (std::size_t w = 1; w < kWarriors; ++w) {
        strengths[w] = free * tenths[w] / 10;
        given += strengths[w];
    }
    strengths[0] = free - given;
    for (int& s : strengths) s += params.minStrength;
    return strengths;
}

SetUp backSetUp(const Knowledge& k, common::Random& random) {
    const Geometry& g = k.geometry();
    std::vector<Square> zone(g.zone(k.seat()).begin(), g.zone(k.seat()).end());
    random.shuffle(std::span<Square>(zone));
    std::stable_sort(zone.begin(), zone.end(), [&](Square a, Square b) {
        return edgeDistance(g, k.seat(), a) < edgeDistance(g, k.seat(), b);
    });
    SetUp setUp;
    setUp.king = zone.front();
    setUp.strengths = split(g.params(), {5, 3, 2});
    for (std::size_t w = 0; w < kWarriors; ++w) setUp.warriors[w] = zone[zone.size() - 1 - w];
    return setUp;
}

// The king on `king`, the warriors on the zone squares farthest from it, split 4/3/3.
SetUp awayFromKing(const Knowledge& k, Square king) {
    const Geometry& g = k.geometry();
    std::vector<Square> zone(g.zone(k.seat()).begin(), g.zone(k.seat()).end());
    std::stable_sort(zone.begin(), zone.end(), [&](Square a, Square b) {
        return chebyshev(g, a, king) > chebyshev(g, b, king);
    });
    SetUp setUp;
    setUp.king = king;
    setUp.strengths = split(g.params(), {4, 3, 3});
    for (std::size_t w = 0; w < kWarriors; ++w) setUp.warriors[w] = zone[w];
    return setUp;
}

SetUp cornerSetUp(const Knowledge& k, common::Random& random) {
    // The back-line squares at either end of the zone: the king takes one at random.
    const std::vector<Square> back = backLine(k.geometry(), k.seat());
    return awayFromKing(k, random.chance(0.5) ? back.front() : back.back());
}

SetUp mixedSetUp(const Knowledge& k, common::Random& random) {
    const Geometry& g = k.geometry();
    const std::span<const Square> zone = g.zone(k.seat());
    const std::vector<Square> back = backLine(g, k.seat());
    std::vector<double> weight;
    double total = 0;
    for (Square z : zone) {
        const bool onBack = std::find(back.begin(), back.end(), z) != back.end();
        const bool end = !back.empty() && (z == back.front() || z == back.back());
        weight.push_back(end ? kMixedSetUpWeights[0]
                             : (onBack ? kMixedSetUpWeights[1] : kMixedSetUpWeights[2]));
        total += weight.back();
    }
    double pick = random.unit() * total;
    std::size_t chosen = 0;
    while (chosen + 1 < weight.size() && pick >= weight[chosen]) pick -= weight[chosen++];
    return awayFromKing(k, zone[chosen]);
}

SetUp spreadSetUp(const Knowledge& k, common::Random& random) {
    const Geometry& g = k.geometry();
    std::vector<Square> zone(g.zone(k.seat()).begin(), g.zone(k.seat()).end());
    random.shuffle(std::span<Square>(zone));
    SetUp setUp;
    setUp.king = zone[0];
    setUp.strengths = split(g.params(), {4, 3, 3});
    for (std::size_t w = 0; w < kWarriors; ++w) setUp.warriors[w] = zone[w + 1];
    return setUp;
}

}  // namespace

std::optional<SetUpPolicy> parseSetUpPolicy(std::string_view name) {
    for (std::size_t i = 0; i < std::size(kSetUpPolicyNames); ++i)
        if (kSetUpPolicyNames[i] == name) return static_cast<SetUpPolicy>(i);
    return std::nullopt;
}

std::optional<OpponentModel> parseBeliefModel(std::string_view name) {
    if (name == kBeliefModelNames[0]) return OpponentModel{.policyTypes = false};
    if (name == kBeliefModelNames[1]) return OpponentModel{.policyTypes = true};
    return std::nullopt;
}

SetUp chooseSetUp(SetUpPolicy policy, const Knowledge& k, common::Random& random) {
    if (policy == SetUpPolicy::Auto)
        policy = k.geometry().seats() == 2 ? SetUpPolicy::Corner : SetUpPolicy::Back;
    Request request;
    request.kind = RequestKind::SetUp;
    request.seat = k.seat();
    SetUp setUp;
    switch (policy) {
        case SetUpPolicy::Back:
            setUp = backSetUp(k, random);
            break;
        case SetUpPolicy::Corner:
            setUp = cornerSetUp(k, random);
            break;
        case SetUpPolicy::Spread:
            setUp = spreadSetUp(k, random);
            break;
        case SetUpPolicy::Mixed:
            setUp = mixedSetUp(k, random);
            break;
        case SetUpPolicy::Random:
        case SetUpPolicy::Auto:  // resolved above
            return randomAction(request, k.own(), k.geometry(), random).setUp;
    }
    if (isLegal(request, k.own(), k.geometry(), setUpAction(setUp))) return setUp;
    return randomAction(request, k.own(), k.geometry(), random).setUp;
}

// ---- The hunt policy -------------------------------------------------------------------------

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

// ---- The planned sweep (HuntWeights::planHorizon) ----------------------------------------------

// Sweep: the state the planner rolls forward: the own warriors' squares (by piece index;
// kNoSquare when dead), the own king's (it blocks warrior steps, G5), and per opponent the
// king mass not yet found (a field that starts at the belief's and loses what each probe finds).
struct Sweep {
    std::array<Square, kPiecesPerSeat> pieces{};
    std::vector<std::vector<double>> fields;
};

double massOn(const Sweep& s, Square q) {
    double mass = 0;
    for (const std::vector<double>& f : s.fields) mass += f[static_cast<std::size_t>(q)];
    return mass;
}

// G7: a combat on q finds the kings there: their mass leaves the fields.
double probe(Sweep& s, Square q) {
    const double found = massOn(s, q);
    for (std::vector<double>& f : s.fields) f[static_cast<std::size_t>(q)] = 0;
    return found;
}

bool ownOn(const Sweep& s, Square q) {
    return std::find(s.pieces.begin(), s.pieces.end(), q) != s.pieces.end();
}

// The mass a warrior on q is drawn to: every square's mass, weighed by kSweepPull per square
// of distance (the sweep's steps climb it where no neighbour has mass).
constexpr double kSweepPull = 0.5;
constexpr double kSweepPullWeight = 0.01;
// The weight of the pull of the warriors' squares at the end of the horizon.
constexpr double kSweepTerminal = 0.1;

double pull(const Geometry& g, const Sweep& s, Square q, const std::vector<double>& pullPow) {
    double total = 0;
    for (Square r = 0; r < g.squareCount(); ++r)
        total += massOn(s, r) * pullPow[static_cast<std::size_t>(chebyshev(g, q, r))];
    return total;
}

// The sweep's own turn: the probe with the most mass, or the warrior step onto the most mass
// (worth it one turn later, plus a little of the pull it gains), whichever is more; returns
// the mass found.
double sweepTurn(const Geometry& g, Sweep& s, double discount, const std::vector<double>& pullPow) {
    double best = -1;
    int piece = -1;
    Square to = kNoSquare;
    for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w) {
        const Square at = s.pieces[static_cast<std::size_t>(w)];
        if (at == kNoSquare) continue;
        const double here = massOn(s, at);
        if (here > best) {
            best = here;
            piece = w;
            to = kNoSquare;
        }
        const double pullHere = pull(g, s, at, pullPow);
        for (Square n : g.warriorSteps(at)) {
            if (ownOn(s, n)) continue;
            const double there =
                discount * massOn(s, n) + kSweepPullWeight * (pull(g, s, n, pullPow) - pullHere);
            if (there > best) {
                best = there;
                piece = w;
                to = n;
            }
        }
    }
    if (piece < 0) return 0;
    if (to == kNoSquare) return probe(s, s.pieces[static_cast<std::size_t>(piece)]);
    s.pieces[static_cast<std::size_t>(piece)] = to;
    return 0;
}

// The mass the sweep finds in the `horizon` turns after the current one, each opponent's
// turn diffusing its field first; discounted a turn.
double sweepValue(const Geometry& g, Sweep s, const BeliefMap& map, const HuntWeights& weights) {
    std::vector<double> pullPow;
    for (int d = 0; d <= g.size(); ++d) pullPow.push_back(std::pow(kSweepPull, d));
    double total = 0;
    double weight = 1;
    for (int t = 0; t < weights.planHorizon; ++t) {
        for (std::size_t o = 0; o < s.fields.size(); ++o)
            s.fields[o] = diffuseKingField(g, s.fields[o], map.kingSteps[o]);
        weight *= weights.planDiscount;
        total += weight * sweepTurn(g, s, weights.planDiscount, pullPow);
    }
    // What is left near the warriors after the horizon: they find some of it later.
    for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w)
        if (s.pieces[static_cast<std::size_t>(w)] != kNoSquare)
            total += weight * kSweepTerminal *
                     pull(g, s, s.pieces[static_cast<std::size_t>(w)], pullPow);
    return total;
}

// A turn action's planned value: the king mass its probe finds now plus what the sweep finds
// after it (a king step: the sweep from the unchanged warriors). The turn's own score
// (scoreTurnAction: risks, hiding) is added beside it.
double planTurnAction(const HuntContext& c, const Sweep& start, const Action& a) {
    const Geometry& g = c.g;
    Sweep s = start;
    double found = 0;
    if (a.kind == ActionKind::Combat)
        found = c.weights.combatWeight * probe(s, a.square);
    else if (a.kind == ActionKind::Move)
        s.pieces[static_cast<std::size_t>(a.piece)] = a.square;
    return found + sweepValue(g, std::move(s), c.map, c.weights);
}

Sweep sweepStart(const OwnPieces& own, const BeliefMap& map) {
    Sweep s;
    for (int i = 0; i < kPiecesPerSeat; ++i)
        s.pieces[static_cast<std::size_t>(i)] = own[i].alive ? own[i].square : kNoSquare;
    s.fields = map.kingFields;
    return s;
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
                if (plan) score += weights.planWeight * planTurnAction(c, start, a);
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

Action guidedDecision(const Request& request, const Knowledge& k, const Belief& belief,
                      const HuntWeights& hunt, const GuidedWeights& guided,
                      const SearchLimits& limits, std::uint64_t seed, SearchStats* stats) {
    return guidedDecision(request, k, belief, mapBelief(belief, k), hunt, guided, limits, seed,
                          stats);
}

Action guidedDecision(const Request& request, const Knowledge& k, const Belief& belief,
                      const BeliefMap& map, const HuntWeights& hunt, const GuidedWeights& guided,
                      const SearchLimits& limits, std::uint64_t seed, SearchStats* stats) {
    common::Random random(seed);
    const std::vector<Action> legal = legalActions(request, k.own(), k.geometry());
    if (request.kind != RequestKind::Turn || limits.simulations <= 0 || legal.size() == 1)
        return huntDecision(request, k, map, hunt, random);
    const std::vector<double> scores = huntScores(request, k, map, hunt, random);
    // The hunt's first best, then its next best ones (ties keep the legal order).
    std::vector<std::size_t> order(legal.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
    order.resize(std::min(order.size(), static_cast<std::size_t>(std::max(1, guided.candidates))));
    std::vector<Action> candidates;
    for (std::size_t i : order) candidates.push_back(legal[i]);
    const std::vector<double> values =
        rolloutValues(request, k, belief, candidates, limits, common::mixSeed(seed, 1), stats);
    std::size_t best = 0;
    for (std::size_t c = 1; c < candidates.size(); ++c)
        if (values[c] > values[best] + (best == 0 ? guided.huntBias : 0.0)) best = c;
    return candidates[best];
}

// ---- The player ------------------------------------------------------------------------------

void AiPlayer::configure(const common::Options& options) {
    if (options.find("Simulations"))
        config_.limits.simulations = static_cast<int>(options.intValue("Simulations"));
    if (options.find("MoveTime"))
        config_.limits.moveTimeMs = static_cast<int>(options.intValue("MoveTime"));
    if (options.find("Particles"))
        config_.particles = static_cast<int>(options.intValue("Particles"));
    if (options.find("SetUpPolicy"))
        if (auto policy = parseSetUpPolicy(options.stringValue("SetUpPolicy")))
            config_.setUp = *policy;
    if (options.find("KingPriorBack"))
        config_.kingPrior.backLine = static_cast<double>(options.intValue("KingPriorBack")) / 100.0;
    if (options.find("KingPriorCorners"))
        config_.kingPrior.corners =
            static_cast<double>(options.intValue("KingPriorCorners")) / 100.0;
    if (options.find("BeliefModel"))
        if (auto model = parseBeliefModel(options.stringValue("BeliefModel")))
            config_.opponentModel = *model;
    if (options.find("HideWeight"))
        config_.hunt.hideWeight = static_cast<double>(options.intValue("HideWeight"));
    if (options.find("HuntPlan"))
        config_.hunt.planHorizon = static_cast<int>(options.intValue("HuntPlan"));
    if (options.find("RandomMoves"))
        config_.randomMoves = static_cast<int>(options.intValue("RandomMoves"));
    if (options.find("Level"))
        for (const auto& level : kAiLevels)
            if (options.stringValue("Level") == level.name && level.randomMoves > 0)
                config_.randomMoves = level.randomMoves;
    if (options.find("Policy"))
        for (std::size_t i = 0; i < std::size(kDecisionPolicyNames); ++i)
            if (options.stringValue("Policy") == kDecisionPolicyNames[i])
                config_.policy = static_cast<DecisionPolicy>(i);
}

void AiPlayer::newGame(const Knowledge& knowledge, std::uint64_t seed) {
    seed_ = seed;
    decisions_ = 0;
    belief_ = std::make_unique<Belief>(knowledge.geometry().params(), knowledge.seat(),
                                       config_.particles, common::mixSeed(seed, ~0ull),
                                       config_.kingPrior, config_.opponentModel);
    exposure_.clear();
    if (config_.hunt.hideWeight > 0)
        for (int s = 0; s < knowledge.geometry().seats(); ++s)
            if (s != knowledge.seat())
                exposure_.push_back(
                    std::make_unique<Belief>(knowledge.geometry().params(), s, kMinParticles,
                                             common::mixSeed(seed, static_cast<std::uint64_t>(s)),
                                             config_.kingPrior, config_.opponentModel));
    lastStats_ = {};
}

void AiPlayer::observe(const Event& event, const Knowledge& knowledge) {
    const int resets = belief_->resets();
    belief_->observe(event, knowledge);
    if (belief_->resets() > resets)
        common::logger().info(
            "ai seat {}: '{}' contradicts the belief; it restarts from the widest consistent "
            "one ({} such events this game)",
            knowledge.seat() + 1, formatEvent(event, knowledge.geometry()), belief_->resets());
    for (auto& exposure : exposure_) exposure->observe(event, knowledge);
}

// BeliefMap::exposure: per square, the opponents' belief that the own king stands there (their
// king filters of the own seat, summed), times the expected enemy warriors within two squares
// of it (at most 1): where a combat on the own king is expected soon. A king far from every
// enemy warrior stays where it is however well it is predicted.
std::vector<double> AiPlayer::exposure(const Knowledge& knowledge, const BeliefMap& map) const {
    const Geometry& g = knowledge.geometry();
    std::vector<double> exposed(map.king.size(), 0.0);
    for (std::size_t o = 0; o < exposure_.size(); ++o) {
        const int opponent = static_cast<int>(o) + (static_cast<int>(o) >= knowledge.seat());
        if (knowledge.eliminated(opponent)) continue;
        const std::vector<double>& field = exposure_[o]->kingField(knowledge.seat());
        for (std::size_t q = 0; q < field.size() && q < exposed.size(); ++q) exposed[q] += field[q];
    }
    for (Square q = 0; q < g.squareCount(); ++q) {
        double near = 0;
        for (Square r = 0; r < g.squareCount(); ++r)
            if (chebyshev(g, q, r) <= kExposureRadius)
                near += map.warriors[static_cast<std::size_t>(r)];
        exposed[static_cast<std::size_t>(q)] *= std::min(1.0, near);
    }
    return exposed;
}

Action AiPlayer::decide(const Request& request, const Knowledge& knowledge) {
    const std::uint64_t seed = common::mixSeed(seed_, decisions_++);
    if (request.kind == RequestKind::SetUp) {
        common::Random random(seed);
        return setUpAction(chooseSetUp(config_.setUp, knowledge, random));
    }
    if (config_.randomMoves > 0) {
        common::Random random(common::mixSeed(seed, 2));
        if (random.below(100) < static_cast<std::uint64_t>(config_.randomMoves))
            return randomAction(request, knowledge.own(), knowledge.geometry(), random);
    }
    if (config_.policy == DecisionPolicy::Search)
        return searchDecision(request, knowledge, *belief_, config_.limits, seed, &lastStats_);
    BeliefMap map;
    if (request.kind != RequestKind::Reward &&
        legalActions(request, knowledge.own(), knowledge.geometry()).size() > 1) {
        map = mapBelief(*belief_, knowledge);
        if (!exposure_.empty() && request.kind == RequestKind::Turn)
            map.exposure = exposure(knowledge, map);
    }
    if (config_.policy == DecisionPolicy::Ismcts && request.kind == RequestKind::Turn)
        for (std::size_t o = 0; o < exposure_.size(); ++o) {
            const int opponent = static_cast<int>(o) + (static_cast<int>(o) >= knowledge.seat());
            if (!knowledge.eliminated(opponent))
                map.seenKing[static_cast<std::size_t>(opponent)] =
                    exposure_[o]->kingField(knowledge.seat());
        }
    if (config_.policy == DecisionPolicy::Ismcts)
        return modelSearchDecision(request, knowledge, *belief_, map, config_.hunt, config_.model,
                                   config_.limits, seed, &lastStats_);
    if (config_.policy == DecisionPolicy::Guided)
        return guidedDecision(request, knowledge, *belief_, map, config_.hunt, config_.guided,
                              config_.limits, seed, &lastStats_);
    common::Random random(seed);
    return huntDecision(request, knowledge, map, config_.hunt, random);
}

std::unique_ptr<Player> makeAiPlayer() {
    return std::make_unique<AiPlayer>();
}

std::unique_ptr<Player> makeAiPlayer(const AiConfig& config) {
    return std::make_unique<AiPlayer>(config);
}

}  // namespace torneio::play

namespace torneio::play {

void addAiOptions(common::Options& options) {
    options.add({"Simulations",
                 common::OptionType::Spin,
                 std::to_string(kDefaultSimulations),
                 0,
                 kMaxSimulations,
                 {},
                 {}});
    options.add({"MoveTime", common::OptionType::Spin, "0", 0, kMaxMoveTimeMs, {}, {}});
    options.add({"Particles",
                 common::OptionType::Spin,
                 std::to_string(kDefaultParticles),
                 kMinParticles,
                 kMaxParticles,
                 {},
                 {}});
    common::Option policy{"SetUpPolicy",
                          common::OptionType::Combo,
                          std::string(kSetUpPolicyNames[static_cast<int>(kDefaultSetUpPolicy)]),
                          0,
                          0,
                          {},
                          {}};
    for (std::string_view name : kSetUpPolicyNames) policy.choices.emplace_back(name);
    options.add(policy);
    common::Option decisions{
        "Policy", common::OptionType::Combo, std::string(kDecisionPolicyNames[0]), 0, 0, {}, {}};
    for (std::string_view name : kDecisionPolicyNames) decisions.choices.emplace_back(name);
    options.add(decisions);
    options.add({"KingPriorBack",
                 common::OptionType::Spin,
                 std::to_string(kDefaultKingPriorBackPercent),
                 0,
                 100,
                 {},
                 {}});
    options.add({"KingPriorCorners",
                 common::OptionType::Spin,
                 std::to_string(kDefaultKingPriorCornersPercent),
                 0,
                 100,
                 {},
                 {}});
    common::Option model{
        "BeliefModel", common::OptionType::Combo, std::string(kBeliefModelNames[1]), 0, 0, {}, {}};
    for (std::string_view name : kBeliefModelNames) model.choices.emplace_back(name);
    options.add(model);
    options.add({"HideWeight",
                 common::OptionType::Spin,
                 std::to_string(kDefaultHideWeight),
                 0,
                 kMaxHideWeight,
                 {},
                 {}});
    options.add({"HuntPlan",
                 common::OptionType::Spin,
                 std::to_string(kDefaultHuntPlan),
                 0,
                 kMaxHuntPlan,
                 {},
                 {}});
    options.add({"RandomMoves", common::OptionType::Spin, "0", 0, 100, {}, {}});
    common::Option levels{"Level", common::OptionType::Combo, "strong", 0, 0, {}, {}};
    for (const auto& level : kAiLevels) levels.choices.emplace_back(level.name);
    options.add(levels);
}

}  // namespace torneio::play
