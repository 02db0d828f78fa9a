// The `ai` player: a Belief about the opponents (belief.h) kept from the events its seat
// receives, and a decision policy for every turn, retreat order, withdrawal and reward point:
// by default the belief-driven hunt (huntDecision below), or an ISMCTS search over
// determinizations drawn from the belief (ismcts.h; DecisionPolicy::Search, measured weaker:
// docs/torneio-strength.md). The set-up is a policy (SetUpPolicy), chosen by
// measuring the policies against each other (docs/torneio-strength.md).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "common/options.h"
#include "common/random.h"
#include "torneio/play/ai/ai_options.h"
#include "torneio/play/ai/belief.h"
#include "torneio/play/ai/ismcts.h"
#include "torneio/play/player.h"

namespace torneio::play {

// SetUpPolicy: where the king hides and how the 10 points are split (G3, G4, D2, D3).
//   Back     king on a back-line square at random, warriors in front, split 5/3/2 (about
//            half, then half of the rest: the heuristic player's split)
//   Corner   king on the zone square nearest a board corner (back line), warriors as far from
//            it as the zone allows, split 4/3/3
//   Spread   king and warriors at random zone squares, split 4/3/3
//   Random   a uniformly random legal set-up
//   Auto     Corner with 2 seats, Back with 3 or 4 (10x10 board): what measured best for
//            each (docs/torneio-strength.md)
//   Mixed    the king on a zone square drawn with kMixedSetUpWeights (the back line's ends,
//            the rest of the back line, the other squares), so that a player modelling
//            set-ups cannot count on one kind of square; warriors as far from it as the zone
//            allows, split 4/3/3
enum class SetUpPolicy : std::uint8_t { Back, Corner, Spread, Random, Auto, Mixed };
inline constexpr std::string_view kSetUpPolicyNames[] = {"back",   "corner", "spread",
                                                         "random", "auto",   "mixed"};
// The Mixed set-up's weight of one square of each kind: an end of the back line, another
// back-line square, any other zone square (docs/torneio-strength.md, eighth pass).
inline constexpr std::array<double, 3> kMixedSetUpWeights{3.0, 1.0, 1.0};
inline constexpr SetUpPolicy kDefaultSetUpPolicy = SetUpPolicy::Auto;
std::optional<SetUpPolicy> parseSetUpPolicy(std::string_view name);

// The set-up a policy gives this seat (always legal).
SetUp chooseSetUp(SetUpPolicy policy, const Knowledge& knowledge, common::Random& random);

// HuntWeights: the tuning of the hunt policy (huntDecision); measured in
// docs/torneio-strength.md. Units: a combat's value is the probability that it eliminates an
// opponent (G11), and everything else is scaled to that.
//   reach        how fast a warrior's chance to find a king on a square decays with its
//                distance to it (per warrior step, 0..1)
//   moveWeight   the value of one unit of "coverage" gained by a warrior step
//   kingDanger   the value of one expected enemy warrior fewer next to the own king
//   kingMoveCost what a king move costs (each "moved" is ambiguous among 4 pieces; the king
//                moving rarely keeps the opponents' beliefs of it stale)
//   loseRisk     the cost of a combat per unit of probability of a stronger enemy warrior there
//   combatWeight a combat's P(king) is multiplied by it (1: measured no better at 1.5-4)
//   probeWeight  a retreat order's bonus per unit of P(king) on the ordered square: a refusal
//                ("my piece stands there") pins a piece of the loser (0: no gain measured)
//   hideWeight   a king step's value per unit of exposure (BeliefMap::exposure: the
//                opponents' belief about the own king where their warriors are near) it leaves
//                behind: the king steps away from the squares where combats are expected (0:
//                the exposure is not kept; option HideWeight)
//   planHorizon  0: a turn is scored as above (one turn ahead). N > 0: the planned sweep adds
//                planWeight x the king mass the action finds now (a combat) plus the mass a
//                simple sweep (every warrior probes its square or steps toward more mass, one
//                turn at a time) finds in the next N turns after it, discounted by planDiscount
//                a turn, on the opponents' king fields diffused by each opponent's turn
//                (Belief::kingStepChance) (option HuntPlan; measured weaker: 0)
//   planDiscount the weight of mass found one turn later (0..1)
//   planWeight   the planned value's weight, added to the turn's score above
struct HuntWeights {
    double reach = 0.02;
    double moveWeight = 1.0;
    double kingDanger = 0.5;
    double kingMoveCost = 0.05;
    double loseRisk = 0.05;
    double combatWeight = 1.0;
    double probeWeight = 0.0;
    double hideWeight = kDefaultHideWeight;
    int planHorizon = kDefaultHuntPlan;
    double planDiscount = 0.95;
    double planWeight = 1.0;
};
// BeliefMap::exposure counts the enemy warriors within this many squares (Chebyshev) of a square.
inline constexpr int kExposureRadius = 2;

// DecisionPolicy: how the `ai` player decides once set up.
//   Hunt    the belief-driven hunt policy (huntDecision): no search
//   Search  ISMCTS over determinizations (ismcts.h)
//   Guided  the hunt improved by rollouts (guidedDecision): the hunt's best turn actions tried
//           on determinizations; with 0 simulations exactly the hunt
//   Ismcts  the model search (model_search.h): the hunt's best turn actions searched on
//           determinizations in which every opponent plays by its inferred kind and the own
//           seat hunts on a belief updated inside the simulation
// The `Policy` option's values, in the enum's order.
// The `BeliefModel` option's values: `facts` (OpponentModel::policyTypes off) and `types` (on).
inline constexpr std::string_view kBeliefModelNames[] = {"facts", "types"};
std::optional<OpponentModel> parseBeliefModel(std::string_view name);

enum class DecisionPolicy : std::uint8_t { Hunt, Search, Guided, Ismcts };
inline constexpr std::string_view kDecisionPolicyNames[] = {"hunt", "search", "guided", "ismcts"};

// GuidedWeights: the shape of the guided policy.
//   candidates  the hunt's best turn actions that are rolled out (>= 1)
//   huntBias    the mean rollout reward the hunt's own choice is credited with before the
//               others may replace it (0..1: a rollout must find a clearly better action)
struct GuidedWeights {
    int candidates = 4;
    double huntBias = 0.02;
};

// ModelSearchWeights: the shape of the model search (model_search.h, Policy ismcts).
//   candidates   the hunt's best turn actions searched at the root (>= 1)
//   horizon      rounds a simulation plays after the root action (>= 1)
//   exploration  UCB1's constant (rewards are in 0..1)
//   findWeight   a leaf's value per unit of king mass on or next to an own warrior
//   exposureWeight  a leaf's cost per unit of exposure of the own king's square
//   discount     a simulation's value is multiplied by it for every own turn played after the
//                root action (a king found sooner is worth more: the opponents hunt too)
//   huntBias     the mean value the hunt's own choice is credited with when the decision is
//                taken (0..1: another action must be clearly better)
//   exactFind    with 2 seats, a root combat's immediate find is counted exactly and the
//                simulation plays only the cases where it finds nothing (model_search.h)
//   closeMargin  search only when the hunt's second best candidate scores within this much of
//                its best (the hunt's scores); otherwise play the hunt's choice (<= 0: always
//                search)
struct ModelSearchWeights {
    int candidates = 6;
    int horizon = 4;
    double exploration = 0.3;
    double findWeight = 0.0;
    double exposureWeight = 0.25;
    double discount = 0.9;
    double huntBias = 0.05;
    bool exactFind = true;
    double closeMargin = 0.0;
};

// AiConfig: the player's settings, from the `torneio` program's options.
//   limits     the search budget (Simulations, MoveTime)
//   particles  particles per opponent in the belief (Particles)
//   setUp      the set-up policy (SetUpPolicy)
//   policy     hunt, search, guided or ismcts
//   hunt       the hunt policy's weights
//   guided     the guided policy's settings
//   model      the model search's settings
//   kingPrior  the opponent model's set-up prior of the belief (KingPriorBack, KingPriorCorners)
//   opponentModel  what else the belief's king filter reads of an opponent (BeliefModel)
//   randomMoves  percent of the decisions after the set-up taken uniformly at random instead
//              (RandomMoves: the weaker levels offered to people; 0 for full strength)
struct AiConfig {
    SearchLimits limits;
    int particles = kDefaultParticles;
    SetUpPolicy setUp = kDefaultSetUpPolicy;
    DecisionPolicy policy = DecisionPolicy::Hunt;
    HuntWeights hunt;
    GuidedWeights guided;
    ModelSearchWeights model;
    KingPrior kingPrior{kDefaultKingPriorBackPercent / 100.0,
                        kDefaultKingPriorCornersPercent / 100.0};
    OpponentModel opponentModel{.policyTypes = true};
    int randomMoves = 0;
};

// BeliefMap: per-square summaries of a Belief for the hunt policy, one pass over the particles.
//   king[q]         probability that an opponent's king stands on q (summed over opponents)
//   warriors[q]     expected number of opponents' warriors on q
//   stronger[w][q]  probability that an opponent's warrior stronger than own warrior w stands
//                   on q (G8: ties go to the attacker); index 0 unused
//   exposure[q]     where a combat on the own king is expected: the opponents' belief that it
//                   stands on q (summed over them, as AiPlayer's exposure beliefs reconstruct
//                   it from the public events) times the expected enemy warriors within
//                   kExposureRadius of q, at most 1 (empty: not kept, read as 0)
//   seenKing[s]     opponent s's belief about the own king (its king filter of the own seat,
//                   as the player's exposure beliefs rebuild it from the public events; empty
//                   when not kept): what the model search's hunting opponents hunt by
//   kingFields[o]   the king field of the o-th opponent still in (Belief::kingField), and
//   kingSteps[o]    its chance to step in one of its turns (Belief::kingStepChance): what the
//                   planned sweep diffuses (empty: no plan, e.g. a map of the true state)
// Size: 5 or 6 doubles per square, and one more per square and opponent.
struct BeliefMap {
    std::vector<double> king;
    std::vector<double> warriors;
    std::array<std::vector<double>, kPiecesPerSeat> stronger;
    std::vector<double> exposure;
    std::array<std::vector<double>, kMaxSeats> seenKing;
    std::vector<std::vector<double>> kingFields;
    std::vector<double> kingSteps;
};
BeliefMap mapBelief(const Belief& belief, const Knowledge& knowledge);

// The hunt policy: answers every request but set-ups from the belief alone (torneio-rules.md):
//   Turn      call a combat on a warrior's square with the chance it hits a king (G11), less a
//             small risk term; or step a warrior to raise the "coverage" of the king
//             probability (sum over squares of P(king) times the chance some warrior reaches
//             it, reach^distance); or step the king away from likely enemy warriors and
//             from where combats on it are expected (BeliefMap::exposure)
//   Retreat   order the loser far from the own king
//   Withdraw  the step with the best coverage
//   Reward    onto the strongest living warrior (G10)
Action huntDecision(const Request& request, const Knowledge& knowledge, const Belief& belief,
                    const HuntWeights& weights, common::Random& random);
// The same from a BeliefMap given directly (the measuring tool hands an omniscient player the
// map of the true state: docs/torneio-strength.md). An empty map is fine for a Reward request
// or a single legal action.
Action huntDecision(const Request& request, const Knowledge& knowledge, const BeliefMap& map,
                    const HuntWeights& weights, common::Random& random);

// The same for any seat's pieces on a board (the search's rollouts play the own seat's turns
// with it on a rollout's map).
Action huntDecision(const Request& request, const OwnPieces& own, const Geometry& geometry,
                    const BeliefMap& map, const HuntWeights& weights, common::Random& random);

// The hunt's score of every legal action of a request (Turn, RetreatOrder, Withdraw; the
// order of legalActions), with the seeded tie-break huntDecision adds: huntDecision plays the
// first best of these.
std::vector<double> huntScores(const Request& request, const Knowledge& knowledge,
                               const BeliefMap& map, const HuntWeights& weights,
                               common::Random& random);
std::vector<double> huntScores(const Request& request, const OwnPieces& own,
                               const Geometry& geometry, const BeliefMap& map,
                               const HuntWeights& weights, common::Random& random);

// The guided policy: the hunt, improved on turns by rollouts (ismcts.h rolloutValues) of its
// `candidates` best actions from the belief's determinizations; the hunt's choice is credited
// huntBias. Other requests, and limits.simulations == 0, give exactly huntDecision's answer
// with the same seed.
Action guidedDecision(const Request& request, const Knowledge& knowledge, const Belief& belief,
                      const HuntWeights& hunt, const GuidedWeights& guided,
                      const SearchLimits& limits, std::uint64_t seed, SearchStats* stats = nullptr);
// The same with the hunt's BeliefMap given (the player's, with its exposure).
Action guidedDecision(const Request& request, const Knowledge& knowledge, const Belief& belief,
                      const BeliefMap& map, const HuntWeights& hunt, const GuidedWeights& guided,
                      const SearchLimits& limits, std::uint64_t seed, SearchStats* stats = nullptr);

// AiPlayer
//   config_     settings (configure() reads them from the program's options)
//   seed_       the game's seed; decision i searches with mixSeed(seed_, i)
//   decisions_  decisions taken this game
//   belief_     the belief of the current game (made at newGame)
//   exposure_   with hunt.hideWeight > 0: per opponent, a Belief as that opponent's seat
//               would build it from the public events (a few particles: only its king filter
//               of the own seat is read), for BeliefMap::exposure
//   lastStats_  what the last search did
class AiPlayer final : public Player {
  public:
    explicit AiPlayer(const AiConfig& config = {}) : config_(config) {}
    void configure(const common::Options& options) override;
    void newGame(const Knowledge& knowledge, std::uint64_t seed) override;
    void observe(const Event& event, const Knowledge& knowledge) override;
    Action decide(const Request& request, const Knowledge& knowledge) override;

    const AiConfig& config() const { return config_; }
    const Belief& belief() const { return *belief_; }
    const SearchStats& lastStats() const { return lastStats_; }

  private:
    std::vector<double> exposure(const Knowledge& knowledge, const BeliefMap& map) const;

    AiConfig config_;
    std::uint64_t seed_ = 0;
    std::uint64_t decisions_ = 0;
    std::unique_ptr<Belief> belief_;
    std::vector<std::unique_ptr<Belief>> exposure_;
    SearchStats lastStats_;
};

std::unique_ptr<Player> makeAiPlayer();
std::unique_ptr<Player> makeAiPlayer(const AiConfig& config);

}  // namespace torneio::play
