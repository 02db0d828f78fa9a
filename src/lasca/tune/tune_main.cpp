// lasca-tune: the evaluation tuner (docs/tuning.md).
//   lasca-tune extract --pdn FILE... --out POSITIONS [--skip-plies N]
//       quiet positions of finished games, labelled with the result ("<result> <LFEN>")
//   lasca-tune fit --positions POSITIONS --out FILE [--epochs N] [--rate R] [--start S]
//       Texel fit of the evaluation weights; writes src/lasca/eval_weights.inc
//   lasca-tune scale --positions POSITIONS [--start S]
//       only the fit's scale K, and the logistic scale in centi-soldiers that `lasca analyse`
//       turns scores into winning chances with (docs/analysis.md)
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "lasca/match/pdn.h"
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

    std::vector<match::PdnGame> games;
    for (const std::string& file : pdnFiles) {
        std::ifstream in(file);
        if (!in) return fail("cannot read " + file);
        auto read = match::readPdn(in);
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
        "out", po::value(&out)->required(), "weights file to write (src/lasca/eval_weights.inc)")(
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

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    const std::string usage =
        "usage: lasca-tune extract --pdn FILE... --out FILE [--skip-plies N]\n"
        "       lasca-tune fit --positions FILE --out FILE [--epochs N] [--rate R] [--start S]\n"
        "       lasca-tune scale --positions FILE [--start S]\n";
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::cout << usage;
        return args.empty() ? kExitUsage : 0;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    try {
        if (args[0] == "extract") return extract(rest);
        if (args[0] == "fit") return fit(rest);
        if (args[0] == "scale") return scale(rest);
    } catch (const po::error& e) {
        return fail(e.what(), kExitUsage);
    }
    std::cerr << usage;
    return kExitUsage;
}
