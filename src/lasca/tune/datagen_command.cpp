#include "command_line.h"

#include <array>
#include <chrono>
#include <fstream>
#include <iostream>
#include <limits>

#include "common/progress.h"
#include "lasca/tune/datagen.h"

namespace lasca::tune {

namespace {

// DatagenTotals: what a datagen run has written so far, for the progress line and the summary.
struct DatagenTotals {
    std::size_t games = 0;
    std::size_t positions = 0;
    std::uint64_t plies = 0;
    std::uint64_t nodes = 0;
    std::array<std::size_t, 3> results{};  // White wins, draws, Black wins
    std::size_t adjudicated = 0;           // drawn at --max-plies

    void add(const tune::DataGame& g) {
        ++games;
        positions += g.positions.size();
        plies += static_cast<std::uint64_t>(g.plies);
        nodes += g.nodes;
        ++results[g.result == 1.0 ? 0 : g.result == 0.5 ? 1 : 2];
        if (g.termination == Termination::None) ++adjudicated;
    }
};

std::string datagenLine(const DatagenTotals& t, double seconds) {
    const double rate = seconds > 0 ? static_cast<double>(t.positions) / seconds : 0;
    return std::to_string(t.games) + " games, " + std::to_string(t.positions) + " positions (" +
           common::formatFixed(rate, 0) + "/s), +" + std::to_string(t.results[0]) + " =" +
           std::to_string(t.results[1]) + " -" + std::to_string(t.results[2]) + " (" +
           std::to_string(t.adjudicated) + " adjudicated), " +
           common::formatFixed(
               t.games ? static_cast<double>(t.plies) / static_cast<double>(t.games) : 0, 1) +
           " plies a game, " + std::to_string(t.nodes) + " nodes";
}

// Plays datagen's games and writes their lines to `out`, with a progress line on stderr every
// 1% of the games and a summary at the end.
int writeData(const tune::DatagenOptions& options, const std::string& out) {
    std::ofstream o(out);
    if (!o) return fail("cannot write " + out);
    std::size_t total = 0;
    for (int g = 0; g < options.games; ++g) total += options.shard.holds(g) ? 1 : 0;
    const std::size_t every = std::max<std::size_t>(1, total / 100);
    DatagenTotals totals;
    const auto began = std::chrono::steady_clock::now();
    const auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    };
    auto played = tune::generateData(options, [&](const tune::DataGame& g) {
        o << tune::formatDataGame(g);
        totals.add(g);
        if (totals.games % every == 0 || totals.games == total)
            common::showProgress("games " + std::to_string(totals.games) + "/" +
                                 std::to_string(total) + "  " + std::to_string(totals.positions) +
                                 " positions  ETA " +
                                 common::formatDuration(common::etaSeconds(elapsed(), totals.games,
                                                                           total - totals.games)));
        return static_cast<bool>(o);
    });
    common::endProgress();
    if (!played) return fail(played.error());
    o.flush();
    if (!o) return fail("write error on " + out);
    std::cerr << "lasca-tune: " << datagenLine(totals, elapsed()) << " in "
              << common::formatFixed(elapsed(), 1) << " s; wrote " << out << "\n";
    return 0;
}

}  // namespace

// lasca-tune datagen: self-play training data of the learned evaluation.
// With --relabel it relabels existing data instead (relabel_command.cpp).
int datagenCommand(const std::vector<std::string>& args) {
    for (const std::string& a : args)
        if (a == "--relabel" || a.starts_with("--relabel=")) return relabelCommand(args);
    po::options_description desc("lasca-tune datagen options");
    std::string out, shardText, eval;
    std::int64_t games = 0, seed = 0, nodes = 0, randomPlies = 0, randomMoves = 0, maxPlies = 0,
                 jobs = 0;
    desc.add_options()("help,h", "this help")("games", po::value(&games)->required(),
                                              "games of the whole run (over every shard)")(
        "out", po::value(&out)->required(), "text data file to write")(
        "seed", po::value(&seed)->default_value(1), "seed of the random openings")(
        "nodes", po::value(&nodes)->default_value(1000), "nodes searched per move")(
        "random-plies", po::value(&randomPlies)->default_value(8),
        "random legal moves opening each game")(
        "random-moves", po::value(&randomMoves)->default_value(0),
        "percent of the later moves played at random (their positions kept)")(
        "max-plies", po::value(&maxPlies)->default_value(300),
        "a game still going after this many plies is a draw")(
        "jobs", po::value(&jobs)->default_value(1), "threads, each playing whole games")(
        "eval", po::value(&eval)->default_value("classic"),
        "the search's evaluation: classic, nnue (the embedded network) or a network file")(
        "shard", po::value(&shardText), "play only shard i/n of the games (1 <= i <= n)");
    if (!parseOptions(args, desc,
                      "usage: lasca-tune datagen --games N --out FILE [options]\n"
                      "       lasca-tune datagen --relabel FILE --out FILE (--nodes N | --depth D)"
                      " [options]\n"))
        return 0;
    if (!inRange("games", games, 1, 100'000'000) ||
        !inRange("seed", seed, 0, std::numeric_limits<std::int64_t>::max()) ||
        !inRange("nodes", nodes, 1, 1'000'000'000) ||
        !inRange("random-plies", randomPlies, 0, 200) ||
        !inRange("random-moves", randomMoves, 0, 100) ||
        !inRange("max-plies", maxPlies, 1, 100'000) || !inRange("jobs", jobs, 1, 256))
        return kExitUsage;
    if (maxPlies <= randomPlies) return fail("--max-plies must exceed --random-plies", kExitUsage);
    tune::DatagenOptions options;
    options.games = static_cast<int>(games);
    options.seed = static_cast<std::uint64_t>(seed);
    options.nodes = static_cast<std::uint64_t>(nodes);
    options.randomPlies = static_cast<int>(randomPlies);
    options.randomMovePercent = static_cast<int>(randomMoves);
    options.maxPlies = static_cast<int>(maxPlies);
    options.jobs = static_cast<int>(jobs);
    auto network = eval::nnue::networkForEval(eval);
    if (!network) return fail("--eval: " + network.error(), kExitUsage);
    options.network = network.value();
    if (!shardText.empty()) {
        auto shard = common::parseShard(shardText);
        if (!shard) return fail(shard.error(), kExitUsage);
        options.shard = shard.value();
    }

    return writeData(options, out);
}

}  // namespace lasca::tune
