#include "command_line.h"

#include <cmath>
#include <cstdio>
#include <iostream>

#include "lasca/tune/tuner.h"

namespace lasca::tune {

// Prints K (sigmoid(K * eval / 400) in base 10, as fit uses it) and the same curve as
// 1 / (1 + exp(-eval / s)): s = 400 / (K ln 10) centi-soldiers.
int scaleCommand(const std::vector<std::string>& args) {
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

}  // namespace lasca::tune
