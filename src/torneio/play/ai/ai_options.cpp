// The `ai` player's options, declared once (ai_options.h): the table, its declarations and its
// reading into an AiConfig.
#include "torneio/play/ai/ai_options.h"

#include <span>

#include "torneio/play/ai/ai.h"

namespace torneio::play {

namespace {

std::vector<std::string> names(std::span<const std::string_view> list) {
    return {list.begin(), list.end()};
}

int intOf(const common::Option& o) {
    return static_cast<int>(o.asInt());
}

double percentOf(const common::Option& o) {
    return static_cast<double>(o.asInt()) / 100.0;
}

std::vector<AiOption> makeAiOptions() {
    using common::OptionType;
    std::vector<std::string> levels;
    for (const AiLevel& level : kAiLevels) levels.emplace_back(level.name);
    return {
        {"Simulations",
         OptionType::Spin,
         std::to_string(kDefaultSimulations),
         0,
         kMaxSimulations,
         {},
         "determinizations searched per decision by the search policies (the hunt does not "
         "search)",
         [](const common::Option& o, AiConfig& c) { c.limits.simulations = intOf(o); }},
        {"MoveTime",
         OptionType::Spin,
         "0",
         0,
         kMaxMoveTimeMs,
         {},
         "milliseconds per decision, 0 for no limit; stops the search early",
         [](const common::Option& o, AiConfig& c) { c.limits.moveTimeMs = intOf(o); }},
        {"Particles",
         OptionType::Spin,
         std::to_string(kDefaultParticles),
         kMinParticles,
         kMaxParticles,
         {},
         "belief particles per opponent (belief.h)",
         [](const common::Option& o, AiConfig& c) { c.particles = intOf(o); }},
        {"SetUpPolicy", OptionType::Combo,
         std::string(kSetUpPolicyNames[static_cast<int>(kDefaultSetUpPolicy)]), 0, 0,
         names(kSetUpPolicyNames), "the set-up policy (ai.h SetUpPolicy)",
         [](const common::Option& o, AiConfig& c) {
             if (auto policy = parseSetUpPolicy(o.value)) c.setUp = *policy;
         }},
        {"Policy", OptionType::Combo, std::string(kDecisionPolicyNames[0]), 0, 0,
         names(kDecisionPolicyNames),
         "how every other decision is taken (ai.h DecisionPolicy: the hunt; or within "
         "Simulations / MoveTime ISMCTS, the hunt improved by rollouts, the model search)",
         [](const common::Option& o, AiConfig& c) {
             for (std::size_t i = 0; i < std::size(kDecisionPolicyNames); ++i)
                 if (o.value == kDecisionPolicyNames[i]) c.policy = static_cast<DecisionPolicy>(i);
         }},
        {"KingPriorBack",
         OptionType::Spin,
         std::to_string(kDefaultKingPriorBackPercent),
         0,
         100,
         {},
         "percent of the king filter's prior on each opponent's back line (belief.h KingPrior)",
         [](const common::Option& o, AiConfig& c) { c.kingPrior.backLine = percentOf(o); }},
        {"KingPriorCorners",
         OptionType::Spin,
         std::to_string(kDefaultKingPriorCornersPercent),
         0,
         100,
         {},
         "percent on the two ends of that line (the rest uniform over the zone)",
         [](const common::Option& o, AiConfig& c) { c.kingPrior.corners = percentOf(o); }},
        {"BeliefModel", OptionType::Combo, std::string(kBeliefModelNames[1]), 0, 0,
         names(kBeliefModelNames),
         "what the belief's king filter reads of an opponent (belief.h OpponentModel: `types` "
         "weighs its kinds of player by its record of turns too)",
         [](const common::Option& o, AiConfig& c) {
             if (auto model = parseBeliefModel(o.value)) c.opponentModel = *model;
         }},
        {"HideWeight",
         OptionType::Spin,
         std::to_string(kDefaultHideWeight),
         0,
         kMaxHideWeight,
         {},
         "the own king's steps away from where combats on it are expected (ai.h "
         "HuntWeights::hideWeight; 0: off)",
         [](const common::Option& o, AiConfig& c) {
             c.hunt.hideWeight = static_cast<double>(o.asInt());
         }},
        {"HuntPlan",
         OptionType::Spin,
         std::to_string(kDefaultHuntPlan),
         0,
         kMaxHuntPlan,
         {},
         "turns the hunt's planned sweep looks ahead (ai.h HuntWeights::planHorizon; 0: one "
         "turn, no plan)",
         [](const common::Option& o, AiConfig& c) { c.hunt.planHorizon = intOf(o); }},
        {"RandomMoves",
         OptionType::Spin,
         "0",
         0,
         100,
         {},
         "percent of the decisions after the set-up taken uniformly at random",
         [](const common::Option& o, AiConfig& c) { c.randomMoves = intOf(o); }},
        {"Level", OptionType::Combo, "strong", 0, 0, levels,
         "the strengths offered to people (kAiLevels: easy and normal set RandomMoves' percent; "
         "strong keeps RandomMoves)",
         [](const common::Option& o, AiConfig& c) {
             for (const AiLevel& level : kAiLevels)
                 if (o.value == level.name && level.randomMoves > 0)
                     c.randomMoves = level.randomMoves;
         }},
    };
}

}  // namespace

std::optional<OpponentModel> parseBeliefModel(std::string_view name) {
    if (name == kBeliefModelNames[0]) return OpponentModel{.policyTypes = false};
    if (name == kBeliefModelNames[1]) return OpponentModel{.policyTypes = true};
    return std::nullopt;
}

const std::vector<AiOption>& aiOptions() {
    static const std::vector<AiOption> table = makeAiOptions();
    return table;
}

void addAiOptions(common::Options& options) {
    for (const AiOption& o : aiOptions())
        options.add({o.name, o.type, o.defaultValue, o.min, o.max, {}, {}, o.choices});
}

void readAiOptions(const common::Options& options, AiConfig& config) {
    for (const AiOption& o : aiOptions())
        if (const common::Option* set = options.find(o.name)) o.read(*set, config);
}

}  // namespace torneio::play
