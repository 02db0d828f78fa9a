#include "command_line.h"

#include <algorithm>
#include <iostream>

#include "common/logging.h"
#include "common/progress.h"
#include "common/text.h"

namespace lasca::analysis {

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

po::typed_value<std::string>* textValue(const char* name) {
    return po::value<std::string>()->value_name(name);
}

po::variables_map parseCommandLine(int argc, char** argv, const po::options_description& options,
                                   const po::positional_options_description& positional,
                                   bool shortOptions) {
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

void startLogging() {
    (void)common::initLogging("warn", "");
}
std::string rateAndEta(double elapsed, std::size_t done, std::size_t total) {
    const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0;
    return common::formatFixed(rate, 1) + "/s  ETA " +
           common::formatDuration(common::etaSeconds(elapsed, done, total - done));
}

void readEvalOption(const po::variables_map& vm,
                    std::shared_ptr<const eval::nnue::Network>& network) {
    if (!vm.count("eval")) return;
    auto chosen = eval::nnue::networkForEval(vm["eval"].as<std::string>());
    if (!chosen) throw UsageError{"--eval: " + chosen.error()};
    network = chosen.value();
}
std::unique_ptr<Analyser> makeAnalyser(const AnalysisSettings& settings) {
    auto analyser = Analyser::create(settings);
    if (!analyser) throw UsageError{"--hash: " + analyser.error()};
    return std::move(analyser).value();
}

int threadCount(int jobs, std::size_t work) {
    return std::clamp(static_cast<int>(std::min<std::size_t>(work, kMaxJobs)), 1, jobs);
}

std::vector<std::unique_ptr<Analyser>> makeAnalysers(const AnalysisSettings& settings,
                                                     int threads) {
    std::vector<std::unique_ptr<Analyser>> analysers;
    for (int i = 0; i < threads; ++i) analysers.push_back(makeAnalyser(settings));
    return analysers;
}

void reportSkipped(const std::string& what, int number, int line, const std::string& error) {
    common::endProgress();
    std::cerr << "lasca: " << what << " " << number << " (line " << line << "): " << error
              << "; skipped\n";
}
}  // namespace lasca::analysis
