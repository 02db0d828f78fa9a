#include "command_line.h"

#include <chrono>
#include <fstream>
#include <iostream>

#include "lasca/tune/tuner.h"

namespace lasca::tune {

// lasca-tune fit: the Texel fit of the evaluation weights.
int fitCommand(const std::vector<std::string>& args) {
    po::options_description desc("lasca-tune fit options");
    std::string positionsFile, out, start;
    int epochs = 0;
    double rate = 0;
    desc.add_options()("help,h", "this help")("positions", po::value(&positionsFile)->required(),
                                              "positions file (from extract)")(
        "out", po::value(&out)->required(),
        "weights file to write (src/lasca/eval/eval_weights.inc)")(
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
    const eval::EvalWeights weights = tune::rounded(fitted);
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

}  // namespace lasca::tune
