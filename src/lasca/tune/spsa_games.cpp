#include "lasca/tune/spsa_games.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <span>
#include <thread>

#include "common/process.h"
#include "common/random.h"
#include "common/text.h"
#include "lasca/core/position.h"
#include "lasca/engine/replies.h"
#include "lasca/match/engine.h"
#include "lasca/match/match.h"

namespace lasca::tune {

namespace {

// The stream of the openings' shuffle, apart from the Delta draws seeded with the same seed.
constexpr std::uint64_t kOpeningStream = 1;

// The options the engine lists after `uci` (or `ugi`), up to uciok.
common::Result<std::vector<engine::OptionReply>> listedOptions(const SpsaRunConfig& config) {
    const match::EngineSpec& spec = config.engine;
    auto started = common::ChildProcess::start(spec.path, spec.args, "");
    if (!started) return common::makeError(started.error());
    common::ChildProcess& child = *started.value();
    const bool ugi = spec.dialect == match::Dialect::Ugi;
    const std::string done = ugi ? "ugiok" : "uciok";
    const auto deadline = common::SteadyClock::now() + config.timeouts.startup;
    match::EngineListing listing = match::readListing(child, spec.dialect, deadline);
    if (listing.status == common::ReadStatus::Line) {
        child.writeLine("quit", deadline);
        child.wait(std::chrono::milliseconds(300));
        return std::move(listing.options);
    }
    if (listing.status == common::ReadStatus::Closed)
        return common::makeError("the engine '" + spec.path + "' ended before " + done);
    return common::makeError("the engine '" + spec.path + "' did not answer " +
                             (ugi ? "ugi" : "uci") + " with " + done + " within " +
                             std::to_string(config.timeouts.startup.count()) + " ms");
}

// Plays every proposal of a batch at once, proposals[i] from openings[i], one thread each (a
// batch is at most `concurrency` proposals); the iterations come back in the proposals' order.
std::vector<SpsaIteration> playBatch(const SpsaRunConfig& config,
                                     const std::vector<SpsaParam>& params,
                                     const std::vector<SpsaProposal>& proposals,
                                     const std::vector<std::string>& openings) {
    std::vector<SpsaIteration> played(proposals.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < proposals.size(); ++i)
        threads.emplace_back(
            [&, i] { played[i] = playIteration(config, params, proposals[i], openings[i]); });
    for (auto& t : threads) t.join();
    return played;
}

}  // namespace

std::vector<std::size_t> openingOrder(std::size_t count, std::uint64_t seed) {
    std::vector<std::size_t> order(count);
    std::iota(order.begin(), order.end(), std::size_t{0});
    common::Random random(common::mixSeed(seed, kOpeningStream));
    random.shuffle(std::span<std::size_t>(order));
    return order;
}

match::EngineSpec tunedEngine(const match::EngineSpec& base, const std::vector<SpsaParam>& params,
                              const std::vector<int>& values, const std::string& name) {
    match::EngineSpec spec = base;
    spec.name = name;
    for (std::size_t i = 0; i < params.size() && i < values.size(); ++i)
        spec.options.emplace_back(params[i].name, std::to_string(values[i]));
    return spec;
}

SpsaIteration playIteration(const SpsaRunConfig& config, const std::vector<SpsaParam>& params,
                            const SpsaProposal& proposal, const std::string& lfen) {
    match::MatchConfig match;
    match.engines = {tunedEngine(config.engine, params, proposal.plus, "theta+"),
                     tunedEngine(config.engine, params, proposal.minus, "theta-")};
    match.timeouts = config.timeouts;
    match.game = config.game;
    match.openings = {lfen};
    match.games = 2;
    match.concurrency = 1;
    SpsaIteration iteration;
    iteration.proposal = proposal;
    iteration.opening = lfen;
    iteration.games = match::runMatch(match, {}, {});
    double plusPoints = 0;
    for (const match::GameRecord& game : iteration.games)
        plusPoints += match::firstEnginePoints(game);
    const double games = static_cast<double>(iteration.games.size());
    iteration.result = plusPoints - (games - plusPoints);
    return iteration;
}

void runSpsa(Spsa& spsa, const SpsaRunConfig& config, const SpsaCallback& onIteration) {
    const std::vector<std::size_t> order = openingOrder(config.openings.size(), config.seed);
    const auto openingOf = [&](int iteration) {
        if (order.empty()) return std::string(kStartLfen);
        return config.openings[order[static_cast<std::size_t>(iteration - 1) % order.size()]];
    };
    const int batchSize = std::max(1, config.concurrency);
    while (!spsa.finished()) {
        std::vector<SpsaProposal> proposals;
        std::vector<std::string> openings;
        for (int i = 0; i < batchSize && !spsa.finished(); ++i) {
            proposals.push_back(spsa.propose().value());
            openings.push_back(openingOf(proposals.back().iteration));
        }
        bool goOn = true;
        for (const SpsaIteration& played : playBatch(config, spsa.params(), proposals, openings)) {
            spsa.update(played.proposal, played.result);
            if (onIteration && !onIteration(played, spsa)) goOn = false;
        }
        if (!goOn) return;
    }
}

common::Result<bool> checkEngineOptions(const SpsaRunConfig& config,
                                        const std::vector<SpsaParam>& params) {
    auto listed = listedOptions(config);
    if (!listed) return common::makeError(listed.error());
    for (const SpsaParam& p : params) {
        const auto& options = listed.value();
        const auto option =
            std::find_if(options.begin(), options.end(), [&](const engine::OptionReply& o) {
                return common::equalsIgnoringCase(o.name, p.name);
            });
        if (option == options.end()) return common::makeError("the engine has no option " + p.name);
        if (!option->spin)
            return common::makeError("the engine's option " + p.name + " is not a spin option");
        if (p.min < option->min || p.max > option->max)
            return common::makeError(p.name + ": the range " + std::to_string(p.min) + ".." +
                                     std::to_string(p.max) + " is not inside the engine's " +
                                     std::to_string(option->min) + ".." +
                                     std::to_string(option->max));
    }
    return true;
}

}  // namespace lasca::tune
