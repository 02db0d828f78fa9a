// lasca find-wins: positions with a forced win, found in self-play games from openings.
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "command_line.h"
#include "common/progress.h"
#include "lasca/analysis/commands.h"
#include "lasca/analysis/suite.h"
#include "lasca/core/version.h"

namespace lasca::analysis {

namespace {

// FindWinsCli: the command line of `lasca find-wins`.
struct FindWinsCli {
    std::string openings = "data/openings.txt";
    int count = 20;
    WinSearch search;
    std::uint64_t nodes = kDefaultNodes;
    std::uint64_t playNodes = 3000;
    int jobs = 1;
    std::size_t hashMb = 16;
    std::shared_ptr<const eval::nnue::Network> network = AnalysisSettings{}.network;
};

const char* const kFindWinsUsage =
    "usage: lasca find-wins [options] > data/wins.epd\n"
    "Plays each opening forward by self-play and keeps the first position of each game where a\n"
    "forced win is proven, with bm = every winning move (docs/analysis.md).\n";

FindWinsCli readFindWinsCli(int argc, char** argv) {
    po::options_description o("lasca find-wins options");
    o.add_options()("help,h", "this help")  //
        ("openings", textValue("FILE"),
         "openings, one LFEN per line (data/openings.txt)")                 //
        ("count", textValue("N"), "positions to find (default 20)")         //
        ("mate", textValue("M"), "longest win kept, in moves (default 6)")  //
        ("nodes", textValue("N"),
         "nodes of the proof and of the check search (default 100000): the suite's budget")  //
        ("play-nodes", textValue("N"), "nodes per self-play move (default 3000)")            //
        ("probe-score", textValue("CP"),
         "probe positions self-play scores at least this (centi-soldiers, default 300)")  //
        ("first-ply", textValue("P"), "probe from this ply of a game (default 4)")        //
        ("max-plies", textValue("P"), "give a game up after this many plies (200)")       //
        ("jobs", textValue("J"), "games played at once (default 1)")                      //
        ("eval", textValue("E"), kEvalHelp)                                               //
        ("hash", textValue("MB"), "hash per analyser in MB (default 16)");
    const po::variables_map vm = parseCommandLine(argc, argv, o, {});
    if (vm.count("help")) {
        std::cout << kFindWinsUsage << "\n" << o << "\n";
        std::exit(0);
    }
    FindWinsCli cli;
    if (vm.count("openings")) cli.openings = vm["openings"].as<std::string>();
    cli.count = intOption(vm, "count", 1, 100000, cli.count);
    cli.search.mate = intOption(vm, "mate", 1, 64, cli.search.mate);
    cli.nodes = static_cast<std::uint64_t>(numberOption(vm, "nodes", 1, kMaxNodes, kDefaultNodes));
    cli.playNodes = static_cast<std::uint64_t>(numberOption(vm, "play-nodes", 1, kMaxNodes, 3000));
    cli.search.probeScore = intOption(vm, "probe-score", 0, kMateBound, cli.search.probeScore);
    cli.search.firstPly = intOption(vm, "first-ply", 0, 10000, cli.search.firstPly);
    cli.search.maxPlies = intOption(vm, "max-plies", 1, 10000, cli.search.maxPlies);
    cli.jobs = intOption(vm, "jobs", 1, kMaxJobs, 1);
    cli.hashMb = static_cast<std::size_t>(numberOption(vm, "hash", 1, kMaxHashMb, 16));
    readEvalOption(vm, cli.network);
    return cli;
}

// OpeningJob / WinRecord: one self-play game and the win found in it, if any.
struct OpeningJob {
    int index = 0;
    Position opening;
};
struct WinRecord {
    int index = 0;
    std::optional<FoundWin> win;
};

// WinHunter: a worker's three analysers: self-play, the mate-limited proof, the plain check.
struct WinHunter {
    std::unique_ptr<Analyser> player, prover, checker;
};

WinHunter makeHunter(const FindWinsCli& cli) {
    AnalysisSettings settings;
    settings.hashMb = cli.hashMb;
    settings.network = cli.network;
    settings.limits.nodes = cli.playNodes;
    WinHunter h;
    h.player = makeAnalyser(settings);
    settings.limits.nodes = cli.nodes;
    h.checker = makeAnalyser(settings);
    settings.limits.mate = cli.search.mate;
    h.prover = makeAnalyser(settings);
    return h;
}

std::vector<OpeningJob> readOpenings(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw UsageError{"cannot read '" + path + "'"};
    std::vector<OpeningJob> jobs;
    int lineNumber = 0;
    for (std::string line; std::getline(in, line);) {
        ++lineNumber;
        if (isSuiteComment(line)) continue;
        auto pos = Position::fromLfen(line);
        if (!pos) {
            reportSkipped("opening", static_cast<int>(jobs.size()) + 1, lineNumber, pos.error());
            continue;
        }
        jobs.push_back({static_cast<int>(jobs.size()), pos.value()});
    }
    return jobs;
}

// The '#' lines at the head of a suite written by find-wins: how it was made.
std::string suiteHeader(const FindWinsCli& cli) {
    return "# Proven forced wins (docs/analysis.md), made by: lasca find-wins --openings " +
           cli.openings + " --count " + std::to_string(cli.count) + " --mate " +
           std::to_string(cli.search.mate) + " --nodes " + std::to_string(cli.nodes) +
           " --play-nodes " + std::to_string(cli.playNodes) + " --probe-score " +
           std::to_string(cli.search.probeScore) + " --first-ply " +
           std::to_string(cli.search.firstPly) + " --max-plies " +
           std::to_string(cli.search.maxPlies) +
           "\n# Each line: the first position of a self-play game from an opening where a win in\n"
           "# at most --mate moves is proven within --nodes nodes; bm lists every move proven to "
           "win.\n";
}

std::string paddedNumber(int n) {
    std::string text = std::to_string(n);
    return std::string(text.size() < 3 ? 3 - text.size() : 0, '0') + text;
}

}  // namespace

int runFindWins(int argc, char** argv) {
    startLogging();
    return common::runCommandLine<po::error>("lasca", [&] {
        const FindWinsCli cli = readFindWinsCli(argc, argv);
        const std::vector<OpeningJob> jobs = readOpenings(cli.openings);
        const int threads = threadCount(cli.jobs, jobs.size());
        std::vector<WinHunter> hunters;  // one per thread, made before the run (see makeAnalysers)
        for (int i = 0; i < threads; ++i) hunters.push_back(makeHunter(cli));
        auto makeWorker = [&cli, &hunters](int id) {
            WinHunter* hunter = &hunters[static_cast<std::size_t>(id - 1)];
            return [hunter, &cli](const OpeningJob& job) {
                return WinRecord{job.index, findWin(job.opening, *hunter->player, *hunter->prover,
                                                    *hunter->checker, cli.search)};
            };
        };
        const Stopwatch clock;
        int found = 0;
        std::cout << suiteHeader(cli) << std::flush;
        auto emit = [&](const WinRecord& r) {
            if (r.win) {
                ++found;
                std::cout << formatSuiteLine(r.win->position, r.win->winning,
                                             "wins." + paddedNumber(found),
                                             "mate " + std::to_string(r.win->mateIn) + ", ply " +
                                                 std::to_string(r.win->ply) + " of opening " +
                                                 std::to_string(r.index + 1))
                          << "\n"
                          << std::flush;
            }
            common::showProgress("openings " + std::to_string(r.index + 1) + "/" +
                                 std::to_string(jobs.size()) + "  found " + std::to_string(found) +
                                 "/" + std::to_string(cli.count) + "  " +
                                 common::formatFixed(clock.seconds(), 0) + " s");
            return found < cli.count;
        };
        runInOrder<OpeningJob, WinRecord>(jobs, threads, makeWorker, emit);
        common::endProgress();
        std::cerr << "lasca find-wins: " << found << " positions from the games of " << jobs.size()
                  << " openings in " << common::formatFixed(clock.seconds(), 1) << " s\n";
        return 0;
    });
}

}  // namespace lasca::analysis
