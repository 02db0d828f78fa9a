// torneio-referee: Torneio games and matches between player programs that speak the Torneio
// player protocol (protocol.md; docs/torneio-referee.md).
//   torneio-referee --player SPEC --player SPEC [...] [options]   play a game or a match
//   torneio-referee merge DIR...                                  statistics of record folders
//   torneio-referee replay DIR|FILE...                            re-check records by the rules
#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "common/cli.h"
#include "common/logging.h"
#include "common/progress.h"
#include "common/seed.h"
#include "common/text.h"
#include "common/version.h"
#include "torneio/referee/match.h"

namespace po = boost::program_options;
using namespace torneio;
using namespace torneio::referee;

namespace {

using common::kExitError;
using common::UsageError;

template <class T>
T valueOf(common::Result<T> result, const std::string& context) {
    if (!result) throw UsageError{context + result.error()};
    return std::move(result).value();
}

po::options_description matchOptions() {
    po::options_description o("torneio-referee options");
    o.add_options()("help,h", "this help")(
        "player,p", po::value<std::vector<std::string>>()->composing(),
        "a player: PATH, or name=N,cmd=PATH,arg=A,option.X=Y (add ,inprocess for the built-in "
        "player in this process, no cmd; name=N,human for a person at this terminal, at most "
        "one, in a single game); one per seat, 2 to 4")(
        "seats", po::value<int>(), "with a single --player: self-play on this many seats")(
        "games,g", po::value<int>()->default_value(1), "number of games (seats rotate)")(
        "seed", po::value<std::string>(),
        "seed of the match, to replay one exactly (default: drawn from the operating system, "
        "or the resumed match's; printed in the report and kept in every record)")(
        "params", po::value<std::string>()->default_value(""),
        "game parameters as key=value pairs: board depth trim strength minstrength rounds pass")(
        "concurrency,c", po::value<int>()->default_value(1), "games at once")(
        "decision-ms", po::value<int>()->default_value(10000),
        "ms a player may take for one decision (a hang guard)")(
        "timeout-start", po::value<int>()->default_value(10000),
        "ms to wait for torneiook and readyok at start-up")(
        "max-line", po::value<int>()->default_value(4096), "longest line a player may send")(
        "records", po::value<std::string>(), "folder for one record per game (JSON lines)")(
        "resume", "continue the match recorded in --records (its games are not played again)")(
        "shard", po::value<std::string>(), "play only cycle shard i/n (1 <= i <= n)")(
        "log-dir", po::value<std::string>()->default_value("torneio-logs"),
        "folder for the players' stderr logs ('' to discard)")(
        "log-level", po::value<std::string>()->default_value("warn"),
        "stderr log level: trace, debug, info, warn, error, critical, off");
    return o;
}

int humanSeats(const std::vector<SeatSpec>& specs) {
    return static_cast<int>(std::count_if(specs.begin(), specs.end(), [](const SeatSpec& spec) {
        return spec.kind == SeatKind::Human;
    }));
}

std::vector<SeatSpec> players(const po::variables_map& vm) {
    if (!vm.count("player")) throw UsageError{"give --player for each seat"};
    std::vector<SeatSpec> specs;
    for (const auto& text : vm["player"].as<std::vector<std::string>>())
        specs.push_back(valueOf(parseSeatSpec(text), "player '" + text + "': "));
    if (vm.count("seats")) {
        const int seats = vm["seats"].as<int>();
        if (specs.size() != 1) throw UsageError{"--seats goes with a single --player"};
        if (seats < kMinSeats || seats > kMaxSeats) throw UsageError{"--seats must be 2..4"};
        for (int s = 2; s <= seats; ++s) {
            specs.push_back(specs.front());
            specs.back().name += "-" + std::to_string(s);
        }
    }
    if (specs.size() < kMinSeats || specs.size() > kMaxSeats)
        throw UsageError{"give 2 to 4 --player (or one with --seats)"};
    for (std::size_t i = 0; i < specs.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (specs[i].name == specs[j].name)
                throw UsageError{"two players are named '" + specs[i].name + "': give name="};
    if (humanSeats(specs) > 1) throw UsageError{"at most one human seat: one terminal"};
    return specs;
}

int positive(const po::variables_map& vm, const char* name) {
    const int value = vm[name].as<int>();
    if (value < 1) throw UsageError{std::string("--") + name + " must be at least 1"};
    return value;
}

// The records already in the --records folder, read once for the seed and the resume rule.
std::vector<std::pair<int, Record>> recordedGames(const po::variables_map& vm) {
    if (!vm.count("records")) return {};
    const std::string dir = vm["records"].as<std::string>();
    if (dir.empty() || !std::filesystem::exists(dir)) return {};
    return valueOf(readRecords(dir), "").games;
}

// The match's seed: --seed; without it, the seed kept in the records of a resumed match, or one
// drawn from the operating system (a seat's seed then cannot be guessed by trying seeds).
std::uint64_t matchSeed(const po::variables_map& vm, const std::string& recordDir,
                        const std::vector<std::pair<int, Record>>& recorded) {
    if (vm.count("seed")) {
        const auto seed = common::parseSeed(vm["seed"].as<std::string>());
        if (!seed) throw UsageError{"--seed must be a number in 0..18446744073709551615"};
        return *seed;
    }
    if (vm.count("resume") && !recorded.empty()) {
        if (!recorded.front().second.matchSeed)
            throw UsageError{recordPath(recordDir, recorded.front().first) +
                             " keeps no match seed: give the match's --seed"};
        return *recorded.front().second.matchSeed;
    }
    return common::systemSeed();
}

MatchConfig matchConfig(const po::variables_map& vm,
                        const std::vector<std::pair<int, Record>>& recorded) {
    MatchConfig c;
    c.players = players(vm);
    const std::string seats = "seats=" + std::to_string(c.players.size());
    c.params = valueOf(parseParams(seats + " " + vm["params"].as<std::string>()), "--params: ");
    if (c.params.seats != static_cast<int>(c.players.size()))
        throw UsageError{"--params: the seats are the players"};
    c.games = positive(vm, "games");
    if (vm.count("records")) c.recordDir = vm["records"].as<std::string>();
    if (humanSeats(c.players) > 0 && c.games != 1)
        throw UsageError{"a game with a human seat is a single game: --games 1"};
    c.seed = matchSeed(vm, c.recordDir, recorded);
    c.concurrency = positive(vm, "concurrency");
    c.limits.decision = std::chrono::milliseconds(positive(vm, "decision-ms"));
    c.limits.start = std::chrono::milliseconds(positive(vm, "timeout-start"));
    c.limits.maxLine = static_cast<std::size_t>(positive(vm, "max-line"));
    c.logDir = vm["log-dir"].as<std::string>();
    if (vm.count("shard")) c.shard = valueOf(common::parseShard(vm["shard"].as<std::string>()), "");
    return c;
}

// Checks that every player starts and answers, so that a wrong path is reported at once.
void checkPlayers(const MatchConfig& c) {
    for (const SeatSpec& spec : c.players) {
        auto seat = valueOf(openSeat(spec, ""), "player " + spec.name + " does not start: ");
        valueOf(handshake(*seat, spec, c.limits), "player " + spec.name + " does not answer: ");
    }
}

std::vector<std::string> names(const std::vector<SeatSpec>& specs) {
    std::vector<std::string> list;
    for (const SeatSpec& spec : specs) list.push_back(spec.name);
    return list;
}

// The games already recorded in the folder (--resume), checked to belong to this match: same
// rules, the players at the seats the schedule gives. Without --resume the folder must hold no
// record, so that a new match never mixes with an old one.
std::vector<GameSummary> resumedGames(const MatchConfig& c,
                                      const std::vector<std::pair<int, Record>>& records,
                                      bool resume) {
    std::vector<GameSummary> done;
    if (!resume && !records.empty())
        throw UsageError{c.recordDir + " holds records already: give --resume or another folder"};
    const auto slots = schedule(c.games, c.params.seats, c.seed, c.shard);
    for (const auto& [index, record] : records) {
        // Captured as a copy: clang before 16 cannot capture a structured binding (P1091).
        const auto slot = std::find_if(slots.begin(), slots.end(),
                                       [at = index](const GameSlot& s) { return s.index == at; });
        if (slot == slots.end()) continue;  // another shard's game, or beyond --games
        std::vector<std::string> expected;
        for (int player : slot->playerAt)
            expected.push_back(c.players[static_cast<std::size_t>(player)].name);
        if (!(record.params == c.params) || record.players != expected ||
            (record.matchSeed && *record.matchSeed != c.seed))
            throw UsageError{recordPath(c.recordDir, index) + " is not a game of this match"};
        done.push_back(summarize(index, record));
    }
    return done;
}

std::string rateText(const PlayerTotals& t) {
    return common::formatFixed(t.rate.mean, 3) + " [" + common::formatFixed(t.rate.low, 3) + ", " +
           common::formatFixed(t.rate.high, 3) + "]";
}

// Text padded with blanks to `width` characters (not bytes: names may hold any letter).
std::string padded(std::string text, std::size_t width, bool left = false) {
    const std::size_t length = common::characterCount(text);
    if (length >= width) return text;
    const std::string pad(width - length, ' ');
    return left ? text + pad : pad + text;
}

// "match seed N", or what else the records say of their match seeds.
std::string seedText(const std::vector<std::optional<std::uint64_t>>& seeds) {
    if (seeds.empty()) return "no match seed";
    for (const auto& seed : seeds)
        if (seed != seeds.front()) return "several match seeds";
    return seeds.front() ? "match seed " + std::to_string(*seeds.front()) : "no match seed";
}

void printReport(const std::vector<GameSummary>& games, const std::vector<std::string>& order,
                 const std::string& params, const std::string& seed) {
    const auto totals = tally(games, order);
    std::size_t width = 6;
    for (const auto& t : totals) width = std::max(width, common::characterCount(t.name));
    std::cout << "Results of " << games.size() << " games (" << params << "), " << seed << "\n"
              << padded("player", width, true)
              << "  games   wins  draws losses faults  score [95% interval]\n";
    for (const auto& t : totals)
        std::cout << padded(t.name, width, true) << padded(std::to_string(t.games), 7)
                  << padded(std::to_string(t.wins), 7) << padded(std::to_string(t.draws), 7)
                  << padded(std::to_string(t.losses), 7) << padded(std::to_string(t.faults), 7)
                  << "  " << rateText(t) << "\n";
    std::cout << "score: 1 a win, 1/k each for the k survivors of a draw (D11), 0 a loss\n";
}

std::string progressLine(const std::vector<GameSummary>& all, std::size_t total,
                         const std::vector<std::string>& order, double eta) {
    std::string line = "games " + std::to_string(all.size()) + "/" + std::to_string(total);
    for (const auto& t : tally(all, order)) line += "  " + t.name + " " + rateText(t);
    return line + "  ETA " + common::formatDuration(eta);
}

int runMatchCommand(const po::variables_map& vm) {
    const auto recorded = recordedGames(vm);
    const MatchConfig config = matchConfig(vm, recorded);
    checkPlayers(config);
    if (!config.logDir.empty()) std::filesystem::create_directories(config.logDir);
    if (vm.count("resume") && config.recordDir.empty())
        throw UsageError{"--resume needs --records"};
    std::vector<GameSummary> done = resumedGames(config, recorded, vm.count("resume") > 0);
    if (!config.recordDir.empty()) std::filesystem::create_directories(config.recordDir);
    const std::size_t resumed = done.size();
    const std::size_t total =
        schedule(config.games, config.params.seats, config.seed, config.shard).size();
    const auto order = names(config.players);
    const auto start = std::chrono::steady_clock::now();
    // A person plays on this terminal: no progress line to garble the game.
    const bool progress = humanSeats(config.players) == 0;
    auto onGame = [&](const GameSummary&, const std::vector<GameSummary>& all) {
        if (!progress) return true;
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double eta = common::etaSeconds(elapsed, all.size() - resumed, total - all.size());
        common::showProgress(progressLine(all, total, order, eta));
        return true;
    };
    const auto games = runMatch(config, std::move(done), onGame);
    if (progress) common::endProgress();
    printReport(games, order, formatParams(config.params), seedText({config.seed}));
    return 0;
}

int runMergeCommand(int argc, char** argv) {
    const auto dirs = common::fileArguments(argc, argv, "usage: torneio-referee merge DIR...\n",
                                            "records folder");
    std::vector<GameSummary> games;
    std::vector<std::optional<std::uint64_t>> seeds;
    std::string params;
    for (const auto& dir : dirs)
        for (const auto& [index, record] : valueOf(readRecords(dir), "").games) {
            games.push_back(summarize(index, record));
            seeds.push_back(record.matchSeed);
            if (params.empty()) params = formatParams(record.params);
        }
    printReport(games, {}, params.empty() ? "no records" : params, seedText(seeds));
    return 0;
}

// Re-checks records by the rules (replayRecord): folders of records or record files.
int runReplayCommand(int argc, char** argv) {
    const auto paths = common::fileArguments(
        argc, argv, "usage: torneio-referee replay DIR|FILE...\n", "records folder");
    int bad = 0, total = 0;
    const auto check = [&](const std::string& name, const Record& record) {
        ++total;
        auto replayed = replayRecord(record);
        if (replayed) return;
        ++bad;
        std::cout << name << ": " << replayed.error() << "\n";
    };
    for (const auto& path : paths) {
        if (std::filesystem::is_directory(path)) {
            const auto folder = valueOf(readRecords(path), "");
            for (const auto& [index, record] : folder.games) check(recordPath(path, index), record);
            for (const auto& name : folder.skipped)
                std::cout << path << "/" << name
                          << ": skipped (not a record name game-NNNNNN.jsonl)\n";
        } else {
            check(path, valueOf(readRecord(path), ""));
        }
    }
    if (total == 0)
        throw UsageError{"no game record found (record files are named game-NNNNNN.jsonl)"};
    std::cout << total << " games, " << bad << " with errors\n";
    return bad == 0 ? 0 : kExitError;
}

int printUsage(const po::options_description& options) {
    std::cout << "usage: torneio-referee --player SPEC --player SPEC [...] [options]\n"
                 "       torneio-referee merge DIR...\n"
                 "       torneio-referee replay DIR|FILE...\n\n"
              << options;
    return 0;
}

int runMain(int argc, char** argv) {
    const std::string command = argc > 1 ? argv[1] : "";
    if (command == "merge") return runMergeCommand(argc, argv);
    if (command == "replay") return runReplayCommand(argc, argv);
    const auto options = matchOptions();
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, options), vm);
    if (vm.count("help")) return printUsage(options);
    po::notify(vm);
    auto logging = common::initLogging(vm["log-level"].as<std::string>(), "");
    if (!logging) throw UsageError{logging.error()};
    return runMatchCommand(vm);
}

}  // namespace

int main(int argc, char** argv) {
    if (common::printVersionIfAsked(argc, argv, "torneio-referee", std::cout)) return 0;
    return common::runCommandLine<po::error>("torneio-referee",
                                             [&] { return runMain(argc, argv); });
}
