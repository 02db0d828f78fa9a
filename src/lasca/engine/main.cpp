// Command line of the `lasca` program: the protocol loop by default, or a one-shot command.
#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <iostream>
#include <string>

#include "common/logging.h"
#include "lasca/analysis/commands.h"
#include "lasca/core/notation.h"
#include "lasca/core/perft.h"
#include "lasca/core/version.h"
#include "lasca/engine/engine.h"
#include "lasca/engine/protocol.h"
#include "lasca/eval/nnue.h"

namespace po = boost::program_options;

namespace {

constexpr int kExitUsage = 2;
constexpr int kDefaultPerftDepth = 6;
constexpr int kMaxBenchDepth = 30;

int runPerft(int depth, const std::string& lfen) {
    if (depth < 1 || depth > lasca::kMaxPerftDepth) {
        std::cerr << "lasca: --depth must be between 1 and " << lasca::kMaxPerftDepth << "\n";
        return kExitUsage;
    }
    auto pos = lasca::Position::fromLfen(lfen);
    if (!pos) {
        std::cerr << "lasca: " << pos.error() << "\n";
        return kExitUsage;
    }
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t total = 0;
    for (const auto& line : lasca::divide(pos.value(), depth)) {
        std::cout << lasca::formatMove(line.move) << ": " << line.nodes << "\n";
        total += line.nodes;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "Nodes searched: " << total << std::endl;
    std::cerr << "perft " << depth << ": " << total << " leaf paths in " << seconds << " s, "
              << static_cast<std::uint64_t>(static_cast<double>(total) / std::max(seconds, 1e-9))
              << " paths/s\n";
    return 0;
}

int runBench(int depth) {
    if (depth < 1 || depth > kMaxBenchDepth) {
        std::cerr << "lasca: bench depth must be between 1 and " << kMaxBenchDepth << "\n";
        return kExitUsage;
    }
    const auto network = lasca::engine::Engine::defaultEvalNetwork();
    const auto r = lasca::engine::Engine::bench(depth, network);
    const auto ms = static_cast<std::uint64_t>(std::max<std::int64_t>(r.timeMs, 1));
    std::cout << "Total time (ms): " << r.timeMs << "\n"
              << "Nodes searched: " << r.nodes << "\n"
              << "Nodes/second: " << r.nodes * 1000 / ms << "\n";
    if (network) std::cout << "Network SIMD path: " << lasca::eval::nnue::simdName() << "\n";
    std::cout << std::flush;
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    // The scripted analysis commands have their own options (docs/analysis.md).
    const std::string first = argc > 1 ? argv[1] : "";
    if (first == "analyse") return lasca::analysis::runAnalyse(argc - 1, argv + 1);
    if (first == "diagram") return lasca::analysis::runDiagram(argc - 1, argv + 1);
    if (first == "find-wins") return lasca::analysis::runFindWins(argc - 1, argv + 1);

    po::options_description visible(
        "Usage: lasca [command] [options]\n\n"
        "Commands:\n"
        "  (none)   run the UCI/UGI protocol loop on stdin/stdout (see protocol.md)\n"
        "  perft    count move paths: lasca perft --depth N [--fen LFEN]\n"
        "  bench    search the bench positions to a fixed depth: lasca bench [--depth N]\n"
        "  analyse  annotate games or search a positions file: lasca analyse --help\n"
        "  diagram  draw a position as SVG: lasca diagram LFEN [--flip] [--last MOVE]\n"
        "  find-wins  make a suite of proven forced wins: lasca find-wins --help\n\n"
        "Options");
    visible.add_options()                                                                       //
        ("help,h", "show this help and exit")                                                   //
        ("version,v", "show the version and exit")                                              //
        ("depth,d", po::value<int>(), "perft depth (1..64, default 6) or bench depth (1..30)")  //
        ("fen,f", po::value<std::string>()->default_value(std::string(lasca::kStartLfen)),
         "position for perft, as LFEN")  //
        ("log-level", po::value<std::string>()->default_value("warn"),
         "stderr log level: trace, debug, info, warn, error, critical, off")  //
        ("log-file", po::value<std::string>()->default_value(""),
         "also log to this file at debug level (every protocol line)");
    po::options_description hidden;
    hidden.add_options()("command", po::value<std::string>(), "command");
    po::options_description all;
    all.add(visible).add(hidden);
    po::positional_options_description positional;
    positional.add("command", 1);

    po::variables_map vm;
    try {
        po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(),
                  vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "lasca: " << e.what() << "\nTry 'lasca --help'.\n";
        return kExitUsage;
    }
    if (vm.count("help")) {
        std::cout << visible << "\n";
        return 0;
    }
    if (vm.count("version")) {
        std::cout << "lasca " << lasca::kVersion << "\n";
        return 0;
    }
    auto logging =
        common::initLogging(vm["log-level"].as<std::string>(), vm["log-file"].as<std::string>());
    if (!logging) {
        std::cerr << "lasca: " << logging.error() << "\n";
        return kExitUsage;
    }
    const std::string command = vm.count("command") ? vm["command"].as<std::string>() : "";
    const bool hasDepth = vm.count("depth") > 0;
    if (command.empty()) {
        return lasca::engine::Protocol::run(std::cin, std::cout);
    }
    if (command == "perft")
        return runPerft(hasDepth ? vm["depth"].as<int>() : kDefaultPerftDepth,
                        vm["fen"].as<std::string>());
    if (command == "bench")
        return runBench(hasDepth ? vm["depth"].as<int>()
                                 : lasca::engine::Engine::kDefaultBenchDepth);
    std::cerr << "lasca: unknown command '" << command << "'\nTry 'lasca --help'.\n";
    return kExitUsage;
}
