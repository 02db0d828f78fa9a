// lasca analyse: games annotated with winning chances and marks, or a position suite solved
// (docs/analysis.md).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "command_line.h"
#include "common/progress.h"
#include "common/shard.h"
#include "common/text.h"
#include "lasca/analysis/analysis.h"
#include "lasca/analysis/commands.h"
#include "lasca/analysis/diagram.h"
#include "lasca/analysis/suite.h"
#include "lasca/core/notation.h"
#include "lasca/core/version.h"
#include "lasca/egtb/egtb.h"

namespace lasca::analysis {

namespace {

// ---------------------------------------------------------------------------------------------
// lasca analyse

// AnalyseCli: the command line of `lasca analyse`.
//   input          the PDN file (games), or positions: the positions file (--positions)
//   limitText      the search limit as the Annotator tag shows it ("nodes 100000")
//   out            --out FILE, or empty for stdout
struct AnalyseCli {
    AnalysisSettings settings;
    std::string limitText;
    std::string input;
    bool positions = false;
    int jobs = 1;
    bool json = false;
    std::string svgDir;
    std::string out;
    common::Shard shard;
};

const char* const kAnalyseUsage =
    "usage: lasca analyse GAMES.pdn [options]        annotate games (PDN, or --json lines)\n"
    "       lasca analyse --positions FILE [options] search each position of a test suite\n";

po::options_description analyseOptions() {
    po::options_description o("lasca analyse options");
    o.add_options()("help,h", "this help")                                     //
        ("movetime", textValue("MS"), "search each position MS milliseconds")  //
        ("depth", textValue("D"), "search each position to depth D (1..100)")  //
        ("nodes", textValue("N"),
         "search each position N nodes (the default: 100000)")                           //
        ("threads", textValue("T"), "search threads per job (default 1)")                //
        ("jobs", textValue("J"), "games or positions analysed at once (default 1)")      //
        ("hash", textValue("MB"), "hash per job in MB (default 16)")                     //
        ("multipv", textValue("K"), "lines per position, 1..64 (default 1)")             //
        ("eval", textValue("E"), kEvalHelp)                                              //
        ("egtb", textValue("DIR"), "probe the endgame tables of DIR (lasca-tune egtb)")  //
        ("json", po::bool_switch(), "one JSON object per line instead of PDN or text")   //
        ("svg", textValue("DIR"), "write each game's evaluation graph into DIR")         //
        ("shard", textValue("i/n"), "analyse only shard i/n of the games or positions")  //
        ("out", textValue("FILE"), "write to FILE instead of stdout")                    //
        ("positions", textValue("FILE"), "a positions file (LFEN + bm/am/id) instead of games");
    return o;
}

// Exactly one of --movetime, --depth, --nodes (nodes 100000 when none is given).
void readLimits(const po::variables_map& vm, AnalyseCli& cli) {
    const int given =
        static_cast<int>(vm.count("movetime") + vm.count("depth") + vm.count("nodes"));
    if (given > 1) throw UsageError{"give at most one of --movetime, --depth and --nodes"};
    search::SearchLimits& limits = cli.settings.limits;
    if (vm.count("movetime")) {
        limits.clock.moveTime = numberOption(vm, "movetime", 1, kMaxMoveTime, 0);
        cli.limitText = "movetime " + std::to_string(limits.clock.moveTime);
    } else if (vm.count("depth")) {
        limits.depth = intOption(vm, "depth", 1, search::kMaxDepth, 0);
        cli.limitText = "depth " + std::to_string(limits.depth);
    } else {
        limits.nodes =
            static_cast<std::uint64_t>(numberOption(vm, "nodes", 1, kMaxNodes, kDefaultNodes));
        cli.limitText = "nodes " + std::to_string(limits.nodes);
    }
}

AnalyseCli readAnalyseCli(int argc, char** argv) {
    po::options_description options = analyseOptions();
    po::options_description all;
    all.add(options).add_options()("input", po::value<std::vector<std::string>>(), "input");
    po::positional_options_description positional;
    positional.add("input", -1);
    const po::variables_map vm = parseCommandLine(argc, argv, all, positional);
    if (vm.count("help")) {
        std::cout << kAnalyseUsage << "\n" << options << "\n";
        std::exit(0);
    }
    AnalyseCli cli;
    const auto inputs =
        vm.count("input") ? vm["input"].as<std::vector<std::string>>() : std::vector<std::string>{};
    cli.positions = vm.count("positions") > 0;
    if (cli.positions && !inputs.empty())
        throw UsageError{"give either a PDN file or --positions FILE, not both"};
    if (!cli.positions && inputs.size() != 1)
        throw UsageError{"give one PDN file (or --positions FILE); try 'lasca analyse --help'"};
    cli.input = cli.positions ? vm["positions"].as<std::string>() : inputs.front();
    readLimits(vm, cli);
    cli.settings.threads = intOption(vm, "threads", 1, search::kMaxThreads, 1);
    cli.settings.multiPV = intOption(vm, "multipv", 1, search::kMaxMultiPV, 1);
    cli.settings.hashMb = static_cast<std::size_t>(numberOption(vm, "hash", 1, kMaxHashMb, 16));
    readEvalOption(vm, cli.settings.network);
    if (vm.count("egtb")) {
        auto tables = egtb::Tablebase::open(vm["egtb"].as<std::string>());
        if (!tables) throw UsageError{"--egtb: " + tables.error()};
        cli.settings.tablebase = std::make_shared<const egtb::Tablebase>(std::move(tables).value());
    }
    cli.jobs = intOption(vm, "jobs", 1, kMaxJobs, 1);
    cli.json = vm["json"].as<bool>();
    if (vm.count("svg")) cli.svgDir = vm["svg"].as<std::string>();
    if (cli.positions && !cli.svgDir.empty())
        throw UsageError{"--svg draws the graphs of games; it does not go with --positions"};
    if (vm.count("out")) cli.out = vm["out"].as<std::string>();
    if (vm.count("shard")) {
        auto shard = common::parseShard(vm["shard"].as<std::string>());
        if (!shard) throw UsageError{shard.error()};
        cli.shard = shard.value();
    }
    return cli;
}

// GameJob: one game to analyse. number is its 0-based place in the file.
struct GameJob {
    int index = 0;
    int number = 0;
    int line = 0;
    PdnGame game;
};

// GameRecord: one analysed game, ready to write.
//   error    what went wrong (the game is skipped), else empty
//   text     annotated PDN, or JSON lines
//   svg      the evaluation graph (with --svg)
struct GameRecord {
    int index = 0;
    int number = 0;
    int line = 0;
    std::string error;
    std::string text;
    std::string svg;
    std::array<std::string, 2> names;
    std::array<PlayerSummary, 2> players;
    int positions = 0;
    std::uint64_t nodes = 0;
};

std::string graphTitle(const PdnGame& game) {
    return game.tag("White").value_or("?") + " - " + game.tag("Black").value_or("?") + "  " +
           game.result;
}

GameRecord analyseJob(const GameJob& job, Analyser& analyser, const AnalyseCli& cli,
                      const std::string& annotator) {
    GameRecord r;
    r.index = job.index;
    r.number = job.number;
    r.line = job.line;
    auto analysis = analyseGame(job.number, job.game, analyser);
    if (!analysis) {
        r.error = analysis.error();
        return r;
    }
    const GameAnalysis& a = analysis.value();
    if (cli.json) {
        for (const std::string& line : jsonLines(a)) r.text += line + "\n";
    } else {
        r.text = writePdn(annotatedPdn(a, annotator));
    }
    if (!cli.svgDir.empty()) r.svg = chanceGraphSvg(chanceCurve(a), {graphTitle(job.game)});
    r.names = {job.game.tag("White").value_or("?"), job.game.tag("Black").value_or("?")};
    r.players = a.players;
    r.positions = a.positions;
    r.nodes = a.nodes;
    return r;
}

// RunTotals: what a run of `lasca analyse` did, for the closing report.
struct RunTotals {
    std::size_t done = 0;
    std::size_t skipped = 0;
    std::size_t positions = 0;
    std::uint64_t nodes = 0;
    bool writeFailed = false;
    std::map<std::string, PlayerSummary> players;
};

bool writeFile(const std::filesystem::path& path, const std::string& text) {
    std::ofstream file(path);
    file << text;
    return static_cast<bool>(file);
}

// "lasca analyse: 12 games, 1034 positions, ... (10.9 positions/s); 1 skipped", then the
// totals per player, on stderr.
void printClosingReport(bool games, const RunTotals& t, double seconds) {
    std::cerr << "lasca analyse: ";
    if (games) std::cerr << t.done << " games, ";
    std::cerr << t.positions << " positions, " << t.nodes << " nodes in "
              << common::formatFixed(seconds, 1) << " s ("
              << common::formatFixed(static_cast<double>(t.positions) / std::max(seconds, 1e-9), 1)
              << " positions/s)";
    if (t.skipped > 0) std::cerr << "; " << t.skipped << " skipped";
    std::cerr << "\n";
    for (const auto& [name, summary] : t.players)
        std::cerr << "  " << name << ": " << summary.moves << " moves, " << summaryText(summary)
                  << "\n";
}

int exitCode(const RunTotals& t) {
    return t.skipped > 0 || t.writeFailed ? common::kExitError : 0;
}

// Writes a finished game (or reports it skipped) and counts it.
void writeGame(const GameRecord& r, const AnalyseCli& cli, std::ostream& out, RunTotals& totals) {
    if (!r.error.empty()) {
        reportSkipped("game", r.number + 1, r.line, r.error);
        ++totals.skipped;
        return;
    }
    out << r.text << std::flush;
    ++totals.done;
    totals.positions += static_cast<std::size_t>(r.positions);
    totals.nodes += r.nodes;
    for (std::size_t c = 0; c < 2; ++c) totals.players[r.names[c]].add(r.players[c]);
    if (cli.svgDir.empty()) return;
    const auto svgPath =
        std::filesystem::path(cli.svgDir) / ("game-" + std::to_string(r.number + 1) + ".svg");
    if (!writeFile(svgPath, r.svg)) {
        std::cerr << "lasca: cannot write " << svgPath.string() << "\n";
        totals.writeFailed = true;
    }
}

int analyseGames(const AnalyseCli& cli, std::ostream& out) {
    std::ifstream in(cli.input);
    if (!in) throw UsageError{"cannot read '" + cli.input + "'"};
    const std::vector<PdnEntry> entries = readPdnEntries(in);
    if (!cli.svgDir.empty()) {
        std::error_code error;
        std::filesystem::create_directories(cli.svgDir, error);
        if (error) throw UsageError{"--svg: cannot make '" + cli.svgDir + "': " + error.message()};
    }
    RunTotals totals;
    std::vector<GameJob> jobs;
    std::size_t expectedPositions = 0;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const int number = static_cast<int>(i);
        if (!cli.shard.holds(number)) continue;
        if (!entries[i].game) {
            reportSkipped("game", number + 1, entries[i].line, entries[i].game.error());
            ++totals.skipped;
            continue;
        }
        jobs.push_back(
            {static_cast<int>(jobs.size()), number, entries[i].line, entries[i].game.value()});
        expectedPositions += entries[i].game.value().moves.size() + 1;
    }
    const int threads = threadCount(cli.jobs, jobs.size());
    const auto analysers = makeAnalysers(cli.settings, threads);
    const std::string annotator = "lasca " + std::string(kVersion) + " analyse, " + cli.limitText;
    auto makeWorker = [&cli, &annotator, &analysers](int id) {
        Analyser* analyser = analysers[static_cast<std::size_t>(id - 1)].get();
        return [analyser, &cli, &annotator](const GameJob& job) {
            return analyseJob(job, *analyser, cli, annotator);
        };
    };
    const Stopwatch clock;
    std::size_t positionsSeen = 0;
    auto emit = [&](const GameRecord& r) {
        positionsSeen += jobs[static_cast<std::size_t>(r.index)].game.moves.size() + 1;
        writeGame(r, cli, out, totals);
        common::showProgress("games " + std::to_string(r.index + 1) + "/" +
                             std::to_string(jobs.size()) + "  positions " +
                             std::to_string(totals.positions) + "  " +
                             rateAndEta(clock.seconds(), positionsSeen, expectedPositions));
        return true;
    };
    runInOrder<GameJob, GameRecord>(jobs, threads, makeWorker, emit);
    common::endProgress();
    printClosingReport(true, totals, clock.seconds());
    return exitCode(totals);
}

// PositionJob: one position of a suite; number is its 1-based place among the file's positions.
struct PositionJob {
    int index = 0;
    int number = 0;
    SuiteEntry entry;
};

// PositionRecord: the result lines of one position.
struct PositionRecord {
    int index = 0;
    std::string text;
    Verdict verdict = Verdict::Unjudged;
    std::uint64_t nodes = 0;
};

PositionRecord analysePositionJob(const PositionJob& job, Analyser& analyser,
                                  const AnalyseCli& cli) {
    analyser.clear();
    const PositionAnalysis a = analyser.analyse(job.entry.position);
    PositionRecord r;
    r.index = job.index;
    r.nodes = a.nodes;
    r.verdict = a.hasMove() ? judge(job.entry, a.bestMove()) : Verdict::Unjudged;
    if (cli.json) {
        r.text = resultJson(job.number, job.entry, a) + "\n";
    } else {
        for (const std::string& line : resultLines(job.number, job.entry, a)) r.text += line + "\n";
    }
    return r;
}

std::string solvedLine(bool json, int solved, int judged, std::size_t positions) {
    if (!json) return "solved " + std::to_string(solved) + "/" + std::to_string(judged) + "\n";
    return "{\"type\":\"suite\",\"positions\":" + std::to_string(positions) +
           ",\"judged\":" + std::to_string(judged) + ",\"solved\":" + std::to_string(solved) +
           "}\n";
}

int analysePositions(const AnalyseCli& cli, std::ostream& out) {
    std::ifstream in(cli.input);
    if (!in) throw UsageError{"cannot read '" + cli.input + "'"};
    RunTotals totals;
    std::vector<PositionJob> jobs;
    int number = 0, lineNumber = 0;
    for (std::string line; std::getline(in, line);) {
        ++lineNumber;
        if (isSuiteComment(line)) continue;
        ++number;
        if (!cli.shard.holds(number - 1)) continue;
        auto entry = parseSuiteLine(line, lineNumber);
        if (!entry) {
            reportSkipped("position", number, lineNumber, entry.error());
            ++totals.skipped;
            continue;
        }
        jobs.push_back({static_cast<int>(jobs.size()), number, entry.value()});
    }
    const int threads = threadCount(cli.jobs, jobs.size());
    const auto analysers = makeAnalysers(cli.settings, threads);
    auto makeWorker = [&cli, &analysers](int id) {
        Analyser* analyser = analysers[static_cast<std::size_t>(id - 1)].get();
        return [analyser, &cli](const PositionJob& job) {
            return analysePositionJob(job, *analyser, cli);
        };
    };
    const Stopwatch clock;
    int solved = 0, judged = 0;
    auto emit = [&](const PositionRecord& r) {
        out << r.text << std::flush;
        ++totals.done;
        ++totals.positions;
        totals.nodes += r.nodes;
        judged += r.verdict != Verdict::Unjudged;
        solved += r.verdict == Verdict::Solved;
        common::showProgress("positions " + std::to_string(totals.done) + "/" +
                             std::to_string(jobs.size()) + "  solved " + std::to_string(solved) +
                             "/" + std::to_string(judged) + "  " +
                             rateAndEta(clock.seconds(), totals.done, jobs.size()));
        return true;
    };
    runInOrder<PositionJob, PositionRecord>(jobs, threads, makeWorker, emit);
    common::endProgress();
    out << solvedLine(cli.json, solved, judged, jobs.size()) << std::flush;
    printClosingReport(false, totals, clock.seconds());
    return exitCode(totals);
}

}  // namespace

int runAnalyse(int argc, char** argv) {
    startLogging();
    return common::runCommandLine<po::error>("lasca", [&] {
        const AnalyseCli cli = readAnalyseCli(argc, argv);
        std::ofstream file;
        if (!cli.out.empty()) {
            file.open(cli.out);
            if (!file) throw UsageError{"--out: cannot write '" + cli.out + "'"};
        }
        std::ostream& out = cli.out.empty() ? std::cout : file;
        return cli.positions ? analysePositions(cli, out) : analyseGames(cli, out);
    });
}

}  // namespace lasca::analysis
