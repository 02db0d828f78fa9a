// torneio: a Torneio player program. It speaks the Torneio player protocol on stdin/stdout
// (protocol.md, "The Torneio player protocol"); logs go to stderr.
//   torneio [--log-level LEVEL] [--log-file FILE]
//   torneio replay FILE [--seat N] [--json]   checks a game record by the rules and prints it,
//                                             or what seat N saw of it
#include <boost/program_options.hpp>
#include <iostream>
#include <string>

#include "common/cli.h"
#include "common/logging.h"
#include "common/text.h"
#include "torneio/rules/params.h"
#include "torneio/play/player_session.h"
#include "torneio/rules/record.h"

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

// torneio replay FILE [--seat N] [--json]: a full record is replayed through the rules (an
// error names the first mismatch, exit 1); then the game is printed, whole or as seat N saw it
// (its own actions and the events it received), as a listing or as JSON lines.
int replay(int argc, char** argv) {
    po::options_description options("Usage: torneio replay FILE [--seat N] [--json]\n\nOptions");
    options.add_options()("help,h", "show this help and exit")(
        "seat", po::value<std::string>(), "print what this seat (1..N) saw of the game")(
        "json", "print JSON lines (the record format) instead of a listing");
    po::options_description all;
    all.add(options).add_options()("file", po::value<std::string>());
    po::positional_options_description positional;
    positional.add("file", 1);
    po::variables_map vm;
    po::store(po::command_line_parser(argc - 1, argv + 1).options(all).positional(positional).run(),
              vm);
    po::notify(vm);
    if (vm.count("help")) {
        std::cout << options;
        return 0;
    }
    if (!vm.count("file")) throw common::UsageError{"torneio replay needs a record FILE"};
    const std::string path = vm["file"].as<std::string>();
    auto record = torneio::readRecord(path);
    if (!record) {
        std::cerr << "torneio: " << record.error() << "\n";
        return 1;
    }
    torneio::Record shown = record.value();
    if (shown.viewSeat < 0) {
        if (auto checked = torneio::replayRecord(shown); !checked) {
            std::cerr << "torneio: " << path << ": " << checked.error() << "\n";
            return 1;
        }
    }
    if (vm.count("seat")) {
        auto seat = torneio::parseSeat(vm["seat"].as<std::string>(), shown.params.seats);
        if (!seat) throw common::UsageError{"--seat: " + seat.error()};
        if (shown.viewSeat >= 0 && shown.viewSeat != seat.value())
            throw common::UsageError{"the record is already seen from another seat"};
        if (shown.viewSeat < 0) shown = torneio::seatRecord(shown, seat.value());
    }
    std::cout << (vm.count("json") ? torneio::formatRecord(shown) : torneio::recordListing(shown));
    return 0;
}

int run(int argc, char** argv) {
    if (argc >= 2 && std::string(argv[1]) == "replay") return replay(argc, argv);
    const auto options = playerOptions();
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, options), vm);
    po::notify(vm);
    if (vm.count("help") || vm.count("version")) {
        if (vm.count("help")) std::cout << options;
        if (vm.count("version"))
            std::cout << torneio::play::kPlayerProgramName << " " << torneio::play::kPlayerVersion
                      << "\n";
        return 0;
    }
    auto logging =
        common::initLogging(vm["log-level"].as<std::string>(), vm["log-file"].as<std::string>());
    if (!logging) throw common::UsageError{logging.error()};
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    return torneio::play::runPlayerLoop(std::cin, std::cout);
}

}  // namespace

int main(int argc, char** argv) {
    return common::runCommandLine<po::error>("torneio", [&] { return run(argc, argv); });
}
