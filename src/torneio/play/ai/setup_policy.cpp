// The `ai` player's set-up policies (ai.h SetUpPolicy): where the king hides and how the points
// are split among the warriors (G3, G4, D2, D3).
#include <algorithm>
#include <span>
#include <vector>

#include "torneio/play/ai/ai.h"
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

}  // namespace torneio::play
