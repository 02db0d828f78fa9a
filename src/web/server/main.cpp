// lasca-web: the web page to play and analyse Lasca against the engine (README.md, "The web
// page"; protocol.md, "The web page's WebSocket messages"). Exit codes: 0 stopped by a signal,
// 1 cannot listen, 2 a bad command line or database (not a database, a newer schema, in use by
// another server, unwritable).
#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <thread>

#include <boost/program_options.hpp>

#include "common/logging.h"
#include "common/version.h"
#include "lasca/egtb/egtb.h"
#include "web/lasca_tables/engine_pool.h"
#include "web/server/server.h"
#include "web/store/store.h"

namespace po = boost::program_options;

namespace {

// The default database: $XDG_DATA_HOME/lasca/web.db, else ~/.local/share/lasca/web.db, else
// lasca-web.db in the working folder.
std::string defaultDatabase() {
    if (const char* data = std::getenv("XDG_DATA_HOME"); data && *data)
        return std::string(data) + "/lasca/web.db";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.local/share/lasca/web.db";
    return "lasca-web.db";
}

// The folder of this program (/proc/self/exe), empty when it cannot be read.
std::filesystem::path programFolder() {
    std::error_code error;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::filesystem::path() : exe.parent_path();
}

// The page's files: <prefix>/share/lasca/web beside an installed program (bin/lasca-web), else
// the source tree the build came from.
std::string defaultStaticDir() {
    const auto folder = programFolder();
    if (!folder.empty()) {
        const auto installed = folder.parent_path() / "share" / "lasca" / "web";
        if (std::filesystem::exists(installed / "index.html")) return installed.string();
    }
    return LASCA_WEB_STATIC_DIR;
}

// The engine: `lasca` in this program's own folder (installed or built side by side), else
// the path the build gave.
std::string defaultEngine() {
    const auto folder = programFolder();
    if (!folder.empty() && std::filesystem::exists(folder / "lasca"))
        return (folder / "lasca").string();
    return LASCA_WEB_ENGINE;
}

}  // namespace

// Every tab is an open socket: the soft limit on open files (often 1024) is raised toward the
// hard one so that `tables` tabs, the engines' pipes and the database fit.
void raiseOpenFileLimit(int tables) {
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
    const rlim_t wanted = static_cast<rlim_t>(tables) + 256;
    if (limit.rlim_cur >= wanted) return;
    limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, limit.rlim_max);
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur < wanted)
        std::cerr << "lasca-web: only " << limit.rlim_cur << " open files allowed: fewer than "
                  << tables << " tabs will fit\n";
}

int main(int argc, char** argv) {
    if (common::printVersionIfAsked(argc, argv, "lasca-web", std::cout)) return 0;
    web::server::ServerConfig config;
    config.maxEngines =
        static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1U,
                                    static_cast<unsigned>(web::lasca_tables::kMaxPoolSize)));
    int port = config.port;
    std::string logLevel = "info";
    std::string dbPath = defaultDatabase();
    po::options_description options("lasca-web options");
    options.add_options()("help,h", "this help")("version,V", "the version")(
        "listen", po::value(&config.address)->default_value(config.address),
        "address to listen on")("port", po::value(&port)->default_value(port),
                                "port (0: any free port)")(
        "static", po::value(&config.staticDir)->default_value(defaultStaticDir()),
        "folder of the page's files")("engine",
                                      po::value(&config.enginePath)->default_value(defaultEngine()),
                                      "the Lasca engine program")(
        "max-tables", po::value(&config.maxTables)->default_value(config.maxTables),
        "Lasca tables (browser tabs) at once, 1..100000")(
        "db", po::value(&dbPath)->default_value(dbPath),
        "the database file of every game (SQLite; '' keeps everything in memory)")(
        "max-engines", po::value(&config.maxEngines)->default_value(config.maxEngines),
        "engine processes shared by every table, 1..256 (default: the number of cores)")(
        "egtb", po::value(&config.egtbPath),
        "the endgame tables' folder the engines probe (lasca-tune egtb; default: none)")(
        "log-level", po::value(&logLevel)->default_value(logLevel),
        "stderr log level: trace debug info warn error off");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, options), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "lasca-web: " << e.what() << "\n" << options;
        return 2;
    }
    if (vm.count("version")) {
        std::cout << "lasca-web " << common::kProjectVersion << std::endl;
        return 0;
    }
    if (vm.count("help")) {
        std::cout << options;
        return 0;
    }
    if (port < 0 || port > 65535 || config.maxTables < 1 || config.maxTables > 100000 ||
        config.maxEngines < 1 || config.maxEngines > web::lasca_tables::kMaxPoolSize) {
        std::cerr << "lasca-web: --port must be 0..65535, --max-tables 1..100000 and "
                     "--max-engines 1..256\n";
        return 2;
    }
    if (!config.egtbPath.empty()) {
        // The engines would each refuse a bad folder with an error line and play on without
        // tables; refusing it here says so once, before anyone plays.
        if (auto tables = lasca::egtb::Tablebase::open(config.egtbPath); !tables) {
            std::cerr << "lasca-web: --egtb: " << tables.error() << "\n";
            return 2;
        }
    }
    raiseOpenFileLimit(config.maxTables);
    config.port = static_cast<std::uint16_t>(port);
    if (auto logging = common::initLogging(logLevel, ""); !logging) {
        std::cerr << "lasca-web: " << logging.error() << "\n";
        return 2;
    }
    if (!dbPath.empty()) {
        std::error_code ignored;  // a folder that cannot be made shows as the open's error
        std::filesystem::create_directories(std::filesystem::path(dbPath).parent_path(), ignored);
    }
    auto store = web::store::Store::open(dbPath);
    if (!store) {
        std::cerr << "lasca-web: " << store.error() << "\n";
        return 2;
    }
    common::logger().info("web: games are kept in {}", dbPath.empty() ? "memory" : dbPath);
    const auto result = web::server::runServer(config, *store.value());
    if (!result) {
        std::cerr << "lasca-web: " << result.error() << "\n";
        return 1;
    }
    return 0;
}
