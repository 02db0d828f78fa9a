#include "shared_instance.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "common/logging.h"
#include "lasca_room.h"
#include "lobby_room.h"
#include "torneio_room.h"

namespace web::server {

namespace net = boost::asio;

SharedInstance::SharedInstance(net::io_context& io, store::Store& store, int leaseMs,
                               std::shared_ptr<LascaRoom> lasca,
                               std::shared_ptr<TorneioRoom> torneio,
                               std::shared_ptr<LobbyRoom> lobby)
    : store_(store),
      leaseMs_(leaseMs),
      lasca_(std::move(lasca)),
      torneio_(std::move(torneio)),
      lobby_(std::move(lobby)),
      renewal_(io),
      busSocket_(io),
      busRetry_(io) {
}

void SharedInstance::start(bool listen) {
    renew();
    if (listen) this->listen();
}

void SharedInstance::renew() {
    const auto moved = store_.renewHome();
    if (!moved) {
        common::logger().warn("web: {}", moved.error());
    } else if (!moved.value().empty()) {
        common::logger().warn("web: {} tables now held by another instance", moved.value().size());
        lasca_->letGo(moved.value());
        torneio_->letGo(moved.value());
    }
    lobby_->dropLost();
    renewal_.expires_after(std::chrono::milliseconds(std::max(leaseMs_ / 4, 50)));
    renewal_.async_wait([this](boost::system::error_code waited) {
        if (!waited) renew();
    });
}

void SharedInstance::listen() {
    if (!bus_) {
        auto opened = store::Bus::open(store_.location(), kLobbyChannel);
        if (!opened) {
            common::logger().warn("web: {}", opened.error());
            busRetry_.expires_after(std::chrono::seconds(5));
            busRetry_.async_wait([this](boost::system::error_code waited) {
                if (!waited) listen();
            });
            return;
        }
        bus_ = std::move(opened).value();
        busSocket_.assign(::dup(bus_->socket()));  // its own descriptor: libpq closes its one
        lobby_->reload();                          // what was said while nobody listened
    }
    busSocket_.async_wait(net::posix::stream_descriptor::wait_read,
                          [this](boost::system::error_code waited) {
                              if (waited) return;
                              const auto heard = bus_->drain();
                              if (!heard) {
                                  common::logger().warn("web: {}", heard.error());
                                  busSocket_.close();
                                  bus_.reset();
                              } else {
                                  for (const auto& message : heard.value()) lobby_->heard(message);
                              }
                              listen();
                          });
}

}  // namespace web::server
