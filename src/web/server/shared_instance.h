// SharedInstance: what an instance among several sharing one database runs on the server's
// thread beside its rooms (docs/design.md, "Spreading the server over several machines"):
//   - it renews its leases every leaseMs / 4, the first renewal at once (before anything is
//     served), lets the Lasca and Torneio rooms go of the tables found held elsewhere, and has
//     the lobby drop what the tabs of instances that stopped renewing had there;
//   - on PostgreSQL, it listens on the lobby's bus channel (web/store/bus.h) and hands each event
//     to the lobby, reading the lobby again from the store whenever the link opens (what was
//     said while nobody listened), and opening it again 5 s after it is lost.
// It holds no owner of the rooms' lifetimes beyond the server's run (runServer owns both).
#pragma once

#include <memory>
#include <string>
#include <utility>  // before Boost.Asio, whose awaitable.hpp uses std::exchange

#include <boost/asio.hpp>

#include "web/store/bus.h"
#include "web/store/store.h"

namespace web::server {

class LascaRoom;
class TorneioRoom;
class LobbyRoom;

// The bus channel of the lobby's events (lobby_room.h).
inline constexpr const char* kLobbyChannel = "lasca_lobby";

class SharedInstance {
  public:
    SharedInstance(boost::asio::io_context& io, store::Store& store, int leaseMs,
                   std::shared_ptr<LascaRoom> lasca, std::shared_ptr<TorneioRoom> torneio,
                   std::shared_ptr<LobbyRoom> lobby);
    // Starts the renewals, and the bus when `listen`.
    void start(bool listen);

  private:
    void renew();
    void listen();

    store::Store& store_;
    int leaseMs_;
    std::shared_ptr<LascaRoom> lasca_;
    std::shared_ptr<TorneioRoom> torneio_;
    std::shared_ptr<LobbyRoom> lobby_;
    boost::asio::steady_timer renewal_;
    std::unique_ptr<store::Bus> bus_;
    boost::asio::posix::stream_descriptor busSocket_;
    boost::asio::steady_timer busRetry_;
};

}  // namespace web::server
