// torneio-ai-eval: measures the `ai` player in process (docs/torneio-strength.md): its score
// against another kind with seats rotated, the quality of its belief (scored against the true
// state, which the player never sees), its decisions per second and its search tree's memory.
//   torneio-ai-eval --seats 2 --games 100 --opponent heuristic --simulations 300 [--belief]
#include <algorithm>
#include <array>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "common/random.h"
#include "common/version.h"
#include "torneio/play/ai/ai.h"
#include "torneio/play/ai/selfplay.h"

namespace po = boost::program_options;
using namespace torneio;
using namespace torneio::play;

namespace {

// BeliefScore: sums of the probability the belief gave the true square of each hidden enemy
// piece, and of the uniform guess (1 / squares of the board), over every decision.
struct BeliefScore {
    double kings = 0, kingsUniform = 0, warriors = 0, warriorsUniform = 0;
    long kingSamples = 0, warriorSamples = 0;
};

void scoreBelief(const State& state, const Belief& beliefOf, int seat, BeliefScore& score) {
    const double uniform = 1.0 / state.geometry().squareCount();
    for (int s = 0; s < state.seats(); ++s) {
        if (s == seat || state.eliminated(s)) continue;
        for (int i = 0; i < kPiecesPerSeat; ++i) {
            const Piece& p = state.pieces(s)[i];
            if (!p.alive) continue;
            const double prob = beliefOf.probability(s, i == kKing, p.square);
            if (i == kKing) {
                score.kings += prob;
                score.kingsUniform += uniform;
                ++score.kingSamples;
            } else {
                score.warriors += prob;
                score.warriorsUniform += uniform;
                ++score.warriorSamples;
            }
        }
    }
}

void printBelief(const char* name, const BeliefScore& belief) {
    std::printf(
        "%s: king on its true square %.4f (uniform %.4f, x%.2f); warriors %.4f "
        "(uniform %.4f, x%.1f)\n",
        name, belief.kings / static_cast<double>(std::max(1L, belief.kingSamples)),
        belief.kingsUniform / static_cast<double>(std::max(1L, belief.kingSamples)),
        belief.kings / std::max(1e-9, belief.kingsUniform),
        belief.warriors / static_cast<double>(std::max(1L, belief.warriorSamples)),
        belief.warriorsUniform / static_cast<double>(std::max(1L, belief.warriorSamples)),
        belief.warriors / std::max(1e-9, belief.warriorsUniform));
}

// ShadowedAi: the measured `ai` player, and beside it a second Belief of the same seat with
// another OpponentModel fed the same events (it decides nothing): --shadow-model scores both
// beliefs on the same games.
class ShadowedAi final : public Player {
  public:
    ShadowedAi(const AiConfig& config, OpponentModel shadowModel)
        : ai_(config), shadowModel_(shadowModel) {}
    void configure(const common::Options& options) override { ai_.configure(options); }
    void newGame(const Knowledge& knowledge, std::uint64_t seed) override {
        ai_.newGame(knowledge, seed);
        shadow_ = std::make_unique<Belief>(knowledge.geometry().params(), knowledge.seat(),
                                           ai_.config().particles, common::mixSeed(seed, ~0ull),
                                           ai_.config().kingPrior, shadowModel_);
    }
    void observe(const Event& event, const Knowledge& knowledge) override {
        ai_.observe(event, knowledge);
        shadow_->observe(event, knowledge);
    }
    Action decide(const Request& request, const Knowledge& knowledge) override {
        return ai_.decide(request, knowledge);
    }
    const AiPlayer& ai() const { return ai_; }
    const Belief& shadow() const { return *shadow_; }

  private:
    AiPlayer ai_;
    OpponentModel shadowModel_;
    std::unique_ptr<Belief> shadow_;
};

// --debug: per drawn game, each opponent's true king square, the belief's probability there and
// its most likely square, and where the ai's warriors ended.
void printDraw(const State& st, const AiPlayer& ai, int aiSeat, int game) {
    std::printf("draw game %d:", game);
    for (int enemy = 0; enemy < st.seats(); ++enemy) {
        if (enemy == aiSeat || !st.pieces(enemy)[kKing].alive) continue;
        const Square ks = st.pieces(enemy)[kKing].square;
        const std::vector<double>& field = ai.belief().kingField(enemy);
        if (field.empty()) continue;
        const auto arg = std::max_element(field.begin(), field.end()) - field.begin();
        std::printf(" seat %d king %s p=%.3f (max %s %.3f);", enemy, st.geometry().name(ks).c_str(),
                    field[static_cast<std::size_t>(ks)],
                    st.geometry().name(static_cast<Square>(arg)).c_str(),
                    field[static_cast<std::size_t>(arg)]);
    }
    std::printf(" own warriors");
    for (int w = 1; w < 4; ++w)
        std::printf(" %s", st.pieces(aiSeat)[w].alive
                               ? st.geometry().name(st.pieces(aiSeat)[w].square).c_str()
                               : "-");
    std::printf("\n");
}

// The BeliefMap a player would have if it were handed the true state: every enemy piece on its
// square with certainty. For the omniscient comparison only (docs/torneio-strength.md); no player
// of the `torneio` program is ever built this way.
BeliefMap truthMap(const State& state, const Knowledge& k) {
    const auto squares = static_cast<std::size_t>(state.geometry().squareCount());
    BeliefMap map;
    map.king.assign(squares, 0.0);
    map.warriors.assign(squares, 0.0);
    for (auto& s : map.stronger) s.assign(squares, 0.0);
    for (int seat = 0; seat < state.seats(); ++seat) {
        if (seat == k.seat() || state.eliminated(seat)) continue;
        for (int i = 0; i < kPiecesPerSeat; ++i) {
            const Piece& piece = state.pieces(seat)[i];
            if (!piece.alive) continue;
            const auto q = static_cast<std::size_t>(piece.square);
            if (i == kKing) {
                map.king[q] += 1;
                continue;
            }
            map.warriors[q] += 1;
            for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w)
                if (k.own()[w].alive && piece.strength > k.own()[w].strength)
                    map.stronger[static_cast<std::size_t>(w)][q] += 1;
        }
    }
    return map;
}

// OmniscientPlayer: the hunt policy of the `ai` player with the true state in place of its
// belief (the state is read through `truth`, which the game loop below points at the
// referee's State). Same set-up policy, weights and seeding as the fair `ai`.
class OmniscientPlayer final : public Player {
  public:
    OmniscientPlayer(const AiConfig& config, const State* const* truth)
        : config_(config), truth_(truth) {}
    void newGame(const Knowledge&, std::uint64_t seed) override {
        seed_ = seed;
        decisions_ = 0;
    }
    void observe(const Event&, const Knowledge&) override {}
    Action decide(const Request& request, const Knowledge& knowledge) override {
        common::Random random(common::mixSeed(seed_, decisions_++));
        if (request.kind == RequestKind::SetUp)
            return setUpAction(chooseSetUp(config_.setUp, knowledge, random));
        return huntDecision(request, knowledge, truthMap(**truth_, knowledge), config_.hunt,
                            random);
    }

  private:
    AiConfig config_;
    const State* const* truth_;
    std::uint64_t seed_ = 0;
    std::uint64_t decisions_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
    if (common::printVersionIfAsked(argc, argv, "torneio-ai-eval", std::cout)) return 0;
    int seats = 2, games = 10, simulations = 300, particles = kDefaultParticles, rollout = 3;
    std::uint64_t seed = 1;
    std::string opponent = "heuristic", setUp = "auto", opponentSetUp = "auto";
    std::string policyName = "hunt";
    std::string beliefModel = "types", opponentBeliefModel = "types", shadowModelName;
    double otherHide = HuntWeights{}.hideWeight;
    GuidedWeights guided;
    ModelSearchWeights search;
    HuntWeights hunt;
    KingPrior kingPrior = AiConfig{}.kingPrior;
    KingPrior otherPrior = AiConfig{}.kingPrior;
    int randomMoves = 0;
    po::options_description options("torneio-ai-eval options");
    options.add_options()("help,h", "this help")("seats", po::value(&seats), "2..4")(
        "games", po::value(&games), "games (the ai seat rotates)")(
        "simulations", po::value(&simulations), "ai simulations per decision")(
        "particles", po::value(&particles), "belief particles per opponent")(
        "rollout", po::value(&rollout), "rollout rounds")("opponent", po::value(&opponent),
                                                          "random | heuristic | ai | omniscient")(
        "setup", po::value(&setUp), "the ai's set-up policy")(
        "opponent-setup", po::value(&opponentSetUp), "set-up policy of ai opponents")(
        "seed", po::value(&seed), "match seed")("policy", po::value(&policyName),
                                                "hunt | search | guided | ismcts")(
        "candidates", po::value(&guided.candidates), "guided: actions rolled out")(
        "hunt-bias", po::value(&guided.huntBias), "guided: credit of the hunt's choice")(
        "search-candidates", po::value(&search.candidates), "ismcts: root actions searched")(
        "horizon", po::value(&search.horizon), "ismcts: rounds a simulation plays")(
        "exploration", po::value(&search.exploration), "ismcts: UCB1 constant")(
        "find-weight", po::value(&search.findWeight), "ismcts: leaf value of king mass found")(
        "exposure-weight", po::value(&search.exposureWeight), "ismcts: leaf cost of exposure")(
        "discount", po::value(&search.discount), "ismcts: a simulation's discount per own turn")(
        "search-bias", po::value(&search.huntBias), "ismcts: credit of the hunt's choice")(
        "sampled-find", "ismcts: sample a root combat's find instead of counting it exactly")(
        "close-margin", po::value(&search.closeMargin),
        "ismcts: search only when the hunt's best two are this close")(
        "reach", po::value(&hunt.reach), "hunt: reach per step")(
        "move-weight", po::value(&hunt.moveWeight), "hunt: coverage weight")(
        "king-danger", po::value(&hunt.kingDanger), "hunt: king danger weight")(
        "king-move-cost", po::value(&hunt.kingMoveCost), "hunt: king move cost")(
        "lose-risk", po::value(&hunt.loseRisk), "hunt: risk weight")(
        "combat-weight", po::value(&hunt.combatWeight), "hunt: combat weight")(
        "probe-weight", po::value(&hunt.probeWeight), "hunt: retreat probe weight")(
        "hide-weight", po::value(&hunt.hideWeight), "hunt: king steps away from exposure")(
        "plan", po::value(&hunt.planHorizon), "hunt: turns the planned sweep looks ahead")(
        "plan-discount", po::value(&hunt.planDiscount), "hunt: the sweep's discount a turn")(
        "plan-weight", po::value(&hunt.planWeight), "hunt: the sweep's weight beside the turn's")(
        "prior-back", po::value(&kingPrior.backLine), "king prior: share on the back line")(
        "prior-corners", po::value(&kingPrior.corners), "king prior: share on its two ends")(
        "random-moves", po::value(&randomMoves), "percent of decisions taken at random")(
        "opponent-prior-back", po::value(&otherPrior.backLine), "ai opponents' --prior-back")(
        "opponent-prior-corners", po::value(&otherPrior.corners), "ai opponents' --prior-corners")(

        "belief-model", po::value(&beliefModel), "the ai's belief model: facts | types")(
        "opponent-belief-model", po::value(&opponentBeliefModel), "ai opponents' belief model")(
        "opponent-hide-weight", po::value(&otherHide), "ai opponents' --hide-weight")(
        "shadow-model", po::value(&shadowModelName),
        "with --belief: also score a second belief of the ai's seat with this model "
        "(facts | types), fed the same events")("belief", "score the belief (slower)")(
        "debug", "print drawn games")(
        "omniscient", "the measured seat is handed the true state (hunt policy on it)");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, options), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "torneio-ai-eval: " << e.what() << "\n";
        return 2;
    }
    if (vm.count("help")) {
        std::cout << options;
        return 0;
    }
    const auto policy = parseSetUpPolicy(setUp);
    const auto opponentPolicy = parseSetUpPolicy(opponentSetUp);
    if (!policy || !opponentPolicy) {
        std::cerr << "torneio-ai-eval: unknown set-up policy\n";
        return 2;
    }
    const auto model = parseBeliefModel(beliefModel);
    const auto opponentModel = parseBeliefModel(opponentBeliefModel);
    const auto shadowModel = shadowModelName.empty() ? std::optional<OpponentModel>{}
                                                     : parseBeliefModel(shadowModelName);
    if (!model || !opponentModel || (!shadowModelName.empty() && !shadowModel)) {
        std::cerr << "torneio-ai-eval: unknown belief model\n";
        return 2;
    }
    AiConfig config;
    config.opponentModel = *model;
    config.limits.simulations = simulations;
    config.limits.rolloutRounds = rollout;
    config.particles = particles;
    config.setUp = *policy;
    config.policy = policyName == "search"   ? DecisionPolicy::Search
                    : policyName == "guided" ? DecisionPolicy::Guided
                    : policyName == "ismcts" ? DecisionPolicy::Ismcts
                                             : DecisionPolicy::Hunt;
    config.hunt = hunt;
    config.guided = guided;
    config.model = search;
    config.model.exactFind = vm.count("sampled-find") == 0;
    config.kingPrior = kingPrior;
    config.randomMoves = randomMoves;
    // The `ai` and `omniscient` opponents are the default player (the hunt, default weights and
    // particles) with --opponent-setup and --opponent-prior-*: never the measured seat's settings.
    AiConfig otherConfig;
    otherConfig.setUp = *opponentPolicy;
    otherConfig.kingPrior = otherPrior;
    otherConfig.opponentModel = *opponentModel;
    otherConfig.hunt.hideWeight = otherHide;
    const Params params = defaultParams(seats);
    double score = 0;
    int wins = 0, draws = 0, losses = 0;
    long decisions = 0, rounds = 0;
    double searchSeconds = 0;
    std::size_t maxTree = 0;
    BeliefScore belief, shadowBelief;
    // The opponents' turns after the set-up: how many were combat calls (their public record).
    long opponentTurns = 0, opponentCombats = 0;
    // Games in which an opponent's combat found the measured seat's king, and those in which
    // it was among that opponent's first three combat calls (the set-up's predictability).
    int kingsFound = 0, kingsFoundEarly = 0;
    // The measured seat's turns: combat calls, king steps, warrior steps; in drawn games apart.
    std::array<long, 3> ownTurns{}, drawnTurns{};
    // Wins by round 10, 25, 50, 100, 200: how soon the hunt finds the last king.
    constexpr std::array<int, 5> kWinRounds{10, 25, 50, 100, 200};
    std::array<int, kWinRounds.size()> winsBy{};
    const bool scoreBeliefs = vm.count("belief") > 0;
    const bool omniscient = vm.count("omniscient") > 0;
    if (omniscient && (scoreBeliefs || vm.count("debug"))) {
        std::cerr << "torneio-ai-eval: --omniscient has no belief to score or print\n";
        return 2;
    }
    for (int g = 0; g < games; ++g) {
        const int aiSeat = g % seats;
        std::vector<std::unique_ptr<Player>> owned;
        std::vector<Player*> players;
        const AiPlayer* ai = nullptr;
        const ShadowedAi* shadowed = nullptr;
        const State* truth = nullptr;
        for (int s = 0; s < seats; ++s) {
            if (s == aiSeat && omniscient) {
                owned.push_back(std::make_unique<OmniscientPlayer>(config, &truth));
            } else if (s == aiSeat && shadowModel) {
                auto p = std::make_unique<ShadowedAi>(config, *shadowModel);
                shadowed = p.get();
                ai = &p->ai();
                owned.push_back(std::move(p));
            } else if (s == aiSeat) {
                auto p = std::make_unique<AiPlayer>(config);
                ai = p.get();
                owned.push_back(std::move(p));
            } else if (opponent == "omniscient") {
                owned.push_back(std::make_unique<OmniscientPlayer>(otherConfig, &truth));
            } else if (opponent == "ai") {
                owned.push_back(makeAiPlayer(otherConfig));
            } else {
                owned.push_back(makePlayer(opponent));
            }
            players.push_back(owned.back().get());
        }
        bool ownKingFound = false;
        std::array<int, kMaxSeats> combatsCalled{};
        auto last = std::chrono::steady_clock::now();
        const auto after = [&](const State& state, std::span<const Knowledge>) {
            truth = &state;
            if (!state.history().empty()) {
                const Decision& d = state.history().back();
                if (d.action.kind == ActionKind::Combat && d.seat != aiSeat) {
                    ++combatsCalled[static_cast<std::size_t>(d.seat)];
                    if (!ownKingFound && !state.pieces(aiSeat)[kKing].alive) {
                        ownKingFound = true;
                        ++kingsFound;
                        if (combatsCalled[static_cast<std::size_t>(d.seat)] <= 3) ++kingsFoundEarly;
                    }
                }
            }
            const auto now = std::chrono::steady_clock::now();
            const auto& history = state.history();
            if (!history.empty() && history.back().seat == aiSeat &&
                history.back().action.kind != ActionKind::SetUp) {
                ++decisions;
                searchSeconds += std::chrono::duration<double>(now - last).count();
                if (ai) maxTree = std::max(maxTree, ai->lastStats().treeBytes);
            }
            if (scoreBeliefs && state.phase() == Phase::Turn && !state.eliminated(aiSeat)) {
                scoreBelief(state, ai->belief(), aiSeat, belief);
                if (shadowed) scoreBelief(state, shadowed->shadow(), aiSeat, shadowBelief);
            }
            last = std::chrono::steady_clock::now();
        };
        auto played =
            playGame(params, players, common::mixSeed(seed, static_cast<std::uint64_t>(g)), after);
        if (!played) {
            std::cerr << "game " << g << ": " << played.error() << "\n";
            return 1;
        }
        const bool drawn = played.value().outcome().kind == OutcomeKind::Draw;
        for (const auto& decision : played.value().history()) {
            if (decision.seat == aiSeat) {
                const bool combat = decision.action.kind == ActionKind::Combat;
                const bool king =
                    decision.action.kind == ActionKind::Move && decision.action.piece == kKing;
                const bool warrior =
                    decision.action.kind == ActionKind::Move && decision.action.piece > kKing;
                if (!combat && !king && !warrior) continue;
                auto& turns = drawn ? drawnTurns : ownTurns;
                turns[combat ? 0 : (king ? 1 : 2)] += 1;
                continue;
            }
            if (decision.action.kind == ActionKind::Combat) ++opponentCombats;
            if (decision.action.kind == ActionKind::Combat ||
                (decision.action.kind == ActionKind::Move && decision.action.piece >= 0))
                ++opponentTurns;
        }
        const Outcome& outcome = played.value().outcome();
        if (vm.count("debug") && outcome.kind == OutcomeKind::Draw)
            printDraw(played.value(), *ai, aiSeat, g);
        rounds += outcome.round;
        if (outcome.kind == OutcomeKind::Win && (outcome.seats & (1u << aiSeat)))
            for (std::size_t b = 0; b < kWinRounds.size(); ++b)
                if (outcome.round <= kWinRounds[b]) ++winsBy[b];
        const unsigned bit = 1u << aiSeat;
        if (outcome.kind == OutcomeKind::Win) {
            if (outcome.seats & bit) {
                ++wins;
                score += 1;
            } else {
                ++losses;
            }
        } else if (outcome.seats & bit) {
            ++draws;
            score += 1.0 / __builtin_popcount(outcome.seats);
        } else {
            ++losses;
        }
    }
    const double mean = score / games;
    std::printf(
        "seats %d games %d ai(sims %d, particles %d, rollout %d, setup %s) vs %s: "
        "wins %d draws %d losses %d score %.3f\n",
        seats, games, simulations, particles, rollout, setUp.c_str(), opponent.c_str(), wins, draws,
        losses, mean);
    std::printf(
        "mean rounds %.1f; ai decisions %ld, %.1f decisions/s (one thread), largest tree "
        "%.1f KB\n",
        static_cast<double>(rounds) / games, decisions,
        searchSeconds > 0 ? static_cast<double>(decisions) / searchSeconds : 0.0,
        static_cast<double>(maxTree) / 1024.0);
    if (scoreBeliefs) {
        const std::string name = "belief (" + beliefModel + ")";
        printBelief(name.c_str(), belief);
        if (shadowModel) {
            const std::string other = "shadow belief (" + shadowModelName + ")";
            printBelief(other.c_str(), shadowBelief);
        }
    }
    std::printf("own king found by an opponent's combat: %d games (%.3f), by its first three: %d\n",
                kingsFound, static_cast<double>(kingsFound) / std::max(1, games), kingsFoundEarly);
    for (const auto& [name, t] :
         {std::pair{"won or lost", ownTurns}, std::pair{"drawn", drawnTurns}}) {
        const long all = std::max(1L, t[0] + t[1] + t[2]);
        std::printf(
            "ai's turns in %s games: combat calls %.3f, king steps %.3f, warrior steps %.3f (%ld "
            "turns)\n",
            name, static_cast<double>(t[0]) / static_cast<double>(all),
            static_cast<double>(t[1]) / static_cast<double>(all),
            static_cast<double>(t[2]) / static_cast<double>(all), t[0] + t[1] + t[2]);
    }
    std::printf("wins by round");
    for (std::size_t b = 0; b < kWinRounds.size(); ++b)
        std::printf(" %d: %.3f", kWinRounds[b],
                    static_cast<double>(winsBy[b]) / std::max(1, games));
    std::printf("\n");
    std::printf(
        "opponents' combat calls: %ld of %ld turns (%.3f)\n", opponentCombats, opponentTurns,
        static_cast<double>(opponentCombats) / static_cast<double>(std::max(1L, opponentTurns)));
    return 0;
}
