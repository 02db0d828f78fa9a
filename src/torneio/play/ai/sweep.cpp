// The hunt's planned sweep (sweep.h, ai.h HuntWeights::planHorizon).
#include "torneio/play/ai/sweep.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "torneio/rules/distance.h"

namespace torneio::play {

namespace {

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

}  // namespace

// A turn action's planned value: the king mass its probe finds now plus what the sweep finds
// after it (a king step: the sweep from the unchanged warriors). The turn's own score
// (scoreTurnAction: risks, hiding) is added beside it.
double planTurnAction(const Geometry& g, const BeliefMap& map, const HuntWeights& weights,
                      const Sweep& start, const Action& a) {
    Sweep s = start;
    double found = 0;
    if (a.kind == ActionKind::Combat)
        found = weights.combatWeight * probe(s, a.square);
    else if (a.kind == ActionKind::Move)
        s.pieces[static_cast<std::size_t>(a.piece)] = a.square;
    return found + sweepValue(g, std::move(s), map, weights);
}

Sweep sweepStart(const OwnPieces& own, const BeliefMap& map) {
    Sweep s;
    for (int i = 0; i < kPiecesPerSeat; ++i)
        s.pieces[static_cast<std::size_t>(i)] = own[i].alive ? own[i].square : kNoSquare;
    s.fields = map.kingFields;
    return s;
}

}  // namespace torneio::play
