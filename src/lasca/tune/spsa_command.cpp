#include "command_line.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>

#include "common/progress.h"
#include "lasca/match/match.h"
#include "lasca/match/openings.h"
#include "lasca/tune/spsa.h"
#include "lasca/tune/spsa_games.h"

namespace lasca::tune {

namespace {

// The whole text of a file given on the command line (at most `largest` bytes).
common::Result<std::string> readSmallFile(const std::string& path, const char* option,
                                          std::size_t largest = std::size_t{16} << 20) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return common::makeError(std::string(option) + ": cannot read " + path);
    std::string text;
    std::array<char, 1 << 16> chunk{};
    while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0) {
        text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
        if (text.size() > largest)
            return common::makeError(std::string(option) + ": " + path + " is larger than " +
                                     std::to_string(largest >> 20) + " MiB");
    }
    return text;
}

// SpsaTotals: the games of a run so far, for the progress line and the summary.
//   plusPoints  points of the theta+ engines; failures: games an engine lost by failing
//               (illegal or garbled move, time forfeit, crash, no start)
//   replayed    iterations taken from the progress file of an earlier run (--resume), not
//               played by this one
struct SpsaTotals {
    int replayed = 0;
    int games = 0;
    double plusPoints = 0;
    int failures = 0;

    void add(const tune::SpsaIteration& it) {
        for (const auto& g : it.games) {
            ++games;
            plusPoints += match::firstEnginePoints(g);
            if (g.reason == match::EndReason::IllegalMove ||
                g.reason == match::EndReason::GarbledMove ||
                g.reason == match::EndReason::TimeForfeit || g.reason == match::EndReason::Crash ||
                g.reason == match::EndReason::Disconnected)
                ++failures;
        }
    }
};

std::string thetaText(const tune::Spsa& spsa) {
    std::string text;
    for (std::size_t i = 0; i < spsa.params().size(); ++i)
        text +=
            (i ? " " : "") + spsa.params()[i].name + "=" + common::formatFixed(spsa.theta()[i], 1);
    return text;
}

// The end of a run on stdout: each parameter's start and final value, then the option string
// for lasca-match alone on the last line.
void printSpsaSummary(const tune::Spsa& spsa, const SpsaTotals& totals) {
    std::cout << "SPSA: " << spsa.updated() << " iterations, "
              << (totals.replayed ? std::to_string(totals.replayed) +
                                        " of them replayed from the progress file, "
                                  : std::string())
              << totals.games << " games, theta+ scored "
              << common::formatFixed(totals.plusPoints, 1) << "/" << totals.games << ", "
              << totals.failures << " games lost by an engine failure\n";
    const std::vector<int> values = spsa.roundedTheta();
    for (std::size_t i = 0; i < values.size(); ++i) {
        const tune::SpsaParam& p = spsa.params()[i];
        std::cout << p.name << " " << common::formatFixed(p.start, 2) << " -> "
                  << common::formatFixed(spsa.theta()[i], 2) << " (" << values[i] << ")\n";
    }
    std::cout << tune::matchOptionString(spsa.params(), values) << "\n";
}

// Plays the run, writing a line per iteration to `out` (when open) and a progress line on
// stderr; then the summary.
int playSpsa(tune::Spsa& spsa, const tune::SpsaRunConfig& config, std::ofstream& out,
             const std::string& outPath, int replayed) {
    SpsaTotals totals;
    totals.replayed = replayed;
    const auto began = std::chrono::steady_clock::now();
    const auto total = static_cast<std::size_t>(spsa.schedule().iterations);
    bool written = true;
    tune::runSpsa(spsa, config, [&](const tune::SpsaIteration& it, const tune::Spsa& now) {
        totals.add(it);
        if (out.is_open()) {
            out << tune::spsaProgressLine(it.proposal.iteration, it.result, now.theta()) << "\n"
                << std::flush;
            written = written && static_cast<bool>(out);
        }
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        const auto done = static_cast<std::size_t>(now.updated());
        const auto played = done - static_cast<std::size_t>(replayed);
        common::showProgress(
            "iteration " + std::to_string(done) + "/" + std::to_string(total) + "  " +
            thetaText(now) + "  ETA " +
            common::formatDuration(common::etaSeconds(elapsed, played, total - done)));
        return written;
    });
    common::endProgress();
    if (!written) return fail("write error on " + outPath);
    printSpsaSummary(spsa, totals);
    return 0;
}

}  // namespace

// lasca-tune spsa: the search's parameters tuned through game pairs (docs/tuning.md).
int spsaCommand(const std::vector<std::string>& args) {
    po::options_description desc("lasca-tune spsa options");
    std::string engineText, paramsFile, openingsFile, outPath, clockText;
    // --nodes and --movetime stay at kNotGiven unless given (a given 0 is out of range).
    constexpr std::int64_t kNotGiven = std::numeric_limits<std::int64_t>::min();
    std::int64_t iterations = 0, nodes = kNotGiven, movetime = kNotGiven, seed = 0, concurrency = 0;
    bool resume = false;
    desc.add_options()("help,h", "this help")(
        "engine", po::value(&engineText)->required(),
        "the engine: PATH, or cmd=PATH,arg=A,option.X=Y (options every game gets)")(
        "params", po::value(&paramsFile)->required(),
        "parameter file: one line each, name start min max c_end r_end (# comments)")(
        "iterations", po::value(&iterations)->required(), "N, the game pairs of the run")(
        "nodes", po::value(&nodes), "nodes per move (give this, --movetime or --tc)")(
        "movetime", po::value(&movetime), "milliseconds per move")(
        "tc", po::value(&clockText),
        "clock of SECONDS+INC per side (the time manager's options need a clock)")(
        "openings", po::value(&openingsFile),
        "file of LFENs, one per line (# comments); default: the start position only")(
        "seed", po::value(&seed)->default_value(1), "seed of the Delta draws and the openings")(
        "concurrency", po::value(&concurrency)->default_value(1), "game pairs played at once")(
        "out", po::value(&outPath), "progress file: iteration, result and theta per line")(
        "resume", po::bool_switch(&resume),
        "continue the run whose progress file --out is (same parameters, iterations and seed)");
    if (!parseOptions(args, desc,
                      "usage: lasca-tune spsa --engine CMD --params FILE --iterations N "
                      "(--nodes N | --movetime MS | --tc S+I) [options]\n"))
        return 0;
    if (!inRange("iterations", iterations, 1, 1'000'000'000) ||
        !inRange("seed", seed, 0, std::numeric_limits<std::int64_t>::max()) ||
        !inRange("concurrency", concurrency, 1, 256))
        return kExitUsage;
    if (resume && outPath.empty())
        return fail("--resume needs --out, the progress file", kExitUsage);
    tune::SpsaRunConfig config;
    if ((nodes != kNotGiven) + (movetime != kNotGiven) + !clockText.empty() != 1)
        return fail("give one of --nodes, --movetime and --tc", kExitUsage);
    if (nodes != kNotGiven) {
        if (!inRange("nodes", nodes, 1, 1'000'000'000)) return kExitUsage;
        config.game.timeControl.kind = match::TimeControl::Kind::Nodes;
        config.game.timeControl.nodes = nodes;
    } else if (movetime != kNotGiven) {
        if (!inRange("movetime", movetime, 1, 3'600'000)) return kExitUsage;
        config.game.timeControl.kind = match::TimeControl::Kind::MoveTime;
        config.game.timeControl.movetimeMs = movetime;
    } else {
        auto clock = match::parseClock(clockText);
        if (!clock) return fail(clock.error(), kExitUsage);
        config.game.timeControl = clock.value();
    }
    config.concurrency = static_cast<int>(concurrency);
    config.seed = static_cast<std::uint64_t>(seed);

    auto engine = match::parseEngineSpec(engineText, match::EngineLimits::Refused);
    if (!engine) return fail("--engine: " + engine.error(), kExitUsage);
    config.engine = engine.value();
    auto paramsText = readSmallFile(paramsFile, "--params");
    if (!paramsText) return fail(paramsText.error(), kExitUsage);
    auto params = tune::parseSpsaParams(paramsText.value());
    if (!params) return fail("--params: " + paramsFile + ": " + params.error(), kExitUsage);
    tune::SpsaSchedule schedule;
    schedule.iterations = static_cast<int>(iterations);
    auto tuner = tune::Spsa::create(params.value(), schedule, config.seed);
    if (!tuner) return fail(tuner.error(), kExitUsage);
    if (!openingsFile.empty()) {
        auto openings = match::loadOpenings(openingsFile);
        if (!openings) return fail("--openings: " + openings.error(), kExitUsage);
        config.openings = openings.value();
    }
    auto checked = tune::checkEngineOptions(config, params.value());
    if (!checked) return fail("--engine: " + checked.error(), kExitUsage);

    // The progress file starts with the title, the header and iteration 0; with --resume, with
    // every line of the earlier run that replayed (tune::resumeSpsa).
    std::string start = tune::spsaProgressTitle(static_cast<int>(iterations), config.seed) + "\n" +
                        tune::spsaProgressHeader(params.value()) + "\n" +
                        tune::spsaProgressLine(0, 0, tuner.value().theta()) + "\n";
    int replayed = 0;
    if (resume) {
        constexpr std::size_t kLargestProgress = std::size_t{256} << 20;
        auto text = readSmallFile(outPath, "--resume", kLargestProgress);
        if (!text) return fail(text.error(), kExitUsage);
        auto resumed = tune::resumeSpsa(tuner.value(), text.value(), config.seed);
        if (!resumed) return fail("--resume: " + outPath + ": " + resumed.error(), kExitUsage);
        replayed = resumed.value().iterations;
        start = std::move(resumed.value().text);
    }
    std::ofstream out;
    if (!outPath.empty()) {
        // That start is written to a file beside it, which then takes its name (a stop at that
        // moment never loses a resumed run's progress); the run appends to it.
        const std::string fresh = outPath + ".new";
        {
            std::ofstream written(fresh, std::ios::trunc);
            if (!(written << start << std::flush)) return fail("cannot write " + fresh);
        }
        std::error_code renamed;
        std::filesystem::rename(fresh, outPath, renamed);
        if (renamed) return fail("cannot replace " + outPath + ": " + renamed.message());
        out.open(outPath, std::ios::app);
        if (!out) return fail("cannot write " + outPath);
    }
    return playSpsa(tuner.value(), config, out, outPath, replayed);
}

}  // namespace lasca::tune
