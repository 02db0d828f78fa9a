// What the server's sessions and rooms say to each other. A WebSocket session only reads, queues
// and writes; a room owns the tables of one kind and the policy that goes with them. When a
// connection opens, its room gives it a Tab (what that connection holds in the room); the session
// hands the tab every message it reads, and the tab answers through the Peer.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace web::server {

using Json = nlohmann::json;

// Person: the signed-in account a connection belongs to (read from its session cookie when the
// WebSocket opened): its id and its name as it was made.
struct Person {
    std::int64_t id = 0;
    std::string name;
};

// Peer: one connection as a room sees it. Called on the server's thread only.
class Peer {
  public:
    virtual ~Peer() = default;
    // Queues the messages, in order, to be written.
    virtual void send(const std::vector<Json>& messages) = 0;
    // Queues one message already written as JSON text (one text shared by many connections,
    // made once for all of them). By default parsed back and queued as a message.
    virtual void sendText(const std::shared_ptr<const std::string>& text) {
        send({Json::parse(*text, nullptr, false)});
    }
    // Queues the messages, then closes the connection once they are written.
    virtual void sendAndClose(const std::vector<Json>& messages) = 0;
    // The address the connection comes from ("127.0.0.1", "::1"): the key of the limits per
    // address (ServerConfig).
    virtual const std::string& address() const = 0;
    // The account whose session cookie the connection brought, or nothing for a guest.
    virtual std::optional<Person> person() const { return std::nullopt; }
};

// Tab: what one connection holds in a room (a table, a seat). It lives as long as its
// connection; the room keeps only weak references to it.
class Tab {
  public:
    virtual ~Tab() = default;
    // One message as the page sent it (text, not yet parsed).
    virtual void onMessage(std::string_view text) = 0;
};

// Room: the tables of one kind. open() is called once a connection's WebSocket handshake is
// accepted: a tab, or nothing when the room refuses the connection (it has told the peer why
// and asked to close).
class Room {
  public:
    virtual ~Room() = default;
    virtual std::shared_ptr<Tab> open(const std::shared_ptr<Peer>& peer) = 0;
};

// Milliseconds since the Unix epoch: the times the store keeps.
inline std::int64_t nowMilliseconds() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace web::server
