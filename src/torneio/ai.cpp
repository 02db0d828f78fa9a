#include "torneio/ai.h"

#include <string>

#include "torneio/ai_options.h"
#include "torneio/distance.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace torneio {

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

SetUp cornerSetUp(const Knowledge& k, common::Random& random) {
    const Geometry& g = k.geometry();
    std::vector<Square> zone(g.zone(k.seat()).begin(), g.zone(k.seat()).end());
    // The back-line squares at either end of the zone: the king takes one at random.
    std::vector<Square> back;
    for (Square s : zone)
        if (edgeDistance(g, k.seat(), s) == 0) back.push_back(s);
    const Square king = random.chance(0.5) ? back.front() : back.back();
    std::stable_sort(zone.begin(), zone.end(), [&](Square a, Square b) {
        return chebyshev(g, a, king) > chebyshev(g, b, king);
    });
    SetUp setUp;
    setUp.king = king;
    setUp.strengths = split(g.params(), {4, 3, 3});
    for (std::size_t w = 0; w < kWarriors; ++w) setUp.warriors[w] = zone[w];
    return setUp;
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

SetUp chooseSetUp(SetUpPolicy policy, const Knowledge& k, common::Random& random) {
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
        case SetUpPolicy::Random:
            return randomAction(request, k.own(), k.geometry(), random).setUp;
    }
    if (isLegal(request, k.own(), k.geometry(), setUpAction(setUp))) return setUp;
    return randomAction(request, k.own(), k.geometry(), random).setUp;
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
}

void AiPlayer::newGame(const Knowledge& knowledge, std::uint64_t seed) {
    seed_ = seed;
    decisions_ = 0;
    belief_ = std::make_unique<Belief>(knowledge.geometry().params(), knowledge.seat(),
                                       config_.particles, common::mixSeed(seed, ~0ull));
    lastStats_ = {};
}

void AiPlayer::observe(const Event& event, const Knowledge& knowledge) {
    belief_->observe(event, knowledge);
}

Action AiPlayer::decide(const Request& request, const Knowledge& knowledge) {
    const std::uint64_t seed = common::mixSeed(seed_, decisions_++);
    if (request.kind == RequestKind::SetUp) {
        common::Random random(seed);
        return setUpAction(chooseSetUp(config_.setUp, knowledge, random));
    }
    return searchDecision(request, knowledge, *belief_, config_.limits, seed, &lastStats_);
}

std::unique_ptr<Player> makeAiPlayer() {
    return std::make_unique<AiPlayer>();
}

std::unique_ptr<Player> makeAiPlayer(const AiConfig& config) {
    return std::make_unique<AiPlayer>(config);
}

}  // namespace torneio

namespace torneio {

void addAiOptions(common::Options& options) {
    options.add({"Simulations",
                 common::OptionType::Spin,
                 std::to_string(kDefaultSimulations),
                 1,
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
}

}  // namespace torneio
