#include "web/server/server.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>
#include <utility>  // before Boost.Asio, whose awaitable.hpp uses std::exchange

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>

#include "common/logging.h"
#include "duel_room.h"
#include "lasca_room.h"
#include "listener.h"
#include "lobby_room.h"
#include "server_state.h"
#include "shared_instance.h"
#include "torneio_room.h"
#include "web/server/access.h"
#include "web/store/connection.h"

namespace web::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

bool RateLimiter::allow(double nowSeconds) {
    tokens_ = refilled(nowSeconds);
    last_ = nowSeconds;
    if (tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
}

int AttemptLimits::tryNow(const std::string& key, double nowSeconds) {
    auto it = buckets_.find(key);
    if (it == buckets_.end()) {
        if (buckets_.size() >= kMaxKeys)
            std::erase_if(buckets_,
                          [&](const auto& bucket) { return bucket.second.full(nowSeconds); });
        if (buckets_.size() >= kMaxKeys) return static_cast<int>(std::ceil(1 / perSecond_));
        it = buckets_.emplace(key, RateLimiter(perSecond_, burst_)).first;
    }
    const double wait = it->second.wait(nowSeconds);
    if (wait <= 0 && it->second.allow(nowSeconds)) return 0;
    return std::max(1, static_cast<int>(std::ceil(wait)));
}

common::Result<bool> runServer(const ServerConfig& config, store::Store& store) {
    net::io_context io{1};
    boost::beast::error_code ec;
    const auto address = net::ip::make_address(config.address, ec);
    if (ec) return common::makeError("bad address '" + config.address + "'");
    tcp::acceptor acceptor(io);
    const tcp::endpoint endpoint{address, config.port};
    acceptor.open(endpoint.protocol(), ec);
    if (!ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor.bind(endpoint, ec);
    if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
    if (ec)
        return common::makeError("cannot listen on " + config.address + ":" +
                                 std::to_string(config.port) + ": " + ec.message());
    const auto port = acceptor.local_endpoint().port();
    auto files = StaticFiles::load(config.staticDir);
    if (!files) return common::makeError(files.error());
    auto catalogues = i18n::Catalogues::fromFiles(files.value().under("/i18n/"));
    if (!catalogues) return common::makeError(catalogues.error());
    std::vector<Origin> origins;
    for (const auto& text : config.publicOrigins) {
        const auto origin = parseOrigin(text);
        if (!origin) return common::makeError("'" + text + "' is not an origin");
        origins.push_back(*origin);
    }
    std::vector<net::ip::address> proxies;
    for (const auto& text : config.trustedProxies) {
        boost::system::error_code error;
        proxies.push_back(net::ip::make_address(text, error));
        if (error) return common::makeError("'" + text + "' is not an IP address");
    }
    if (!config.instance.empty()) store.setHome(config.instance, config.leaseMs);
    auto duels = std::make_shared<DuelRoom>(io.get_executor(), store, config.maxTables,
                                            config.maxDuelsPerAddress);
    auto torneio = std::make_shared<TorneioRoom>(config, store, io.get_executor());
    auto state = std::make_shared<ServerState>();
    state->config = config;
    state->store = &store;
    auto lasca = std::make_shared<LascaRoom>(config, store, duels, io.get_executor());
    state->lasca = lasca;
    state->engineStats = [lasca] { return lasca->engineStats(); };
    state->engineSlots = lasca->engineSlots();
    state->torneio = torneio;
    // The public Torneio tables the lobby lists (on any instance: Store::lobbyGames).
    state->torneioToWatch = [&store] {
        std::vector<pages::WatchableTorneio> out;
        const auto listed = store.lobbyGames();
        if (!listed) common::logger().error("web: {}", listed.error());
        if (!listed) return out;
        for (const auto& game : listed.value()) {
            const Json j = Json::parse(game.game, nullptr, false);
            if (!j.is_object() || j.value("kind", "") != "torneio" || !j.contains("seats"))
                continue;
            pages::WatchableTorneio table{game.table, {}, j.value("rated", false)};
            for (const auto& seat : j["seats"]) {
                const auto player = seat.find("player");
                table.seats.push_back({seat.value("kind", ""), seat.value("level", 0),
                                       player != seat.end() && player->is_string()
                                           ? player->get<std::string>()
                                           : std::string()});
            }
            out.push_back(std::move(table));
        }
        return out;
    };
    // Several instances sharing a database: the lobby's events go over the bus to every
    // instance (this one's too, heard below); alone, the lobby hears its own at once.
    const bool shared = !config.instance.empty() && store.backend() == store::Backend::PostgreSQL;
    LobbyRoom::Publish publish;
    if (shared)
        publish = [&store](const std::string& event) {
            const auto sent = store.notify(kLobbyChannel, event);
            if (!sent) common::logger().warn("web: {}", sent.error());
            return sent.ok() && sent.value();
        };
    auto lobby = std::make_shared<LobbyRoom>(
        io.get_executor(), store, duels,
        [weak = std::weak_ptr<TorneioRoom>(torneio)](
            const std::vector<torneio_tables::TorneioSeatChoice>& seats, int rounds,
            const std::vector<std::optional<Person>>& persons, bool rated, const std::string& maker,
            const std::vector<std::string>& hashes) -> common::Result<MadeTorneioTable> {
            const auto room = weak.lock();
            if (!room) return common::makeError("the server is stopping");
            auto made = room->createForLobby(seats, rounds, persons, rated, maker, hashes);
            if (!made) return common::makeError(made.error());
            return MadeTorneioTable{made.value().id, made.value().tokens};
        },
        static_cast<int>(std::size(torneio::play::kAiLevels)), publish);
    // A public game's end leaves the lobby's list (every instance's).
    const auto publicEnded = [weak = std::weak_ptr<LobbyRoom>(lobby)](const std::string& id) {
        if (auto room = weak.lock()) room->gameEnded(id);
    };
    duels->onPublicEnd(publicEnded);
    torneio->onPublicGone(publicEnded);
    state->lobby = lobby;
    state->files = std::move(files).value();
    state->catalogues = std::move(catalogues).value();
    state->hosts = HostPolicy(config.address, port, origins);
    state->limits =
        std::make_shared<ConnectionLimits>(config.maxConnections, config.maxConnectionsPerAddress);
    state->trustedProxies = std::move(proxies);
    state->accounts = std::make_shared<AccountApi>(config, store, state->hosts);
    // Several instances: leases renewed, the lobby's bus listened to (shared_instance.h).
    SharedInstance instance(io, store, config.leaseMs, lasca, torneio, lobby);
    if (!config.instance.empty()) instance.start(shared);
    std::make_shared<Listener>(io, std::move(acceptor), state)->run();
    net::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&io](boost::beast::error_code, int) { io.stop(); });
    std::cout << "lasca-web: listening on http://" << config.address << ":" << port << "/"
              << std::endl;
    common::logger().info("web: {} page files from {}, engine {}", state->files.paths().size(),
                          config.staticDir, config.enginePath);
    io.run();
    state->accounts->stop();  // the account requests still running finish
    torneio->clear();         // closes the seats and ends the games' threads
    duels->clear();
    lobby->stop();
    return true;
}

}  // namespace web::server
