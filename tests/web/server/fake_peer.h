// The server's rooms without sockets (tests/web/server): a FakePeer is a connection from an
// address, with a person or none, that keeps what it is sent; a Conn is a room's tab on such a
// peer, which sends one message and returns what came back.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "room.h"

namespace web::server::fake {

// FakePeer: a connection from `address` that keeps what it is sent.
class FakePeer : public Peer {
  public:
    explicit FakePeer(std::string address, std::optional<Person> person = std::nullopt)
        : address_(std::move(address)), person_(std::move(person)) {}
    void send(const std::vector<Json>& messages) override {
        received.insert(received.end(), messages.begin(), messages.end());
    }
    void sendAndClose(const std::vector<Json>& messages) override {
        send(messages);
        closed = true;
    }
    const std::string& address() const override { return address_; }
    std::optional<Person> person() const override { return person_; }

    std::vector<Json> received;
    bool closed = false;

  private:
    std::string address_;
    std::optional<Person> person_;
};

// A connection of a room: its peer and its tab; `say` sends one message and returns what came
// back for it.
struct Conn {
    std::shared_ptr<FakePeer> peer;
    std::shared_ptr<Tab> tab;

    Conn(Room& room, const std::string& address, std::optional<Person> person = std::nullopt)
        : peer(std::make_shared<FakePeer>(address, std::move(person))) {
        tab = room.open(peer);
    }
    std::vector<Json> say(const Json& m) {
        const std::size_t before = peer->received.size();
        tab->onMessage(m.dump());
        return {peer->received.begin() + static_cast<std::ptrdiff_t>(before), peer->received.end()};
    }
    void close() {
        tab.reset();
        peer.reset();
    }
};

}  // namespace web::server::fake
