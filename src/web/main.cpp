// lasca-web: the web page to play and analyse Lasca against the engine (README.md, "The web
// page"; protocol.md, "The web page's WebSocket messages").
#include <cstdlib>
#include <iostream>
#include <string>

#include <boost/program_options.hpp>

#include "common/logging.h"
#include "web/server.h"

namespace po = boost::program_options;

int main(int argc, char** argv) {
    web::ServerConfig config;
    int port = config.port;
    std::string logLevel = "info";
    po::options_description options("lasca-web options");
    options.add_options()("help", "this help")(
        "listen", po::value(&config.address)->default_value(config.address),
        "address to listen on")("port", po::value(&port)->default_value(port),
                                "port (0: any free port)")(
        "static", po::value(&config.staticDir)->default_value(LASCA_WEB_STATIC_DIR),
        "folder of the page's files")(
        "engine", po::value(&config.enginePath)->default_value(LASCA_WEB_ENGINE),
        "the Lasca engine program")("max-tables",
                                    po::value(&config.maxTables)->default_value(config.maxTables),
                                    "Lasca tables (browser tabs) at once, 1..1000")(
        "max-engines", po::value(&config.maxEngines)->default_value(config.maxEngines),
        "engine processes at once, 1..1000")("log-level",
                                             po::value(&logLevel)->default_value(logLevel),
                                             "stderr log level: trace debug info warn error off");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, options), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "lasca-web: " << e.what() << "\n" << options;
        return 2;
    }
    if (vm.count("help")) {
        std::cout << options;
        return 0;
    }
    if (port < 0 || port > 65535 || config.maxTables < 1 || config.maxTables > 1000 ||
        config.maxEngines < 1 || config.maxEngines > 1000) {
        std::cerr << "lasca-web: --port must be 0..65535, --max-tables and --max-engines "
                     "1..1000\n";
        return 2;
    }
    config.port = static_cast<std::uint16_t>(port);
    if (auto logging = common::initLogging(logLevel, ""); !logging) {
        std::cerr << "lasca-web: " << logging.error() << "\n";
        return 2;
    }
    const auto result = web::runServer(config);
    if (!result) {
        std::cerr << "lasca-web: " << result.error() << "\n";
        return 1;
    }
    return 0;
}
