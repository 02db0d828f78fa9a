#include "torneio/play/heuristic.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "torneio/rules/distance.h"

namespace torneio::play {

namespace {

// Tuning constants of the scores (arbitrary units; only their order matters).
constexpr double kKingFound = 1000;       // a combat where a king was just seen
constexpr double kSureWin = 200;          // a combat against known weaker defenders
constexpr double kSureLoss = -80;         // a combat against a known stronger defender
constexpr double kLikelyWin = 60;         // a weaker defender seen there one move ago
constexpr double kZoneSearch = 30;        // a combat on an opponent's zone square not searched
constexpr double kPointlessCombat = -30;  // a combat where nobody was seen
constexpr double kPass = -1000;           // only when nothing else is legal
constexpr double kKingMoveCost = 4;       // the king stays put unless in danger
constexpr double kKingDanger = 60;        // per unit of danger the king escapes
constexpr double kNoise = 0.5;            // tie-breaking noise
constexpr int kSearchAgain = 8;           // rounds after which a searched square is searched again
constexpr int kTargetStaleness = 4;       // older sightings are no longer hunted

bool inOpponentZone(const Knowledge& k, Square s) {
    const Geometry& g = k.geometry();
    for (int seat = 0; seat < k.geometry().seats(); ++seat)
        if (seat != k.seat() && !k.eliminated(seat) &&
            inHomeZone(k.geometry().params(), seat, g.fileOf(s), g.rankOf(s)))
            return true;
    return false;
}

}  // namespace

void HeuristicPlayer::newGame(const Knowledge& knowledge, std::uint64_t seed) {
    random_.reseed(seed);
    sightings_.clear();
    searched_.assign(static_cast<std::size_t>(knowledge.geometry().squareCount()), 0);
    reveals_.clear();
}

int HeuristicPlayer::estimatedStrength(const Sighting& s, const Knowledge& knowledge) const {
    if (s.strength == kKingReveal) return kKingReveal;
    const int grown = knowledge.pointsGained(s.seat) - s.gainedAt;
    if (s.strength == kNotRevealed)
        return (knowledge.geometry().params().strengthTotal + 2) / 3 + grown;
    return s.strength + grown;
}

// ---- Memory ----------------------------------------------------------------------------------

// After the reveals of an opposed combat: without a king among them the square is searched.
void HeuristicPlayer::endOfReveals(const Knowledge& k) {
    if (k.combatSquare() == kNoSquare) return;
    const bool king = std::any_of(reveals_.begin(), reveals_.end(),
                                  [](const Reveal& r) { return r.value == kKingReveal; });
    if (!king) searched_[static_cast<std::size_t>(k.combatSquare())] = k.round();
}

// The sightings take every event (sightings.h); the player keeps the reveals of the combat
// being resolved and the squares searched.
void HeuristicPlayer::observe(const Event& e, const Knowledge& k) {
    sightings_.observe(e, k);
    switch (e.kind) {
        case EventKind::Turn:
        case EventKind::Combat:
            reveals_.clear();
            break;
        case EventKind::Unopposed:
            searched_[static_cast<std::size_t>(e.square)] = k.round();
            break;
        case EventKind::Reveal:
            reveals_.push_back(Reveal{e.seat, e.value});
            break;
        case EventKind::Result:
            endOfReveals(k);
            break;
        default:
            break;
    }
}

// ---- Scores ----------------------------------------------------------------------------------

// How threatened a square is: opponents' warriors seen close enough to have reached it (one
// step per move of their seat since), the fresher the more.
double HeuristicPlayer::danger(Square square, const Knowledge& k) const {
    double total = 0;
    for (const Sighting& s : sightings_.all()) {
        if (k.eliminated(s.seat) || s.strength == kKingReveal) continue;
        const int age = staleness(s);
        if (chebyshev(k.geometry(), square, s.square) <= age + 1) total += 1.0 / (1 + age);
    }
    return total;
}

// Distance from `from` to the nearest target of a warrior of this strength: a recent sighting
// of a king or of a piece it can beat (a king counts 3 squares nearer), else a square of an
// opponent's zone not searched lately; 0 when there is no target.
int HeuristicPlayer::targetDistance(Square from, int strength, const Knowledge& k) const {
    const Geometry& g = k.geometry();
    int best = std::numeric_limits<int>::max();
    for (const Sighting& s : sightings_.all()) {
        if (k.eliminated(s.seat) || staleness(s) > kTargetStaleness) continue;
        const int estimate = estimatedStrength(s, k);
        if (estimate == kKingReveal) best = std::min(best, chebyshev(g, from, s.square) - 3);
        if (estimate != kKingReveal && estimate <= strength)
            best = std::min(best, chebyshev(g, from, s.square));
    }
    if (best != std::numeric_limits<int>::max()) return best;
    for (Square q = 0; q < g.squareCount(); ++q) {
        const int searched = searched_[static_cast<std::size_t>(q)];
        if (searched > 0 && k.round() - searched <= kSearchAgain) continue;
        if (inOpponentZone(k, q)) best = std::min(best, chebyshev(g, from, q));
    }
    return best == std::numeric_limits<int>::max() ? 0 : best;
}

double HeuristicPlayer::scoreCombat(Square square, int strength, const Knowledge& k) const {
    bool freshKing = false;
    bool freshDefender = false;
    int strongest = -1;
    bool likely = false;
    for (const Sighting& s : sightings_.all()) {
        if (k.eliminated(s.seat) || s.square != square) continue;
        const int estimate = estimatedStrength(s, k);
        const int age = staleness(s);
        if (age == 0 && estimate == kKingReveal) freshKing = true;
        if (age == 0 && estimate != kKingReveal) {
            freshDefender = true;
            strongest = std::max(strongest, estimate);
        }
        if (age <= 1 && (estimate == kKingReveal || estimate <= strength)) likely = true;
    }
    if (freshKing) return kKingFound;
    if (freshDefender) return strongest <= strength ? kSureWin : kSureLoss;  // G8: ties to us
    if (likely) return kLikelyWin;
    const int searched = searched_[static_cast<std::size_t>(square)];
    if (strength > 0 && inOpponentZone(k, square) &&
        (searched == 0 || k.round() - searched > kSearchAgain))
        return kZoneSearch + strength;
    return kPointlessCombat;
}

double HeuristicPlayer::scoreWarriorStep(Square from, Square to, int strength,
                                         const Knowledge& k) const {
    double score =
        (targetDistance(from, strength, k) - targetDistance(to, strength, k)) * (6.0 + strength);
    for (const Sighting& s : sightings_.all()) {
        if (k.eliminated(s.seat) || s.square != to || staleness(s) > 0) continue;
        const int estimate = estimatedStrength(s, k);
        score += (estimate == kKingReveal || estimate <= strength) ? 20 : -40;
    }
    return score;
}

double HeuristicPlayer::scoreKingStep(Square from, Square to, const Knowledge& k) const {
    return (danger(from, k) - danger(to, k)) * kKingDanger - kKingMoveCost;
}

double HeuristicPlayer::scoreTurn(const Action& action, const Knowledge& k) const {
    switch (action.kind) {
        case ActionKind::Combat: {
            const Piece& warrior = k.own()[k.own().pieceOn(action.square)];
            return scoreCombat(action.square, warrior.strength, k);
        }
        case ActionKind::Move: {
            const Piece& piece = k.own()[action.piece];
            if (action.piece == kKing) return scoreKingStep(piece.square, action.square, k);
            return scoreWarriorStep(piece.square, action.square, piece.strength, k);
        }
        default:
            return kPass;
    }
}

// The winner orders the loser's piece: onto one of our warriors that beats it (a sure combat
// next turn), never onto or next to our king, else away from the king.
double HeuristicPlayer::scoreOrder(const Request& request, Square to, const Knowledge& k) const {
    int loserStrength = 0;
    for (const Reveal& r : reveals_)
        if (r.seat == request.loser) loserStrength = r.value;
    const Piece& king = k.own()[kKing];
    const int fromKing = king.alive ? chebyshev(k.geometry(), to, king.square) : 99;
    if (fromKing == 0) return -1000;
    double score = std::min(fromKing, 6) * 2.0 - (fromKing == 1 ? 20 : 0);
    const int mine = k.own().pieceOn(to);
    if (mine > kKing && k.own()[mine].strength >= loserStrength) score += 50;
    return score;
}

// ---- Decisions -------------------------------------------------------------------------------

Action HeuristicPlayer::chooseSetUp(const Request& request, const Knowledge& k) {
    const Geometry& g = k.geometry();
    std::vector<Square> zone(g.zone(k.seat()).begin(), g.zone(k.seat()).end());
    random_.shuffle(std::span<Square>(zone));
    std::stable_sort(zone.begin(), zone.end(), [&](Square a, Square b) {
        return edgeDistance(g, k.seat(), a) < edgeDistance(g, k.seat(), b);
    });
    // zone[0] is on the back line: the king. The front-most squares take the warriors, the
    // strongest in front: about half the free points, then a bit over half of the rest.
    SetUp setUp;
    setUp.king = zone.front();
    const int minimum = k.geometry().params().minStrength;
    const int free = k.geometry().params().strengthTotal - kWarriors * minimum;
    const int first = (free + 1) / 2;
    const int second = (free - first + 1) / 2;
    const std::array<int, kWarriors> split{first, second, free - first - second};
    for (std::size_t w = 0; w < kWarriors; ++w) {
        setUp.warriors[w] = zone[zone.size() - 1 - w];
        setUp.strengths[w] = minimum + split[w];
    }
    const Action action = setUpAction(setUp);
    if (isLegal(request, k.own(), g, action)) return action;
    return randomAction(request, k.own(), g, random_);
}

Action HeuristicPlayer::chooseReward(const Knowledge& k) const {
    int best = -1;
    for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w)
        if (k.own()[w].alive && (best < 0 || k.own()[w].strength > k.own()[best].strength))
            best = w;
    return rewardAction(best < 0 ? kFirstWarrior : best);
}

Action HeuristicPlayer::decide(const Request& request, const Knowledge& k) {
    if (request.kind == RequestKind::SetUp) return chooseSetUp(request, k);
    if (request.kind == RequestKind::Reward) {
        const Action reward = chooseReward(k);
        if (isLegal(request, k.own(), k.geometry(), reward)) return reward;
    }
    const std::vector<Action> legal = legalActions(request, k.own(), k.geometry());
    Action best = legal.front();
    double bestScore = -std::numeric_limits<double>::infinity();
    for (const Action& action : legal) {
        double score = random_.unit() * kNoise;
        switch (request.kind) {
            case RequestKind::Turn:
                score += scoreTurn(action, k);
                break;
            case RequestKind::RetreatOrder:
                score += scoreOrder(request, action.square, k);
                break;
            case RequestKind::Withdraw: {
                const Piece& piece = k.own()[request.piece];
                score += scoreWarriorStep(piece.square, action.square, piece.strength, k) -
                         20 * danger(action.square, k);
                break;
            }
            default:
                break;
        }
        if (score > bestScore) {
            bestScore = score;
            best = action;
        }
    }
    return best;
}

std::unique_ptr<Player> makeHeuristicPlayer() {
    return std::make_unique<HeuristicPlayer>();
}

}  // namespace torneio::play
