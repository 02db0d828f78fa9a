// The king's grid filter of a Belief (belief.h kingField_): its start from the KingPrior, the
// recent sightings the fleeing king avoids, a "moved" as a diffusion over the mobility
// hypotheses, a public fact as a scaling of one square, and the weighted mixture. The
// particles are in belief.cpp.
#include <algorithm>

#include "torneio/play/ai/belief.h"
#include "torneio/rules/distance.h"

namespace torneio::play {

namespace {

// The chance that a "moved" was the king's, per mobility hypothesis. The last hypothesis is a
// king that keeps still unless a warrior of another seat was seen (a public sighting,
// Belief::sightings_) within kFleeRadius, and then steps away from the sightings with
// probability kFleeChance.
constexpr std::array<double, kKingMobilities> kKingMoveChance{0.0, 0.01, 0.04, 0.12, 0.3, 0.0};
constexpr std::size_t kFleeingKing = Belief::kFleeingHypothesis;
constexpr int kFleeRadius = 3;
constexpr double kFleeChance = 0.3;
// How many of the latest public sightings of warriors the fleeing hypothesis remembers.
constexpr std::size_t kRecentSightings = 9;
// OpponentModel::policyTypes: the restless hypothesis is the uniformly random mover, and each
// hypothesis' share of combat calls among the turns of the kind of player it stands for: a
// still king, a hunter and a restless king (the ai: 0.2), the random player (3 combat calls
// among about 35 legal actions: 0.11) and the heuristic player (its fleeing king: 0.3).
// Measured with `torneio-ai-eval --belief` (docs/torneio-strength.md, eighth pass).
constexpr std::size_t kRandomMover = Belief::kRandomMoverHypothesis;
constexpr std::array<double, kKingMobilities> kCombatShare{0.2, 0.2, 0.2, 0.2, 0.11, 0.3};
// The mean count of a warrior's legal steps (8 neighbours, fewer on edges and blocked squares).
constexpr double kWarriorStepsMean = 7.0;
// The least weight a hypothesis keeps after a turn is weighed: a player that changes its
// behaviour can still be followed.
constexpr double kLeastTurnWeight = 1e-4;

}  // namespace

// The king filter's start (KingPrior): uniform over the zone, plus the back line's and its two
// ends' shares; sums to 1 (weights outside [0, 1] or summing past 1 are clamped).
std::vector<double> Belief::kingPriorField(int seat) const {
    const std::span<const Square> zone = geometry_.zone(seat);
    const std::vector<Square> back = backLine(geometry_, seat);
    const double lineShare = back.empty() ? 0.0 : std::clamp(prior_.backLine, 0.0, 1.0);
    const double cornerShare =
        back.empty() ? 0.0 : std::clamp(prior_.corners, 0.0, 1.0 - lineShare);
    std::vector<double> field(static_cast<std::size_t>(geometry_.squareCount()), 0.0);
    for (Square z : zone)
        field[static_cast<std::size_t>(z)] =
            (1.0 - lineShare - cornerShare) / static_cast<double>(zone.size());
    for (Square z : back)
        field[static_cast<std::size_t>(z)] += lineShare / static_cast<double>(back.size());
    if (!back.empty()) {
        field[static_cast<std::size_t>(back.front())] += cornerShare / 2;
        field[static_cast<std::size_t>(back.back())] += cornerShare / 2;
    }
    return field;
}

// ---- Sightings for the fleeing king -----------------------------------------------------------

int Belief::nearestSighting(int seat, Square square) const {
    int best = 1 << 20;
    for (const Sighting& s : sightings_)
        if (s.seat != seat) best = std::min(best, chebyshev(geometry_, square, s.square));
    return best;
}

void Belief::see(int seat, Square square) {
    if (square == kNoSquare) return;
    sightings_.push_back(Sighting{.seat = seat, .square = square});
    if (sightings_.size() > kRecentSightings) sightings_.erase(sightings_.begin());
}

int kingStepTargets(const Geometry& geometry, Square from, std::array<Square, 8>& to) {
    int count = 0;
    for (int direction : kOrthogonalDirections) {
        const Square one = geometry.step(from, direction);
        if (one == kNoSquare) continue;
        to[static_cast<std::size_t>(count++)] = one;
        const Square two = geometry.step(one, direction);
        if (two != kNoSquare) to[static_cast<std::size_t>(count++)] = two;
    }
    return count;
}

std::vector<double> diffuseKingField(const Geometry& geometry, const std::vector<double>& field,
                                     double stepChance) {
    std::vector<double> next(field.size(), 0.0);
    std::array<Square, 8> to{};
    for (Square q = 0; q < geometry.squareCount() && static_cast<std::size_t>(q) < field.size();
         ++q) {
        const double p = field[static_cast<std::size_t>(q)];
        if (p <= 0) continue;
        const int count = kingStepTargets(geometry, q, to);
        if (count == 0) {
            next[static_cast<std::size_t>(q)] += p;
            continue;
        }
        next[static_cast<std::size_t>(q)] += p * (1 - stepChance);
        for (int i = 0; i < count; ++i)
            next[static_cast<std::size_t>(to[static_cast<std::size_t>(i)])] +=
                p * stepChance / count;
    }
    return next;
}

// G5: the king may have taken one step of one or two squares orthogonally (blockers ignored),
// with each hypothesis' probability.
void Belief::diffuseKing(int seat) {
    KingModels& models = kingModels_[static_cast<std::size_t>(seat)];
    for (std::size_t h = 0; h < kKingMobilities; ++h) {
        std::vector<double>& field = models.field[h];
        if (field.empty() || (kKingMoveChance[h] <= 0 && h != kFleeingKing)) continue;
        std::vector<double> next(field.size(), 0.0);
        for (Square q = 0; q < geometry_.squareCount(); ++q) {
            const double p = field[static_cast<std::size_t>(q)];
            if (p <= 0) continue;
            std::array<Square, 8> to{};
            int count = kingStepTargets(geometry_, q, to);
            double mu = kKingMoveChance[h];
            if (h == kRandomMover && model_.policyTypes) mu = randomMoverKingShare(seat, count);
            if (h == kFleeingKing && nearestSighting(seat, q) <= kFleeRadius) {
                // Steps to the squares farthest from the sightings.
                mu = kFleeChance;
                int far = -1;
                for (int i = 0; i < count; ++i)
                    far = std::max(far, nearestSighting(seat, to[static_cast<std::size_t>(i)]));
                int kept = 0;
                for (int i = 0; i < count; ++i)
                    if (nearestSighting(seat, to[static_cast<std::size_t>(i)]) == far)
                        to[static_cast<std::size_t>(kept++)] = to[static_cast<std::size_t>(i)];
                count = kept;
            }
            next[static_cast<std::size_t>(q)] += p * (1 - mu);
            for (int i = 0; i < count; ++i)
                next[static_cast<std::size_t>(to[static_cast<std::size_t>(i)])] += p * mu / count;
        }
        field = std::move(next);
    }
    mixKing(seat);
}

double Belief::kingStepChance(int seat) const {
    const KingModels& models = kingModels_[static_cast<std::size_t>(seat)];
    if (models.field[0].empty()) return 0.0;
    // A king in the open has 8 steps (fewer on edges): the random mover's share is taken there.
    constexpr int kOpenKingSteps = 8;
    double chance = 0;
    for (std::size_t h = 0; h < kKingMobilities; ++h) {
        double mu = kKingMoveChance[h];
        if (h == kRandomMover && model_.policyTypes)
            mu = randomMoverKingShare(seat, kOpenKingSteps);
        const double moves = model_.policyTypes ? 1 - kCombatShare[h] : 1.0;
        chance += models.weight[h] * moves * mu;
    }
    return chance;
}

double Belief::kingMoveChance(int seat, int hypothesis, int kingSteps) const {
    const auto h = static_cast<std::size_t>(std::clamp(hypothesis, 0, kKingMobilities - 1));
    if (h == kRandomMover && model_.policyTypes) return randomMoverKingShare(seat, kingSteps);
    if (h == kFleeingKing) return kFleeChance;
    return kKingMoveChance[h];
}

double Belief::combatShare(int hypothesis) const {
    if (!model_.policyTypes) return kDefaultCombatShare;
    return kCombatShare[static_cast<std::size_t>(std::clamp(hypothesis, 0, kKingMobilities - 1))];
}

// A random player's "moved" is the king's with the share of the king's steps among all the
// seat's steps (each of its living warriors about kWarriorStepsMean).
double Belief::randomMoverKingShare(int seat, int kingSteps) const {
    const std::vector<Particle>& ps = particles_[static_cast<std::size_t>(seat)];
    const int warriors = ps.empty() ? kWarriors : ps.front().pieces.livingWarriors();
    const double all = kingSteps + warriors * kWarriorStepsMean;
    return all > 0 ? kingSteps / all : 0.0;
}

// OpponentModel::policyTypes: a turn of the seat (a combat call or a "moved") weighs each
// hypothesis by its kind's share of such turns.
void Belief::weighTurn(int seat, bool combat) {
    if (!model_.policyTypes) return;
    KingModels& models = kingModels_[static_cast<std::size_t>(seat)];
    if (models.field[0].empty()) return;
    double total = 0;
    for (std::size_t h = 0; h < kKingMobilities; ++h) {
        models.weight[h] *= combat ? kCombatShare[h] : 1 - kCombatShare[h];
        total += models.weight[h];
    }
    if (total <= 0) return;
    double floored = 0;
    for (double& w : models.weight) {
        w = std::max(w / total, kLeastTurnWeight);
        floored += w;
    }
    for (double& w : models.weight) w /= floored;
    mixKing(seat);
}

// Multiplies the square's probability (0: no king there) in every hypothesis; each
// hypothesis' weight takes the likelihood of the fact (its mass left). When every hypothesis
// is refuted (the events contradict every model: a bad line), the filter starts again from
// the widest belief consistent with this fact, uniform over every other square of the board,
// the hypotheses alike, and the event is counted in resets().
void Belief::scaleKing(int seat, Square square, double factor) {
    KingModels& models = kingModels_[static_cast<std::size_t>(seat)];
    if (models.field[0].empty() || square == kNoSquare) return;
    double weights = 0;
    for (std::size_t h = 0; h < kKingMobilities; ++h) {
        std::vector<double>& field = models.field[h];
        field[static_cast<std::size_t>(square)] *= factor;
        double total = 0;
        for (double p : field) total += p;
        if (total > 1e-12)
            for (double& p : field) p /= total;
        models.weight[h] *= total;
        weights += models.weight[h];
    }
    if (weights > 1e-30) {
        for (double& w : models.weight) w /= weights;
    } else {
        ++resets_;
        for (std::size_t h = 0; h < kKingMobilities; ++h) {
            std::vector<double>& field = models.field[h];
            const bool excluded = factor <= 0 && field.size() > 1;
            const double each = 1.0 / static_cast<double>(field.size() - (excluded ? 1 : 0));
            std::fill(field.begin(), field.end(), each);
            if (excluded) field[static_cast<std::size_t>(square)] = 0;
            models.weight[h] = 1.0 / kKingMobilities;
        }
    }
    mixKing(seat);
}

void Belief::mixKing(int seat) {
    const KingModels& models = kingModels_[static_cast<std::size_t>(seat)];
    std::vector<double>& mixed = kingField_[static_cast<std::size_t>(seat)];
    mixed.assign(models.field[0].size(), 0.0);
    for (std::size_t h = 0; h < kKingMobilities; ++h)
        for (std::size_t q = 0; q < mixed.size(); ++q)
            mixed[q] += models.weight[h] * models.field[h][q];
}

}  // namespace torneio::play
