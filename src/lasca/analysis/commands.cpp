#include "lasca/analysis/commands.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/cli.h"
#include "common/jobs.h"
#include "common/logging.h"
#include "common/progress.h"
#include "common/shard.h"
#include "common/text.h"
#include "lasca/analysis/analysis.h"
#include "lasca/analysis/diagram.h"
#include "lasca/core/notation.h"
#include "lasca/analysis/suite.h"
#include "lasca/core/version.h"

namespace po = boost::program_options;

namespace lasca::cli {

namespace {

using common::UsageError;

constexpr std::int64_t kDefaultNodes = 100000;
constexpr std::int64_t kMaxNodes = std::int64_t{1} << 50;
constexpr std::int64_t kMaxMoveTime = 1000000000;
constexpr std::int64_t kMaxJobs = 256;
constexpr std::int64_t kMaxHashMb = 32768;

// ---------------------------------------------------------------------------------------------
// Command-line plumbing shared by the commands

// A whole-number option in [low, high], or `fallback` when it is not given.
std::int64_t numberOption(const po::variables_map& vm, const std::string& name, std::int64_t low,
                          std::int64_t high, std::int64_t fallback) {
    if (!vm.count(name)) return fallback;
    const std::string text = vm[name].as<std::string>();
    const auto value = common::parseBoundedInteger(text, low, high);
    if (!value)
        throw UsageError{"--" + name + " needs a number in " + std::to_string(low) + ".." +
                         std::to_string(high) + ", got '" + common::printable(text) + "'"};
    return *value;
}

int intOption(const po::variables_map& vm, const std::string& name, int low, int high,
              int fallback) {
    return static_cast<int>(numberOption(vm, name, low, high, fallback));
}

// A string option, shown as `--name NAME` in the help.
po::typed_value<std::string>* textValue(const char* name) {
    return po::value<std::string>()->value_name(name);
}

// Long options only, never abbreviated; with `shortOptions` false, an argument starting with
// '-' is not an option either (an LFEN board may start with "-,").
po::variables_map parseCommandLine(int argc, char** argv, const po::options_description& options,
                                   const po::positional_options_description& positional,
                                   bool shortOptions = true) {
    int style = po::command_line_style::unix_style ^ po::command_line_style::allow_guessing;
    if (!shortOptions) style ^= po::command_line_style::allow_short;
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv)
                  .options(options)
                  .positional(positional)
                  .style(style)
                  .run(),
              vm);
    po::notify(vm);
    return vm;
}

// Logs go to stderr (common::initLogging), never to stdout, which carries the output.
void startLogging() {
    (void)common::initLogging("warn", "");
}

// Stopwatch: seconds since it was made.
class Stopwatch {
  public:
    double seconds() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

  private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// InOrder: hands the records of a job run to `emit` in job order, whichever order the workers
// finish them in. Once emit returns false (enough), later records are dropped and the run is
// told to stop. Records carry `int index`, 0, 1, 2, ... in job order.
template <class Record>
class InOrder {
  public:
    explicit InOrder(std::function<bool(const Record&)> emit) : emit_(std::move(emit)) {}

    bool add(const Record& record) {
        pending_.emplace(record.index, record);
        while (!stopped_ && !pending_.empty() && pending_.begin()->first == next_) {
            stopped_ = !emit_(pending_.begin()->second);
            pending_.erase(pending_.begin());
            ++next_;
        }
        return !stopped_;
    }

  private:
    std::function<bool(const Record&)> emit_;
    std::map<int, Record> pending_;
    int next_ = 0;
    bool stopped_ = false;
};

// Runs the jobs on `concurrency` threads (each with its own worker from makeWorker) and hands
// each record to `emit` in job order (common::runJobs).
template <class Job, class Record, class MakeWorker>
void runInOrder(const std::vector<Job>& jobs, int concurrency, const MakeWorker& makeWorker,
                std::function<bool(const Record&)> emit) {
    InOrder<Record> order(std::move(emit));
    const common::RecordCallback<Record> onRecord =
        [&order](const Record& r, const std::vector<Record>&) { return order.add(r); };
    common::runJobs(jobs, std::vector<Record>{}, concurrency, makeWorker, onRecord);
}

// "12.3/s" and the time left, for the progress line.
std::string rateAndEta(double elapsed, std::size_t done, std::size_t total) {
    const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0;
    return common::formatFixed(rate, 1) + "/s  ETA " +
           common::formatDuration(common::etaSeconds(elapsed, done, total - done));
}

// --eval E (nnue, classic or a network file) sets the evaluation the searches use; without it
// `network` keeps its default (the engine's, AnalysisSettings).
void readEvalOption(const po::variables_map& vm, std::shared_ptr<const nnue::Network>& network) {
    if (!vm.count("eval")) return;
    auto chosen = nnue::networkForEval(vm["eval"].as<std::string>());
    if (!chosen) throw UsageError{"--eval: " + chosen.error()};
    network = chosen.value();
}

constexpr const char* kEvalHelp =
    "evaluation: nnue (the default: the embedded network), classic, or a network file";

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
    SearchLimits& limits = cli.settings.limits;
    if (vm.count("movetime")) {
        limits.clock.moveTime = numberOption(vm, "movetime", 1, kMaxMoveTime, 0);
        cli.limitText = "movetime " + std::to_string(limits.clock.moveTime);
    } else if (vm.count("depth")) {
        limits.depth = intOption(vm, "depth", 1, kMaxDepth, 0);
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
    cli.settings.threads = intOption(vm, "threads", 1, kMaxThreads, 1);
    cli.settings.multiPV = intOption(vm, "multipv", 1, kMaxMultiPV, 1);
    cli.settings.hashMb = static_cast<std::size_t>(numberOption(vm, "hash", 1, kMaxHashMb, 16));
    readEvalOption(vm, cli.settings.network);
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

std::unique_ptr<Analyser> makeAnalyser(const AnalysisSettings& settings) {
    auto analyser = Analyser::create(settings);
    if (!analyser) throw UsageError{"--hash: " + analyser.error()};
    return std::move(analyser).value();
}

// The threads of a run: as many as --jobs, but no more than there is work for.
int threadCount(int jobs, std::size_t work) {
    return std::clamp(static_cast<int>(std::min<std::size_t>(work, kMaxJobs)), 1, jobs);
}

// One analyser per job thread (thread ids from 1), all made before the run starts, so that a
// hash the machine cannot give is a command-line error and never an exception in a worker.
std::vector<std::unique_ptr<Analyser>> makeAnalysers(const AnalysisSettings& settings,
                                                     int threads) {
    std::vector<std::unique_ptr<Analyser>> analysers;
    for (int i = 0; i < threads; ++i) analysers.push_back(makeAnalyser(settings));
    return analysers;
}

// "lasca: game 3 (line 45): <what>; skipped", on stderr.
void reportSkipped(const std::string& what, int number, int line, const std::string& error) {
    common::endProgress();
    std::cerr << "lasca: " << what << " " << number << " (line " << line << "): " << error
              << "; skipped\n";
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

// ---------------------------------------------------------------------------------------------
// lasca find-wins

// FindWinsCli: the command line of `lasca find-wins`.
struct FindWinsCli {
    std::string openings = "data/openings.txt";
    int count = 20;
    WinSearch search;
    std::uint64_t nodes = kDefaultNodes;
    std::uint64_t playNodes = 3000;
    int jobs = 1;
    std::size_t hashMb = 16;
    std::shared_ptr<const nnue::Network> network = AnalysisSettings{}.network;
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

int runDiagram(int argc, char** argv) {
    startLogging();
    // Short options are off (an LFEN may start with '-'), but -h still asks for help.
    static char help[] = "--help";
    std::vector<char*> args(argv, argv + argc);
    for (char*& arg : args)
        if (std::string_view(arg) == "-h") arg = help;
    return common::runCommandLine<po::error>("lasca", [&] {
        po::options_description o("lasca diagram options");
        o.add_options()("help,h", "this help")                                                    //
            ("flip", po::bool_switch(), "Black's side at the bottom")                             //
            ("last", textValue("MOVE"), "highlight this move (c3-d4, d2xb4xd6)")                  //
            ("size", textValue("PX"), "pixels per square, 24..512 (default 64)")                  //
            ("no-coordinates", po::bool_switch(), "leave out the file letters and rank numbers")  //
            ("no-caption", po::bool_switch(), "leave out the side to move under the board");
        po::options_description all;
        all.add(o).add_options()("lfen", po::value<std::vector<std::string>>(), "LFEN");
        po::positional_options_description positional;
        positional.add("lfen", -1);
        const po::variables_map vm = parseCommandLine(argc, args.data(), all, positional, false);
        if (vm.count("help")) {
            std::cout << "usage: lasca diagram LFEN [options] > position.svg\n\n" << o << "\n";
            return 0;
        }
        if (!vm.count("lfen")) throw UsageError{"give a position (LFEN)"};
        std::string lfen;
        for (const auto& token : vm["lfen"].as<std::vector<std::string>>())
            lfen += std::string(lfen.empty() ? "" : " ") + token;
        auto pos = Position::fromLfen(lfen);
        if (!pos) throw UsageError{"LFEN: " + pos.error()};
        DiagramOptions options;
        options.flip = vm["flip"].as<bool>();
        options.squareSize = intOption(vm, "size", 24, 512, options.squareSize);
        options.coordinates = !vm["no-coordinates"].as<bool>();
        options.caption = !vm["no-caption"].as<bool>();
        if (vm.count("last")) {
            auto squares = moveSquares(vm["last"].as<std::string>());
            if (!squares) throw UsageError{"--last: " + squares.error()};
            options.lastMove = squares.value();
        }
        std::cout << diagramSvg(pos.value(), options) << std::flush;
        return 0;
    });
}

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

}  // namespace lasca::cli
