// The `ai` player (ai.h AiPlayer): its belief and exposure beliefs kept from the events, and each
// decision handed to its policy: a set-up policy (setup_policy.cpp), then the hunt (hunt.cpp),
// the guided policy (guided.cpp), ISMCTS (ismcts.h) or the model search (model_search.h). Its
// options are ai_options.cpp's.
#include "torneio/play/ai/ai.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "common/logging.h"
#include "torneio/play/ai/ai_options.h"
#include "torneio/play/ai/model_search.h"
#include "torneio/rules/distance.h"

namespace torneio::play {

void AiPlayer::configure(const common::Options& options) {
    readAiOptions(options, config_);
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
