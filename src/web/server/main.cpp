// lasca-web: the web page to play and analyse Lasca against the engine (README.md, "The web
// page"; protocol.md, "The web page's WebSocket messages"). Exit codes: 0 stopped by a signal,
// 1 cannot listen, 2 a bad command line or database (not a database, a newer schema, in use by
// another server, unwritable).
#include <sys/resource.h>

#include <algorithm>
#include <cctype>
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
#include "web/server/access.h"
#include "web/server/server.h"
#include "web/store/connection.h"
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

// What --help shows as the defaults that depend on the machine: the real ones, or, under
// LASCA_MANUAL_PAGE=1 (set where help2man makes the manual page at build time: CMakeLists.txt),
// how an installed lasca-web finds them, and not the build machine's folders, home and cores.
struct ShownDefaults {
    std::string staticDir, engine, database, maxEngines;
};

ShownDefaults shownDefaults(ShownDefaults real) {
    if (const char* manual = std::getenv("LASCA_MANUAL_PAGE"); manual && std::string(manual) == "1")
        return {"share/lasca/web beside the program's bin/: /usr/share/lasca/web",
                "lasca beside the program: /usr/bin/lasca",
                "$XDG_DATA_HOME/lasca/web.db, else ~/.local/share/lasca/web.db",
                "the number of cores"};
    return real;
}

}  // namespace

// Every connection is an open file, and so are the engines' pipes, the database and the page's
// files: the soft limit on open files (often 1024) is raised toward the hard one so that
// `connections` fit beside a reserve for the rest. Returns the connections that fit (fewer than
// asked, with a warning, when the hard limit is lower): the server refuses the next one with a
// 503 instead of running out of descriptors.
int raiseOpenFileLimit(int connections, int engines) {
    const rlim_t reserve = 256 + 4 * static_cast<rlim_t>(engines);
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return connections;
    const rlim_t wanted = static_cast<rlim_t>(connections) + reserve;
    if (limit.rlim_cur < wanted) {
        limit.rlim_cur =
            limit.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, limit.rlim_max);
        if (setrlimit(RLIMIT_NOFILE, &limit) != 0) getrlimit(RLIMIT_NOFILE, &limit);
    }
    if (limit.rlim_cur >= wanted) return connections;
    const int fit = limit.rlim_cur > reserve + 16 ? static_cast<int>(limit.rlim_cur - reserve) : 16;
    std::cerr << "lasca-web: only " << limit.rlim_cur << " open files allowed: at most " << fit
              << " connections at once\n";
    return fit;
}

int main(int argc, char** argv) {
    if (common::printVersionIfAsked(argc, argv, "lasca-web", std::cout)) return 0;
    web::server::ServerConfig config;
    config.maxEngines =
        static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1U,
                                    static_cast<unsigned>(web::lasca_tables::kMaxPoolSize)));
    int port = config.port;
    long long queuedBytes = static_cast<long long>(config.maxQueuedBytes);
    std::string logLevel = "info";
    std::string dbPath = defaultDatabase();
    const std::string staticDir = defaultStaticDir(), engine = defaultEngine();
    const ShownDefaults shown =
        shownDefaults({staticDir, engine, dbPath, std::to_string(config.maxEngines)});
    po::options_description options("lasca-web options");
    auto add = options.add_options();
    add("help,h", "this help");
    add("version,V", "the version");
    add("listen", po::value(&config.address)->default_value(config.address),
        "address to listen on");
    add("port", po::value(&port)->default_value(port), "port (0: any free port)");
    add("public-origin", po::value(&config.publicOrigins)->composing(),
        "an origin the server also answers for, as the browser names it (https://host[:port]); "
        "repeatable. Without it only the loopback names and the listening address are served");
    add("static", po::value(&config.staticDir)->default_value(staticDir, shown.staticDir),
        "folder of the page's files (read once, at start)");
    add("engine", po::value(&config.enginePath)->default_value(engine, shown.engine),
        "the Lasca engine program");
    add("max-tables", po::value(&config.maxTables)->default_value(config.maxTables),
        "Lasca tables (browser tabs) at once, 1..100000");
    add("db", po::value(&dbPath)->default_value(dbPath, shown.database),
        "where every game is kept: a database file (SQLite; '' keeps everything in memory), or a "
        "PostgreSQL database's URL (postgresql://[user[:password]@][host][:port]/dbname"
        "[?host=/socket/folder&...], or postgres://...)");
    add("max-engines",
        po::value(&config.maxEngines)->default_value(config.maxEngines, shown.maxEngines),
        "engine processes shared by every table, 1..256 (default: the number of cores)");
    add("egtb", po::value(&config.egtbPath),
        "the endgame tables' folder the engines probe (lasca-tune egtb; default: none)");
    add("max-connections", po::value(&config.maxConnections)->default_value(config.maxConnections),
        "TCP connections at once, 1..100000; one more is answered 503 and closed");
    add("max-connections-per-address",
        po::value(&config.maxConnectionsPerAddress)->default_value(config.maxConnectionsPerAddress),
        "TCP connections at once from one address, 1..100000");
    add("trusted-proxy", po::value(&config.trustedProxies)->composing(),
        "the IP address of a front (HAProxy with send-proxy) whose connections begin with a "
        "PROXY protocol v1 header naming the client, whose address then counts for every limit; "
        "repeatable. A connection from it without the header is closed");
    add("header-timeout", po::value(&config.headerSeconds)->default_value(config.headerSeconds),
        "seconds a connection has to send a whole request, 1..3600");
    add("idle-timeout", po::value(&config.idleSeconds)->default_value(config.idleSeconds),
        "seconds a WebSocket may stay silent before it is closed, 1..604800");
    add("max-queued-bytes", po::value(&queuedBytes)->default_value(queuedBytes),
        "bytes of replies waiting for one WebSocket before it is closed, 65536..1073741824");
    add("max-torneio-tables",
        po::value(&config.maxTorneioTables)->default_value(config.maxTorneioTables),
        "Torneio tables at once, 1..10000");
    add("max-torneio-tables-per-address",
        po::value(&config.maxTorneioTablesPerAddress)
            ->default_value(config.maxTorneioTablesPerAddress),
        "Torneio tables made from one address on the server at once, 1..10000");
    add("max-duels-per-address",
        po::value(&config.maxDuelsPerAddress)->default_value(config.maxDuelsPerAddress),
        "two-person tables made from one address on the server at once, 1..100000");
    add("max-games-per-address",
        po::value(&config.maxGamesPerAddress)->default_value(config.maxGamesPerAddress),
        "new Lasca games kept from one address in an hour, 1..1000000");
    add("secure-cookies", po::bool_switch(&config.secureCookies),
        "the session cookie carries Secure (set it when the server is behind TLS)");
    add("signin-tries", po::value(&config.signInTries)->default_value(config.signInTries),
        "password checks (sign-in, password change, account deletion) at once from one address "
        "and for one account name, 1..1000");
    add("signin-wait",
        po::value(&config.signInWaitSeconds)->default_value(config.signInWaitSeconds),
        "seconds after which one more password check is allowed, 1..86400");
    add("signups-per-address",
        po::value(&config.signUpsPerAddress)->default_value(config.signUpsPerAddress),
        "accounts made from one address at once, and then in an hour, 1..10000");
    add("instance", po::value(&config.instance),
        "this instance's name among several sharing one PostgreSQL database behind a front "
        "(1..32 letters, digits, '-' or '_'; the front's server name for it): each table lives on "
        "one instance under a lease, and another takes it when this one stops renewing");
    add("lease-ms", po::value(&config.leaseMs)->default_value(config.leaseMs),
        "with --instance, how long a table's lease lives unrenewed, 1000..600000 ms (renewed "
        "every quarter of it)");
    add("log-level", po::value(&logLevel)->default_value(logLevel),
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
    const auto within = [](long long value, long long low, long long high) {
        return value >= low && value <= high;
    };
    const std::pair<const char*, bool> ranges[] = {
        {"--port must be 0..65535", within(port, 0, 65535)},
        {"--max-tables must be 1..100000", within(config.maxTables, 1, 100000)},
        {"--max-engines must be 1..256",
         within(config.maxEngines, 1, web::lasca_tables::kMaxPoolSize)},
        {"--max-connections must be 1..100000", within(config.maxConnections, 1, 100000)},
        {"--max-connections-per-address must be 1..100000",
         within(config.maxConnectionsPerAddress, 1, 100000)},
        {"--header-timeout must be 1..3600", within(config.headerSeconds, 1, 3600)},
        {"--idle-timeout must be 1..604800", within(config.idleSeconds, 1, 604800)},
        {"--max-queued-bytes must be 65536..1073741824", within(queuedBytes, 65536, 1 << 30)},
        {"--max-torneio-tables must be 1..10000", within(config.maxTorneioTables, 1, 10000)},
        {"--max-torneio-tables-per-address must be 1..10000",
         within(config.maxTorneioTablesPerAddress, 1, 10000)},
        {"--max-duels-per-address must be 1..100000", within(config.maxDuelsPerAddress, 1, 100000)},
        {"--max-games-per-address must be 1..1000000",
         within(config.maxGamesPerAddress, 1, 1000000)},
        {"--signin-tries must be 1..1000", within(config.signInTries, 1, 1000)},
        {"--signin-wait must be 1..86400",
         config.signInWaitSeconds >= 1 && config.signInWaitSeconds <= 86400},
        {"--signups-per-address must be 1..10000", within(config.signUpsPerAddress, 1, 10000)},
        {"--lease-ms must be 1000..600000", within(config.leaseMs, 1000, 600000)},
        {"--instance must be 1..32 letters, digits, '-' or '_'",
         !vm.count("instance") ||
             (!config.instance.empty() && config.instance.size() <= 32 &&
              std::ranges::all_of(config.instance,
                                  [](char c) {
                                      return std::isalnum(static_cast<unsigned char>(c)) ||
                                             c == '-' || c == '_';
                                  }))},
    };
    for (const auto& [message, ok] : ranges) {
        if (!ok) {
            std::cerr << "lasca-web: " << message << "\n";
            return 2;
        }
    }
    config.maxQueuedBytes = static_cast<std::size_t>(queuedBytes);
    for (const auto& proxy : config.trustedProxies) {
        boost::system::error_code error;
        boost::asio::ip::make_address(proxy, error);
        if (error) {
            std::cerr << "lasca-web: --trusted-proxy '" << proxy << "' is not an IP address\n";
            return 2;
        }
    }
    for (const auto& origin : config.publicOrigins) {
        if (!web::server::parseOrigin(origin)) {
            std::cerr << "lasca-web: --public-origin '" << origin
                      << "' is not an origin like https://lasca.example.org[:port]\n";
            return 2;
        }
    }
    if (!config.egtbPath.empty()) {
        // The engines would each refuse a bad folder with an error line and play on without
        // tables; refusing it here says so once, before anyone plays.
        if (auto tables = lasca::egtb::Tablebase::open(config.egtbPath); !tables) {
            std::cerr << "lasca-web: --egtb: " << tables.error() << "\n";
            return 2;
        }
    }
    config.maxConnections = raiseOpenFileLimit(config.maxConnections, config.maxEngines);
    config.port = static_cast<std::uint16_t>(port);
    if (auto logging = common::initLogging(logLevel, ""); !logging) {
        std::cerr << "lasca-web: " << logging.error() << "\n";
        return 2;
    }
    const bool postgres = web::store::isPostgreSQLUrl(dbPath);
    if (!dbPath.empty() && !postgres) {
        std::error_code ignored;  // a folder that cannot be made shows as the open's error
        std::filesystem::create_directories(std::filesystem::path(dbPath).parent_path(), ignored);
    }
    auto store = web::store::Store::open(dbPath);
    if (!store) {
        std::cerr << "lasca-web: " << store.error() << "\n";
        return 2;
    }
    const std::string kept = postgres ? web::store::withoutPassword(dbPath) : dbPath;
    common::logger().info("web: games are kept in {}", kept.empty() ? "memory" : kept);
    const auto result = web::server::runServer(config, *store.value());
    if (!result) {
        std::cerr << "lasca-web: " << result.error() << "\n";
        return 1;
    }
    return 0;
}
