// Belief: what one seat believes about its opponents' hidden pieces, built from its own
// Knowledge and the event lines it receives (D8) and nothing else: never the referee's State.
// It is the AI's resampler: sample() draws a full position consistent with what the seat has
// seen, usable with State::fromPosition; the search (ismcts.h) plays its determinizations from
// such positions.
//
// Representation: per opponent, a set of equally weighted particles; each particle is one full
// hypothesis of that opponent's pieces (squares, strengths) with, per piece, the last square
// the particle pinned it to and how many of the seat's moves it attributes to the piece since
// (its reach). Opponents are independent given the public events, so a determinization draws
// one particle per opponent.
//
// Every public event narrows the particles (torneio-rules.md):
//   moved s          G6: one piece of s takes one random legal G5 step (warriors more likely)
//   withdrew s       G9: the piece of s on the combat square steps to a random legal square
//   combat s q       G7: a warrior of s stands on q
//   unopposed s q    D5: no other seat has a piece on q
//   reveal s v|king  G7/D12.1: the piece of s on the combat square is a king / a warrior of
//                    strength v (strengths only grow, D3: never below an earlier reveal)
//   result           every opponent that did not reveal has no piece on the combat square
//   refused s q      G9: a piece of s stands on q
//   retreat s q      G9: the piece of s on the combat square now stands on q
//   removed s q      D7: the piece of s on q leaves the game
//   eliminated s     G11: s is out
//   gained s n       G10: n points go onto living warriors of s (half the particles put them
//                    all on the strongest, as a greedy player would; the others spread them)
// A particle that contradicts an event is first dropped (resampling from the survivors keeps
// the set's size); when fewer than a quarter survive, the others are repaired: the piece is
// moved to where the event needs it, when its own attributed moves since its last pin allow it
// (the particle stays a possible history).
// Only when no particle can be repaired at all are they forced (teleported) and the event is
// counted in resets(): from then on the belief is approximate. Likewise when the events leave
// an opponent's king filter no square under any hypothesis (a line no model explains), the
// filter restarts uniform over the squares the event leaves possible and the event is counted.
// The Belief never prints: the player (AiPlayer::observe) logs each counted reset.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "common/random.h"
#include "torneio/play/knowledge.h"
#include "torneio/play/sightings.h"
#include "torneio/rules/action.h"
#include "torneio/rules/event.h"
#include "torneio/rules/geometry.h"
#include "torneio/rules/params.h"
#include "torneio/rules/state.h"

namespace torneio::play {

inline constexpr int kDefaultParticles = 256;
// The king filter's hypotheses about how often an opponent moves its king (belief_king.cpp).
inline constexpr int kKingMobilities = 6;
// The share of combat calls among an opponent's turns assumed without OpponentModel::policyTypes.
inline constexpr double kDefaultCombatShare = 0.2;

// KingPrior: where the king filter expects an opponent's king before any event (D2 allows any
// square of the zone). A mixture of set-up styles, the rest of the weight uniform over the zone
// (a random player's set-up):
//   backLine  on the seat's own edge line, any of its squares (the heuristic player's and the
//             `back` set-up's king)
//   corners   on either end of that line (the `corner` set-up's king, the ai's own with 2 seats)
// The filter's events then weigh the styles implicitly: the prior is a mixture, the filter is
// linear, so a style whose squares the public facts empty loses its mass.
struct KingPrior {
    double backLine = 0.0;
    double corners = 0.0;
};

// OpponentModel: what the king filter reads of an opponent beyond the public facts about
// squares.
//   policyTypes  off: the mobility hypotheses are weighed by those facts alone. On: each
//                hypothesis also stands for a kind of player (a still king, a hunter like the
//                ai, a restless king, a uniformly random mover, the heuristic's fleeing
//                king) with its own share of combat calls among its turns (kCombatShare,
//                belief_king.cpp), so that every turn of the seat (a combat call or a
//                "moved") weighs the hypotheses by how likely that kind was to take it; and
//                the random mover's king takes a "moved" with the share of its legal steps
//                among all the seat's steps (the random player draws every legal action
//                alike), not a fixed chance.
struct OpponentModel {
    bool policyTypes = false;
};

// G5: the squares a king on `from` can step to (one or two squares orthogonally, blockers
// ignored: no seat knows where the others' pieces stand), into `to`; returns their count.
int kingStepTargets(const Geometry& geometry, Square from, std::array<Square, 8>& to);
// A king field after one turn of its seat in which the king steps with probability `stepChance`
// to any of its kingStepTargets alike (the field's total mass is kept).
std::vector<double> diffuseKingField(const Geometry& geometry, const std::vector<double>& field,
                                     double stepChance);

// Particle: one hypothesis of one opponent's hidden pieces.
//   pieces     squares and strengths (index 0 the king, 1..3 warriors); dead pieces as in
//              State (kNoSquare, strength kept)
//   anchor[i]  the square piece i was last pinned to by a public event; kNoSquare: its set-up
//              square, anywhere in the seat's zone (D2)
//   steps[i]   the seat's moves (and withdrawals) this particle attributes to piece i since
//              that pin; invariant: piece i can go from anchor[i] to its square in steps[i]
//   floor[i]   the least strength piece i may have: its last revealed strength (D3)
//   ceiling[i] the most it may have: that strength plus the seat's points gained since
//              (-1: never revealed, no bound)
// Size: 112 bytes.
struct Particle {
    OwnPieces pieces;
    std::array<Square, kPiecesPerSeat> anchor{kNoSquare, kNoSquare, kNoSquare, kNoSquare};
    std::array<int, kPiecesPerSeat> steps{};
    std::array<int, kPiecesPerSeat> floor{};
    std::array<int, kPiecesPerSeat> ceiling{-1, -1, -1, -1};
};

// Belief
//   geometry_      the board
//   seat_          whose belief (its own pieces come from the Knowledge, never a particle)
//   size_          particles per opponent
//   random_        the belief's own seeded stream (moves, resampling, repairs)
//   particles_[s]  opponent s's particles (empty for the seat itself and seats that are out)
//   kingField_[s]  opponent s's king alone, as a grid filter (a hidden Markov model over the
//                  squares) that never resamples: D2 uniform over the zone's dark squares at
//                  the start; each "moved" of s lets the king take a G5 step with probability
//                  mu, for each of the mobility hypotheses (a static king .. a restless one,
//                  and a king that flees from the latest public sightings of other seats'
//                  warriors: their combat calls, reveals and retreats), mixed by their
//                  posterior weights; every public fact that no king of s stands on a square
//                  (its warrior called or revealed there, D5 "unopposed", a combat s did not
//                  answer, its retreating warrior went there) zeroes that square; a refusal
//                  ("my piece stands there", G9) raises it. The hunt reads it: unlike the
//                  particles it cannot lose the true square by resampling.
//   sightings_     the latest public sightings of warriors (any seat), for the fleeing king
//   combat_        the combat being resolved: square, attacker, which seats revealed
//   repairs_, resets_  how often particles had to be repaired / an event contradicted the
//                  belief (particles forced or a king filter restarted)
class Belief {
  public:
    Belief(const Params& params, int seat, int particles, std::uint64_t seed, KingPrior prior = {},
           OpponentModel model = {});

    // Takes the next event the seat received (after knowledge.update accepted it).
    void observe(const Event& event, const Knowledge& knowledge);

    // A full position consistent with everything seen: the seat's own pieces from the
    // knowledge, one particle per opponent; turnSeat and round from the knowledge.
    StartPosition sample(const Knowledge& knowledge, common::Random& random) const;

    // Probability the belief gives to `piece` of `seat` standing on `square`: for the king,
    // the fraction of particles with the king there; for a warrior, the expected number of the
    // seat's warriors there divided by its living warriors.
    double probability(int seat, bool king, Square square) const;

    // KingField of `seat`: per square, the probability that its king stands there (sums to 1
    // while the seat is in; empty for the seat itself and seats that are out).
    const std::vector<double>& kingField(int seat) const {
        return kingField_[static_cast<std::size_t>(seat)];
    }
    // The chance that the king of `seat` steps during one turn of that seat, under the king
    // filter's weighted mobility hypotheses (the turn a "moved" by the kinds' combat shares
    // with OpponentModel::policyTypes, else always; the fleeing king counted still): what
    // the hunt's planner diffuses its king field by (ai.h HuntWeights::planHorizon).
    double kingStepChance(int seat) const;
    // The chance that a "moved" of `seat` was its king's step under mobility hypothesis
    // `hypothesis` (0..kKingMobilities-1) for a king with `kingSteps` legal steps: the
    // hypothesis' fixed chance, the random mover's share of steps with
    // OpponentModel::policyTypes, and for the fleeing king its chance to flee (it flees only
    // when warriors were seen near it).
    double kingMoveChance(int seat, int hypothesis, int kingSteps) const;
    // The share of combat calls among the turns of the kind of player a hypothesis stands for
    // (OpponentModel::policyTypes; without it every hypothesis calls at kDefaultCombatShare).
    double combatShare(int hypothesis) const;
    // The hypothesis index that stands for the uniformly random mover, and the fleeing king
    // (the heuristic player's); the first two are still kings, the next two hunters.
    static constexpr int kRandomMoverHypothesis = 4;
    static constexpr int kFleeingHypothesis = 5;
    // The king field of `seat` under one mobility hypothesis alone (normalised; empty for the
    // seat itself and seats that are out).
    const std::vector<double>& kingField(int seat, int hypothesis) const {
        return kingModels_[static_cast<std::size_t>(seat)]
            .field[static_cast<std::size_t>(hypothesis)];
    }
    // A full position as sample() draws it, except that each opponent's king is drawn from its
    // king filter (the better model of the king: the particles lose its square): first one
    // mobility hypothesis by its posterior weight, written to hypotheses[seat], then the king's
    // square from that hypothesis' field among the squares the particle's warriors leave free
    // (the particle's own king square when the field has no mass there). Seats without
    // particles get hypothesis -1.
    StartPosition sampleWithKingFilter(const Knowledge& knowledge, common::Random& random,
                                       std::array<int, kMaxSeats>& hypotheses) const;
    // The posterior weights of the king filter's mobility hypotheses (kKingMobilities).
    const std::array<double, kKingMobilities>& kingMobilityWeights(int seat) const {
        return kingModels_[static_cast<std::size_t>(seat)].weight;
    }

    const std::vector<Particle>& particles(int seat) const {
        return particles_[static_cast<std::size_t>(seat)];
    }
    int repairs() const { return repairs_; }
    int resets() const { return resets_; }

  private:
    // Which pieces a constraint accepts.
    enum class Need : std::uint8_t { Any, King, Warrior };
    struct Combat {
        Square square = kNoSquare;
        int attacker = -1;
        std::array<bool, kMaxSeats> revealed{};
    };

    bool opponent(int seat) const;
    std::vector<Particle>& of(int seat) { return particles_[static_cast<std::size_t>(seat)]; }

    int minSteps(int seat, const Particle& p, int piece, Square to) const;
    bool canReach(int seat, const Particle& p, int piece, Square to) const;
    void relocate(int seat, Particle& p, int piece, Square to);
    bool fitsPin(const Particle& p, Square square, Need need, int strength) const;
    bool pin(int seat, Particle& p, Square square, Need need, int strength, bool repair);
    bool evict(int seat, Particle& p, Square square, int except, bool force);
    bool setStrength(Particle& p, int warrior, int strength);
    void force(int seat, Particle& p, Square square, Need need, int strength);

    void randomStep(int seat, Particle& p, const OwnPieces& mine);
    int nearestSighting(int seat, Square square) const;
    void see(int seat, Square square);
    void withdraw(int seat, Particle& p, Square from);
    void gain(Particle& p, int points);
    void diffuseKing(int seat);
    void weighTurn(int seat, bool combat);
    double randomMoverKingShare(int seat, int kingSteps) const;
    void scaleKing(int seat, Square square, double factor);
    void initialise(int seat);
    std::vector<double> kingPriorField(int seat) const;

    Geometry geometry_;
    int seat_;
    int size_;
    KingPrior prior_;
    OpponentModel model_;
    common::Random random_;
    std::array<std::vector<Particle>, kMaxSeats> particles_;
    // KingModels: the grid filters of one opponent's king, one per mobility hypothesis, each
    // normalised, with its posterior weight (the likelihood of the public facts under it).
    struct KingModels {
        std::array<std::vector<double>, kKingMobilities> field;
        std::array<double, kKingMobilities> weight{};
    };
    void mixKing(int seat);
    std::array<KingModels, kMaxSeats> kingModels_;
    std::array<std::vector<double>, kMaxSeats> kingField_;  // the weighted mixture
    // The latest kRecentSightings (belief_king.cpp) public facts that a warrior of a seat stood on
    // a square (its combat call, its reveal, its retreat), oldest first, for the fleeing-king
    // hypothesis: only `seat` and `square` of each Sighting (sightings.h) are used.
    std::vector<Sighting> sightings_;
    Combat combat_;
    int repairs_ = 0;
    int resets_ = 0;
};

}  // namespace torneio::play
