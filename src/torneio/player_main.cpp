// torneio: a Torneio player program. It speaks the Torneio player protocol on stdin/stdout
// (protocol.md, "The Torneio player protocol"); logs go to stderr.
//   torneio [--log-level LEVEL] [--log-file FILE]
#include <boost/program_options.hpp>
#include <iostream>
#include <string>

#include "common/cli.h"
#include "common/logging.h"
#include "torneio/player_session.h"

namespace po = boost::program_options;

namespace {

po::options_description playerOptions() {
    po::options_description visible(
        "Usage: torneio [options]\n\n"
        "Plays Torneio through the player protocol on stdin/stdout (see protocol.md).\n\n"
        "Options");
    visible.add_options()("help,h", "show this help and exit")("version,v",
                                                               "show the version and exit")(
        "log-level", po::value<std::string>()->default_value("warn"),
        "stderr log level: trace, debug, info, warn, error, critical, off")(
        "log-file", po::value<std::string>()->default_value(""),
        "also log to this file at debug level (every protocol line)");
    return visible;
}

int run(int argc, char** argv) {
    const auto options = playerOptions();
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, options), vm);
    po::notify(vm);
    if (vm.count("help") || vm.count("version")) {
        if (vm.count("help")) std::cout << options;
        if (vm.count("version"))
            std::cout << torneio::kPlayerProgramName << " " << torneio::kPlayerVersion << "\n";
        return 0;
    }
    auto logging =
        common::initLogging(vm["log-level"].as<std::string>(), vm["log-file"].as<std::string>());
    if (!logging) throw common::UsageError{logging.error()};
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    return torneio::runPlayerLoop(std::cin, std::cout);
}

}  // namespace

int main(int argc, char** argv) {
    return common::runCommandLine<po::error>("torneio", [&] { return run(argc, argv); });
}
