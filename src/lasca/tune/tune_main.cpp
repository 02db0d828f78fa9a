// lasca-tune: the evaluation tuner (docs/tuning.md).
//   lasca-tune extract --pdn FILE... --out POSITIONS [--skip-plies N]
//       quiet positions of finished games, labelled with the result ("<result> <LFEN>")
//   lasca-tune fit --positions POSITIONS --out FILE [--epochs N] [--rate R] [--start S]
//       Texel fit of the evaluation weights; writes src/lasca/eval/eval_weights.inc
//   lasca-tune scale --positions POSITIONS [--start S]
//       only the fit's scale K, and the logistic scale in centi-soldiers that `lasca analyse`
//       turns scores into winning chances with (docs/analysis.md)
//   lasca-tune datagen --games N --out FILE [--seed S] [--nodes N] [--random-plies N]
//                      [--random-moves PERCENT] [--max-plies N] [--jobs J]
//                      [--eval classic|nnue|FILE] [--shard i/n]
//       self-play training data of the learned evaluation ("<result> <score> <LFEN>",
//       docs/nnue.md)
//   lasca-tune features --positions FILE --out FILE
//       the binary training file of datagen's text (the network's inputs, both perspectives)
//   lasca-tune spsa --engine CMD --params FILE --iterations N (--nodes N | --movetime MS)
//                   [--openings FILE] [--seed S] [--concurrency C] [--out FILE]
//       SPSA of the search's parameters (engine options) through game pairs, fishtest-style
#include <algorithm>
#include <array>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "common/progress.h"
#include "common/version.h"
#include "lasca/match/match.h"
#include "lasca/match/openings.h"
#include "lasca/core/pdn.h"
#include "lasca/tune/datagen.h"
#include "lasca/tune/spsa.h"
#include "lasca/tune/spsa_games.h"
#include "lasca/tune/training_data.h"
#include "lasca/tune/tuner.h"

namespace po = boost::program_options;
using namespace lasca;

namespace {

constexpr int kExitUsage = 2;
constexpr int kExitError = 1;

int fail(const std::string& message, int code = kExitError) {
    std::cerr << "lasca-tune: " << message << "\n";
    return code;
}

// The samples of a positions file written by extract; errors name the file and line.
common::Result<std::vector<tune::Sample>> readSamples(const std::string& path) {
    std::ifstream in(path);
    if (!in) return common::makeError("cannot read " + path);
    std::vector<tune::Sample> samples;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (line.empty()) continue;
        auto p = tune::parsePosition(line);
        if (!p) return common::makeError(path + ":" + std::to_string(number) + ": " + p.error());
        samples.push_back(
            tune::toSample(Position::fromLfen(p.value().lfen).value(), p.value().result));
    }
    if (samples.empty()) return common::makeError("no positions in " + path);
    return samples;
}

// The weights a fit starts from: "tuned" (compiled in) or "material".
tune::RealWeights startingWeights(const std::string& start) {
    return tune::toReal(start == "tuned" ? tunedWeights() : materialWeights());
}

// Reads a command's options into the variables bound in `desc`; false when --help was asked
// (the usage and options are printed then).
bool parseOptions(const std::vector<std::string>& args, const po::options_description& desc,
                  const std::string& usage) {
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(desc).run(), vm);
    if (vm.count("help")) {
        std::cout << usage << desc;
        return false;
    }
    po::notify(vm);
    return true;
}

bool validStart(const std::string& start) {
    return start == "tuned" || start == "material";
}

int extract(const std::vector<std::string>& args) {
    po::options_description desc("lasca-tune extract options");
    std::vector<std::string> pdnFiles;
    std::string out;
    int skipPlies = 0;
    desc.add_options()("help,h", "this help")("pdn", po::value(&pdnFiles)->multitoken()->required(),
                                              "PDN files of finished games")(
        "out", po::value(&out)->required(), "positions file to write")(
        "skip-plies", po::value(&skipPlies)->default_value(0),
        "positions before this ply of each game are not kept");
    if (!parseOptions(args, desc,
                      "usage: lasca-tune extract --pdn FILE... --out FILE [--skip-plies N]\n"))
        return 0;
    if (skipPlies < 0 || skipPlies > 1000) return fail("--skip-plies must be 0..1000", kExitUsage);

    std::vector<PdnGame> games;
    for (const std::string& file : pdnFiles) {
        std::ifstream in(file);
        if (!in) return fail("cannot read " + file);
        auto read = readPdn(in);
        if (!read) return fail(file + ": " + read.error());
        games.insert(games.end(), read.value().begin(), read.value().end());
    }
    auto positions = tune::extractPositions(games, tune::ExtractOptions{skipPlies});
    if (!positions) return fail(positions.error());
    std::ofstream o(out);
    if (!o) return fail("cannot write " + out);
    for (const auto& p : positions.value()) o << tune::formatPosition(p) << "\n";
    std::cerr << "lasca-tune: " << positions.value().size() << " quiet positions from "
              << games.size() << " games written to " << out << "\n";
    return o ? 0 : fail("write error on " + out);
}

int fit(const std::vector<std::string>& args) {
    po::options_description desc("lasca-tune fit options");
    std::string positionsFile, out, start;
    int epochs = 0;
    double rate = 0;
    desc.add_options()("help,h", "this help")("positions", po::value(&positionsFile)->required(),
                                              "positions file (from extract)")(
        "out", po::value(&out)->required(), "weights file to write (src/lasca/eval/eval_weights.inc)")(
        "epochs", po::value(&epochs)->default_value(3000), "full passes over the positions")(
        "rate", po::value(&rate)->default_value(0.5, "0.5"), "Adam step size, centi-soldiers")(
        "start", po::value(&start)->default_value("tuned"),
        "starting weights: tuned (the compiled-in ones) or material");
    if (!parseOptions(args, desc, "usage: lasca-tune fit --positions FILE --out FILE [options]\n"))
        return 0;
    if (epochs < 1 || epochs > 1'000'000) return fail("--epochs must be 1..1000000", kExitUsage);
    if (!(rate > 0 && rate <= 100)) return fail("--rate must be in (0, 100]", kExitUsage);
    if (!validStart(start)) return fail("--start must be tuned or material", kExitUsage);

    auto read = readSamples(positionsFile);
    if (!read) return fail(read.error());
    const std::vector<tune::Sample>& samples = read.value();

    const auto began = std::chrono::steady_clock::now();
    const tune::RealWeights initial = startingWeights(start);
    const double k = tune::fitScale(samples, initial);
    std::cerr << "lasca-tune: " << samples.size() << " positions, K = " << k << "\n";
    tune::FitOptions options;
    options.epochs = epochs;
    options.learningRate = rate;
    tune::FitReport report;
    const tune::RealWeights fitted =
        tune::fitWeights(samples, initial, k, options, report, [](int epoch, double error) {
            if (epoch % 500 == 0)
                std::cerr << "lasca-tune: epoch " << epoch << " error " << error << "\n";
        });
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    const EvalWeights weights = tune::rounded(fitted);
    char summary[200];
    std::snprintf(summary, sizeof summary,
                  "%zu positions, K %.4f, mean squared error %.6f -> %.6f after %d epochs",
                  samples.size(), k, report.startError, report.endError, report.epochs);
    std::ofstream o(out);
    if (!o) return fail("cannot write " + out);
    o << tune::weightsSource(weights, {"Written by lasca-tune fit (scripts/tune.sh, docs/tuning.md)"
                                       " from " +
                                           start + " weights:",
                                       summary});
    std::cerr << "lasca-tune: " << summary << ", " << seconds << " s; wrote " << out << "\n";
    return o ? 0 : fail("write error on " + out);
}

// Prints K (sigmoid(K * eval / 400) in base 10, as fit uses it) and the same curve as
// 1 / (1 + exp(-eval / s)): s = 400 / (K ln 10) centi-soldiers.
int scale(const std::vector<std::string>& args) {
    po::options_description desc("lasca-tune scale options");
    std::string positionsFile, start;
    desc.add_options()("help,h", "this help")("positions", po::value(&positionsFile)->required(),
                                              "positions file (from extract)")(
        "start", po::value(&start)->default_value("tuned"),
        "weights to fit the scale for: tuned (the compiled-in ones) or material");
    if (!parseOptions(args, desc,
                      "usage: lasca-tune scale --positions FILE [--start tuned|material]\n"))
        return 0;
    if (!validStart(start)) return fail("--start must be tuned or material", kExitUsage);
    auto read = readSamples(positionsFile);
    if (!read) return fail(read.error());
    const tune::RealWeights weights = startingWeights(start);
    const double k = tune::fitScale(read.value(), weights);
    std::cout << "positions " << read.value().size() << "\nK " << k << "\nerror "
              << tune::meanError(read.value(), weights, k) << "\nscale "
              << 400.0 / (k * std::log(10.0)) << "\n";
    return 0;
}

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

// A numeric option's range check: false (after the error line) when out of range.
bool inRange(const char* name, std::int64_t value, std::int64_t low, std::int64_t high) {
    if (value >= low && value <= high) return true;
    fail(std::string("--") + name + " must be " + std::to_string(low) + ".." + std::to_string(high),
         kExitUsage);
    return false;
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

int datagen(const std::vector<std::string>& args) {
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
    if (!parseOptions(args, desc, "usage: lasca-tune datagen --games N --out FILE [options]\n"))
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
    auto network = nnue::networkForEval(eval);
    if (!network) return fail("--eval: " + network.error(), kExitUsage);
    options.network = network.value();
    if (!shardText.empty()) {
        auto shard = common::parseShard(shardText);
        if (!shard) return fail(shard.error(), kExitUsage);
        options.shard = shard.value();
    }

    return writeData(options, out);
}

// Writes the header for `count` records at the start of a training file.
bool patchRecordCount(std::ofstream& o, std::uint32_t count) {
    std::vector<unsigned char> header;
    tune::appendTrainingHeader(header, count);
    o.seekp(0);
    o.write(reinterpret_cast<const char*>(header.data()),
            static_cast<std::streamsize>(header.size()));
    return static_cast<bool>(o);
}

common::Result<tune::TrainingRecord> recordOfLine(std::string_view line) {
    auto parsed = tune::parseDataLine(line);
    if (!parsed) return common::makeError(parsed.error());
    return tune::trainingRecord(parsed.value());
}

void writeBytes(std::ofstream& o, std::vector<unsigned char>& buffer) {
    o.write(reinterpret_cast<const char*>(buffer.data()),
            static_cast<std::streamsize>(buffer.size()));
    buffer.clear();
}

// Writes the record of every non-empty line of `in` (the file `path`) to `o`, after its header;
// returns the number of records. Errors name the file and line.
common::Result<std::uint32_t> writeRecords(std::istream& in, const std::string& path,
                                           std::ofstream& o) {
    std::uint32_t count = 0;
    std::vector<unsigned char> buffer;
    std::string line;
    for (std::uint64_t number = 1; std::getline(in, line); ++number) {
        if (line.empty()) continue;
        auto record = recordOfLine(line);
        if (!record)
            return common::makeError(path + ":" + std::to_string(number) + ": " + record.error());
        if (count == std::numeric_limits<std::uint32_t>::max())
            return common::makeError("more than 2^32 - 1 positions in " + path);
        ++count;
        tune::appendTrainingRecord(buffer, record.value());
        if (buffer.size() >= (std::size_t{1} << 20)) writeBytes(o, buffer);
    }
    writeBytes(o, buffer);
    return count;
}

int features(const std::vector<std::string>& args) {
    po::options_description desc("lasca-tune features options");
    std::string positionsFile, out;
    desc.add_options()("help,h", "this help")("positions", po::value(&positionsFile)->required(),
                                              "text data file (from datagen)")(
        "out", po::value(&out)->required(), "binary training file to write");
    if (!parseOptions(args, desc, "usage: lasca-tune features --positions FILE --out FILE\n"))
        return 0;
    std::ifstream in(positionsFile);
    if (!in) return fail("cannot read " + positionsFile);
    std::ofstream o(out, std::ios::binary);
    if (!o || !patchRecordCount(o, 0)) return fail("cannot write " + out);

    const auto began = std::chrono::steady_clock::now();
    auto count = writeRecords(in, positionsFile, o);
    if (!count) return fail(count.error());
    if (!o || !patchRecordCount(o, count.value())) return fail("write error on " + out);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    std::cerr << "lasca-tune: " << count.value() << " positions, "
              << tune::kTrainingHeaderBytes + count.value() * tune::kTrainingRecordBytes
              << " bytes in " << common::formatFixed(seconds, 1) << " s; wrote " << out << "\n";
    return 0;
}

// ---- spsa: the search's parameters tuned through game pairs (issue 27, docs/tuning.md) -------

// The whole text of a file given on the command line (at most 16 MiB).
common::Result<std::string> readSmallFile(const std::string& path, const char* option) {
    constexpr std::size_t kLargest = std::size_t{16} << 20;
    std::ifstream in(path, std::ios::binary);
    if (!in) return common::makeError(std::string(option) + ": cannot read " + path);
    std::string text;
    std::array<char, 1 << 16> chunk{};
    while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0) {
        text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
        if (text.size() > kLargest)
            return common::makeError(std::string(option) + ": " + path + " is larger than 16 MiB");
    }
    return text;
}

// SpsaTotals: the games of a run so far, for the progress line and the summary.
//   plusPoints  points of the theta+ engines; failures: games an engine lost by failing
//               (illegal or garbled move, time forfeit, crash, no start)
struct SpsaTotals {
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
    std::cout << "SPSA: " << spsa.updated() << " iterations, " << totals.games
              << " games, theta+ scored " << common::formatFixed(totals.plusPoints, 1) << "/"
              << totals.games << ", " << totals.failures << " games lost by an engine failure\n";
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
             const std::string& outPath) {
    SpsaTotals totals;
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
        common::showProgress(
            "iteration " + std::to_string(done) + "/" + std::to_string(total) + "  " +
            thetaText(now) + "  ETA " +
            common::formatDuration(common::etaSeconds(elapsed, done, total - done)));
        return written;
    });
    common::endProgress();
    if (!written) return fail("write error on " + outPath);
    printSpsaSummary(spsa, totals);
    return 0;
}

int spsa(const std::vector<std::string>& args) {
    po::options_description desc("lasca-tune spsa options");
    std::string engineText, paramsFile, openingsFile, outPath;
    // --nodes and --movetime stay at kNotGiven unless given (a given 0 is out of range).
    constexpr std::int64_t kNotGiven = std::numeric_limits<std::int64_t>::min();
    std::int64_t iterations = 0, nodes = kNotGiven, movetime = kNotGiven, seed = 0, concurrency = 0;
    desc.add_options()("help,h", "this help")(
        "engine", po::value(&engineText)->required(),
        "the engine: PATH, or cmd=PATH,arg=A,option.X=Y (options every game gets)")(
        "params", po::value(&paramsFile)->required(),
        "parameter file: one line each, name start min max c_end r_end (# comments)")(
        "iterations", po::value(&iterations)->required(), "N, the game pairs of the run")(
        "nodes", po::value(&nodes), "nodes per move (give this or --movetime)")(
        "movetime", po::value(&movetime), "milliseconds per move")(
        "openings", po::value(&openingsFile),
        "file of LFENs, one per line (# comments); default: the start position only")(
        "seed", po::value(&seed)->default_value(1), "seed of the Delta draws and the openings")(
        "concurrency", po::value(&concurrency)->default_value(1), "game pairs played at once")(
        "out", po::value(&outPath), "progress file: iteration, result and theta per line");
    if (!parseOptions(args, desc,
                      "usage: lasca-tune spsa --engine CMD --params FILE --iterations N "
                      "(--nodes N | --movetime MS) [options]\n"))
        return 0;
    if (!inRange("iterations", iterations, 1, 1'000'000'000) ||
        !inRange("seed", seed, 0, std::numeric_limits<std::int64_t>::max()) ||
        !inRange("concurrency", concurrency, 1, 256))
        return kExitUsage;
    tune::SpsaRunConfig config;
    if ((nodes != kNotGiven) == (movetime != kNotGiven))
        return fail("give one of --nodes and --movetime", kExitUsage);
    if (nodes != kNotGiven) {
        if (!inRange("nodes", nodes, 1, 1'000'000'000)) return kExitUsage;
        config.game.timeControl.kind = match::TimeControl::Kind::Nodes;
        config.game.timeControl.nodes = nodes;
    } else {
        if (!inRange("movetime", movetime, 1, 3'600'000)) return kExitUsage;
        config.game.timeControl.kind = match::TimeControl::Kind::MoveTime;
        config.game.timeControl.movetimeMs = movetime;
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

    std::ofstream out;
    if (!outPath.empty()) {
        out.open(outPath, std::ios::trunc);
        if (!out) return fail("cannot write " + outPath);
        out << "# lasca-tune spsa: " << iterations << " iterations, seed " << seed << "\n"
            << tune::spsaProgressHeader(params.value()) << "\n"
            << tune::spsaProgressLine(0, 0, tuner.value().theta()) << "\n"
            << std::flush;
    }
    return playSpsa(tuner.value(), config, out, outPath);
}

}  // namespace

int main(int argc, char** argv) {
    if (common::printVersionIfAsked(argc, argv, "lasca-tune")) return 0;
    const std::vector<std::string> args(argv + 1, argv + argc);
    const std::string usage =
        "usage: lasca-tune extract --pdn FILE... --out FILE [--skip-plies N]\n"
        "       lasca-tune fit --positions FILE --out FILE [--epochs N] [--rate R] [--start S]\n"
        "       lasca-tune scale --positions FILE [--start S]\n"
        "       lasca-tune datagen --games N --out FILE [--seed S] [--nodes N] [--random-plies N]\n"
        "                          [--random-moves PERCENT]\n"
        "                          [--max-plies N] [--jobs J] [--eval classic|nnue|FILE]\n"
        "                          [--shard i/n]\n"
        "       lasca-tune features --positions FILE --out FILE\n"
        "       lasca-tune spsa --engine CMD --params FILE --iterations N\n"
        "                       (--nodes N | --movetime MS) [--openings FILE] [--seed S]\n"
        "                       [--concurrency C] [--out FILE]\n";
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::cout << usage;
        return args.empty() ? kExitUsage : 0;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    try {
        if (args[0] == "extract") return extract(rest);
        if (args[0] == "fit") return fit(rest);
        if (args[0] == "scale") return scale(rest);
        if (args[0] == "datagen") return datagen(rest);
        if (args[0] == "features") return features(rest);
        if (args[0] == "spsa") return spsa(rest);
    } catch (const po::error& e) {
        return fail(e.what(), kExitUsage);
    }
    std::cerr << usage;
    return kExitUsage;
}
