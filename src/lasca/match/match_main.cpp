// lasca-match: engine-vs-engine matches refereed by the rules core (docs/match.md).
//   lasca-match --engine SPEC [--engine SPEC] [options]   play a match
//   lasca-match openings --plies N [--count K] [--seed S]  print opening LFENs
//   lasca-match replay FILE...                             re-check PDN games
//   lasca-match merge FILE...                              statistics of PDN files together
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/cli.h"
#include "common/progress.h"
#include "common/text.h"
#include "common/version.h"
#include "lasca/match/match.h"
#include "lasca/match/openings.h"
#include "lasca/match/pdn_record.h"
#include "lasca/match/stats.h"

namespace po = boost::program_options;
using namespace lasca;
using namespace lasca::match;

namespace {

using common::kExitError;
using common::UsageError;

// "PATH" or "name=N,cmd=PATH,arg=A,proto=ugi,movetime=MS,nodes=N,option.Hash=32".
EngineSpec parseEngine(const std::string& text) {
    auto e = parseEngineSpec(text, EngineLimits::Allowed);
    if (!e) throw UsageError{e.error()};
    return e.value();
}

Shard parseShard(const std::string& text) {
    auto shard = common::parseShard(text);
    if (!shard) throw UsageError{shard.error()};
    return shard.value();
}

// Everything the match command line holds besides the MatchConfig itself.
struct MatchCli {
    MatchConfig config;
    std::string pdnPath;
    std::string event = "lasca-match";
    bool resume = false;
    std::optional<SprtConfig> sprt;
};

po::options_description matchOptions() {
    po::options_description o("lasca-match options");
    o.add_options()("help,h", "this help")(
        "engine,e", po::value<std::vector<std::string>>()->composing(),
        "engine: PATH, or name=N,cmd=PATH,arg=A,proto=uci|ugi,movetime=MS|nodes=N,option.X=Y "
        "(give once for self-play, twice for a match; the first one is the engine measured; "
        "movetime/nodes: this engine's own limit per move)")(
        "games,g", po::value<int>()->default_value(2), "number of games (pairs of two)")(
        "movetime", po::value<std::int64_t>(), "fixed time per move, ms (default 100)")(
        "nodes", po::value<std::int64_t>(), "fixed nodes per move")("depth", po::value<int>(),
                                                                    "fixed depth per move")(
        "tc", po::value<std::string>(), "clock: SECONDS+INC, measured by the runner")(
        "margin", po::value<int>()->default_value(250), "ms allowed beyond the time, per move")(
        "timeout-start", po::value<int>()->default_value(10000), "ms to wait for uciok/ugiok")(
        "timeout-ready", po::value<int>()->default_value(5000), "ms to wait for readyok")(
        "timeout-search", po::value<int>()->default_value(60000),
        "ms to wait for a move under --nodes/--depth")("openings", po::value<std::string>(),
                                                       "file of LFENs, one per line (# comments)")(
        "concurrency,c", po::value<int>(), "games at once (default: number of cores)")(
        "pdn", po::value<std::string>(),
        "append every game to this PDN file (created when missing; games already in it are kept, "
        "and counted only with --resume)")(
        "resume", "continue the match recorded in --pdn (its games are not played again)")(
        "event", po::value<std::string>(), "PDN Event tag (default lasca-match)")(
        "max-plies", po::value<int>()->default_value(0), "adjudicate a draw after N plies (0 off)")(
        "no-repetition-draw", "switch off T1 (threefold repetition)")(
        "no-progress-draw", "switch off T2 (100 plies without progress)")(
        "log-dir", po::value<std::string>()->default_value("match-logs"),
        "directory for engine stderr logs ('' to discard)")(
        "shard", po::value<std::string>(), "play only shard i/n of the game pairs (1 <= i <= n)")(
        "sprt", "stop when the pentanomial SPRT decides (see --elo0 --elo1 --alpha --beta)")(
        "elo0", po::value<double>()->default_value(0, "0"), "SPRT H0 Elo (logistic)")(
        "elo1", po::value<double>()->default_value(5, "5"), "SPRT H1 Elo (logistic)")(
        "alpha", po::value<double>()->default_value(0.05, "0.05"), "SPRT false positive rate")(
        "beta", po::value<double>()->default_value(0.05, "0.05"), "SPRT false negative rate");
    return o;
}

TimeControl timeControl(const po::variables_map& vm) {
    TimeControl t;
    const int given = static_cast<int>(vm.count("movetime") + vm.count("nodes") +
                                       vm.count("depth") + vm.count("tc"));
    if (given > 1) throw UsageError{"give only one of --movetime --nodes --depth --tc"};
    if (vm.count("movetime")) t.movetimeMs = vm["movetime"].as<std::int64_t>();
    if (vm.count("nodes")) {
        t.kind = TimeControl::Kind::Nodes;
        t.nodes = vm["nodes"].as<std::int64_t>();
    }
    if (vm.count("depth")) {
        t.kind = TimeControl::Kind::Depth;
        t.depth = vm["depth"].as<int>();
    }
    if (vm.count("tc")) {
        auto clock = parseClock(vm["tc"].as<std::string>());
        if (!clock) throw UsageError{clock.error()};
        t.kind = clock.value().kind;
        t.baseMs = clock.value().baseMs;
        t.incMs = clock.value().incMs;
    }
    if (t.movetimeMs < 1 || (t.kind == TimeControl::Kind::Nodes && t.nodes < 1) ||
        (t.kind == TimeControl::Kind::Depth && t.depth < 1))
        throw UsageError{"time control values must be positive"};
    t.margin = std::chrono::milliseconds(vm["margin"].as<int>());
    t.searchTimeout = std::chrono::milliseconds(vm["timeout-search"].as<int>());
    return t;
}

std::vector<std::string> openingsOf(const std::string& path) {
    auto openings = loadOpenings(path);
    if (!openings) throw UsageError{openings.error()};
    return openings.value();
}

void setEngines(const po::variables_map& vm, MatchConfig& c) {
    if (!vm.count("engine")) throw UsageError{"give at least one --engine"};
    const auto specs = vm["engine"].as<std::vector<std::string>>();
    if (specs.size() > 2) throw UsageError{"at most two --engine"};
    c.engines[0] = parseEngine(specs[0]);
    c.engines[1] = parseEngine(specs.back());
    if (c.engines[0].name == c.engines[1].name) c.engines[1].name += "-2";
}

MatchCli parseMatchCli(const po::variables_map& vm) {
    MatchCli cli;
    MatchConfig& c = cli.config;
    setEngines(vm, c);
    c.games = vm["games"].as<int>();
    if (c.games < 1) throw UsageError{"--games must be at least 1"};
    c.game.timeControl = timeControl(vm);
    c.game.maxPlies = vm["max-plies"].as<int>();
    c.game.rules.repetition = !vm.count("no-repetition-draw");
    c.game.rules.noProgress = !vm.count("no-progress-draw");
    c.timeouts.startup = std::chrono::milliseconds(vm["timeout-start"].as<int>());
    c.timeouts.isready = std::chrono::milliseconds(vm["timeout-ready"].as<int>());
    if (vm.count("openings")) c.openings = openingsOf(vm["openings"].as<std::string>());
    c.concurrency = vm.count("concurrency")
                        ? vm["concurrency"].as<int>()
                        : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    c.logDir = vm["log-dir"].as<std::string>();
    if (vm.count("shard")) c.shard = parseShard(vm["shard"].as<std::string>());
    if (vm.count("pdn")) cli.pdnPath = vm["pdn"].as<std::string>();
    if (vm.count("event")) cli.event = vm["event"].as<std::string>();
    cli.resume = vm.count("resume") > 0;
    if (cli.resume && cli.pdnPath.empty()) throw UsageError{"--resume needs --pdn"};
    if (vm.count("sprt"))
        cli.sprt = SprtConfig{vm["elo0"].as<double>(), vm["elo1"].as<double>(),
                              vm["alpha"].as<double>(), vm["beta"].as<double>()};
    return cli;
}

using common::formatFixed;

std::string summaryLine(const MatchTotals& t) {
    const EloEstimate elo =
        t.pentanomial.pairs() > 0 ? eloFromPentanomial(t.pentanomial) : eloFromWdl(t.wdl);
    return "+" + std::to_string(t.wdl.wins) + " =" + std::to_string(t.wdl.draws) + " -" +
           std::to_string(t.wdl.losses) + "  score " + formatFixed(100 * t.wdl.score(), 1) +
           "%  Elo " + formatFixed(elo.elo, 1) + " +- " + formatFixed(elo.errorBar(), 1);
}

// Progress on stderr after each game (common::showProgress).
void showMatchProgress(const MatchTotals& t, std::size_t done, std::size_t total,
                       std::chrono::steady_clock::time_point start, std::size_t resumed) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double eta = common::etaSeconds(elapsed, done - resumed, total - done);
    common::showProgress("games " + std::to_string(done) + "/" + std::to_string(total) + "  " +
                         summaryLine(t) + "  ETA " + common::formatDuration(eta));
}

void printReport(const std::string& first, const std::string& second, const MatchTotals& t,
                 const std::optional<SprtConfig>& sprt, const SprtDecision& decided = {}) {
    const EloEstimate tri = eloFromWdl(t.wdl);
    const EloEstimate penta = eloFromPentanomial(t.pentanomial);
    std::cout << "Results of " << first << " vs " << second << " (" << t.wdl.games() << " games)\n"
              << "W/D/L: " << t.wdl.wins << " / " << t.wdl.draws << " / " << t.wdl.losses
              << "\nScore: " << formatFixed(100 * t.wdl.score(), 2) << "%\n"
              << "Elo (games): " << formatFixed(tri.elo, 1) << " [" << formatFixed(tri.low, 1)
              << ", " << formatFixed(tri.high, 1) << "] 95%\n";
    if (t.pentanomial.pairs() > 0)
        std::cout << "Elo (pairs): " << formatFixed(penta.elo, 1) << " ["
                  << formatFixed(penta.low, 1) << ", " << formatFixed(penta.high, 1) << "] 95%\n";
    const auto& p = t.pentanomial.counts;
    std::cout << "Pentanomial [0, 0.5, 1, 1.5, 2]: [" << p[0] << ", " << p[1] << ", " << p[2]
              << ", " << p[3] << ", " << p[4] << "] (" << t.pentanomial.pairs() << " pairs)\n";
    if (sprt) std::cout << sprtLine(*sprt, sprtLlr(t.pentanomial, *sprt), decided) << "\n";
}

std::vector<PdnGame> readPdnFile(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw UsageError{"cannot read '" + path + "'"};
    auto games = readPdn(in);
    if (!games) throw UsageError{path + ": " + games.error()};
    return games.value();
}

std::vector<GameRecord> resumedGames(const MatchCli& cli) {
    std::vector<GameRecord> done;
    if (!cli.resume || !std::filesystem::exists(cli.pdnPath)) return done;
    for (const auto& g : readPdnFile(cli.pdnPath)) {
        auto r = toRecord(g);
        if (r) done.push_back(r.value());
    }
    return done;
}

// Checks that both engines start and answer, so that a wrong path is reported at once.
void checkEngines(const MatchConfig& c) {
    for (const auto& spec : c.engines) {
        auto e = Engine::start(spec, c.timeouts, "");
        if (!e) throw UsageError{"engine " + spec.name + " does not start: " + e.error()};
    }
}

int runMatchCommand(const po::variables_map& vm) {
    MatchCli cli = parseMatchCli(vm);
    checkEngines(cli.config);
    if (!cli.config.logDir.empty()) std::filesystem::create_directories(cli.config.logDir);
    std::vector<GameRecord> done = resumedGames(cli);
    const std::size_t resumed = done.size();
    std::ofstream pdn;
    if (!cli.pdnPath.empty()) {
        pdn.open(cli.pdnPath, std::ios::app);  // never truncated: a finished match stays
        if (!pdn) throw UsageError{"cannot write '" + cli.pdnPath + "'"};
    }
    const std::size_t total =
        schedule(cli.config.games, cli.config.openings.size(), cli.config.shard).size();
    const auto start = std::chrono::steady_clock::now();
    const PdnHeader header{cli.event, "?", "????.??.??"};
    SprtDecision decided;  // the first verdict, kept: games under way then still finish
    auto onGame = [&](const GameRecord& r, const std::vector<GameRecord>& all) {
        if (pdn.is_open()) pdn << writePdn(toPdn(r, header)) << std::flush;
        const MatchTotals t = tally(all);
        showMatchProgress(t, all.size(), total, start, resumed);
        if (!cli.sprt) return true;
        if (decided.verdict == SprtVerdict::Continue) {
            const double llr = sprtLlr(t.pentanomial, *cli.sprt);
            decided = SprtDecision{sprtVerdict(llr, *cli.sprt), llr, all.size()};
        }
        return decided.verdict == SprtVerdict::Continue;
    };
    const auto records = runMatch(cli.config, std::move(done), onGame);
    common::endProgress();
    printReport(cli.config.engines[0].name, cli.config.engines[1].name, tally(records), cli.sprt,
                decided);
    return 0;
}

int runOpeningsCommand(int argc, char** argv) {
    po::options_description o("lasca-match openings options");
    o.add_options()("help,h", "this help")("plies", po::value<int>()->required(),
                                           "plies from the start position")(
        "count", po::value<std::size_t>()->default_value(0), "how many (0 = all)")(
        "seed", po::value<std::uint64_t>()->default_value(1), "seed of the sample")(
        "filter-depth", po::value<int>()->default_value(0),
        "keep positions whose reference alpha-beta score at this depth is balanced (0 = off)")(
        "max-score", po::value<int>()->default_value(100), "balance bound, centi-soldiers");
    po::variables_map vm;
    po::store(po::parse_command_line(argc - 1, argv + 1, o), vm);
    if (vm.count("help")) {
        std::cout << "usage: lasca-match openings --plies N [--count K] [--seed S]\n" << o;
        return 0;
    }
    po::notify(vm);
    OpeningsRequest r;
    r.plies = vm["plies"].as<int>();
    if (r.plies < 0 || r.plies > 20) throw UsageError{"--plies must be in 0..20"};
    r.count = vm["count"].as<std::size_t>();
    r.seed = vm["seed"].as<std::uint64_t>();
    r.filterDepth = vm["filter-depth"].as<int>();
    r.maxScore = vm["max-score"].as<int>();
    for (const auto& lfen : generateOpenings(r)) std::cout << lfen << "\n";
    return 0;
}

int runReplayCommand(int argc, char** argv) {
    const auto files =
        common::fileArguments(argc, argv, "usage: lasca-match replay FILE.pdn...\n", "PDN file");
    int bad = 0, total = 0;
    for (const auto& file : files) {
        for (const auto& g : readPdnFile(file)) {
            ++total;
            auto checked = replayPdn(g, lasca::DrawRules{});
            if (checked) continue;
            ++bad;
            std::cout << file << ": game " << g.tag("Round").value_or("?") << ": "
                      << checked.error() << "\n";
        }
    }
    std::cout << total << " games, " << bad << " with errors\n";
    return bad == 0 ? 0 : kExitError;
}

int runMergeCommand(int argc, char** argv) {
    const auto files =
        common::fileArguments(argc, argv, "usage: lasca-match merge FILE.pdn...\n", "PDN file");
    std::vector<GameRecord> records;
    std::string first = "?", second = "?";
    // Both games of a pair always sit in one file (shards and resumed runs play whole pairs),
    // so pairs are told apart by file: repeat runs of one match, which number their pairs
    // alike, merge into more pairs instead of colliding.
    constexpr int kPairsPerFile = 1 << 20;
    for (std::size_t f = 0; f < files.size(); ++f) {
        const auto& file = files[f];
        for (const auto& g : readPdnFile(file)) {
            auto r = toRecord(g);
            if (!r) throw UsageError{file + ": " + r.error()};
            r.value().pair += static_cast<int>(f) * kPairsPerFile;
            records.push_back(r.value());
            first = r.value().whiteIsFirst ? r.value().white : r.value().black;
            second = r.value().whiteIsFirst ? r.value().black : r.value().white;
        }
    }
    printReport(first, second, tally(records), std::nullopt);
    return 0;
}

int runMain(int argc, char** argv) {
    const std::string command = argc > 1 ? argv[1] : "";
    if (command == "openings") return runOpeningsCommand(argc, argv);
    if (command == "replay") return runReplayCommand(argc, argv);
    if (command == "merge") return runMergeCommand(argc, argv);
    const auto options = matchOptions();
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, options), vm);
    if (vm.count("help")) {
        std::cout << "usage: lasca-match --engine SPEC [--engine SPEC] [options]\n"
                     "       lasca-match openings --plies N [--count K] [--seed S]\n"
                     "       lasca-match replay|merge FILE.pdn...\n\n"
                  << options;
        return 0;
    }
    po::notify(vm);
    return runMatchCommand(vm);
}

}  // namespace

int main(int argc, char** argv) {
    if (common::printVersionIfAsked(argc, argv, "lasca-match", std::cout)) return 0;
    return common::runCommandLine<po::error>("lasca-match", [&] { return runMain(argc, argv); });
}
