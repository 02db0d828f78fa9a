#include "command_line.h"

#include <fstream>
#include <iostream>

#include "lasca/core/position.h"

namespace lasca::tune {

int fail(const std::string& message, int code) {
    std::cerr << "lasca-tune: " << message << "\n";
    return code;
}

common::Result<std::vector<Sample>> readSamples(const std::string& path) {
    std::ifstream in(path);
    if (!in) return common::makeError("cannot read " + path);
    std::vector<Sample> samples;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (line.empty()) continue;
        auto p = parsePosition(line);
        if (!p) return common::makeError(path + ":" + std::to_string(number) + ": " + p.error());
        samples.push_back(toSample(Position::fromLfen(p.value().lfen).value(), p.value().result));
    }
    if (samples.empty()) return common::makeError("no positions in " + path);
    return samples;
}

RealWeights startingWeights(const std::string& start) {
    return toReal(start == "tuned" ? eval::tunedWeights() : eval::materialWeights());
}

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

bool inRange(const char* name, std::int64_t value, std::int64_t low, std::int64_t high) {
    if (value >= low && value <= high) return true;
    fail(std::string("--") + name + " must be " + std::to_string(low) + ".." + std::to_string(high),
         kExitUsage);
    return false;
}

}  // namespace lasca::tune
