// One browser tab's WebSocket: reads messages, limits their rate, hands them to the tab its
// room gave it, and writes the replies in order. Nothing of a game lives here. A tab that sends
// no message for config.idleSeconds is closed (pings do not count), and so is one that lets more
// than config.maxQueuedBytes of replies pile up unread.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "room.h"
#include "web/server/access.h"
#include "web/server/server.h"

namespace web::server {

// WebSocketSession
//   room_    the room that gives this connection its tab once the handshake is accepted
//   tab_     what the connection holds in the room (nothing before the handshake or when refused)
//   slot_    this connection's place under the connection limits; its address is the peer's
//   queue_   messages waiting to be written, oldest first, `queuedBytes_` bytes in all; one
//            async_write at a time
//   idle_    closes the connection when it fires: re-armed by every message read
//   closing_ true once the room asked to close: the queue is written, then the socket closed
//   person_  the signed-in account of the connection (its session cookie at the upgrade), or
//            nothing for a guest
class WebSocketSession : public Peer, public std::enable_shared_from_this<WebSocketSession> {
  public:
    WebSocketSession(boost::asio::ip::tcp::socket socket, std::shared_ptr<Room> room,
                     const ServerConfig& config, std::unique_ptr<ConnectionLimits::Slot> slot,
                     std::optional<Person> person = std::nullopt);
    ~WebSocketSession() override;

    void run(boost::beast::http::request<boost::beast::http::string_body> request);

    void send(const std::vector<Json>& messages) override;
    void sendText(const std::shared_ptr<const std::string>& text) override;
    void sendAndClose(const std::vector<Json>& messages) override;
    const std::string& address() const override;
    std::optional<Person> person() const override { return person_; }

  private:
    void onAccept(boost::beast::error_code ec);
    void doRead();
    void onRead(boost::beast::error_code ec, std::size_t bytes);
    void doWrite();
    void onWrite(boost::beast::error_code ec, std::size_t bytes);
    void armIdle();
    void drop();
    bool enqueue(std::shared_ptr<const std::string> text);

    boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
    std::shared_ptr<Room> room_;
    std::shared_ptr<Tab> tab_;
    std::unique_ptr<ConnectionLimits::Slot> slot_;
    RateLimiter limiter_;
    std::chrono::seconds idleTime_;
    std::size_t maxQueuedBytes_;
    boost::asio::steady_timer idle_;
    boost::beast::flat_buffer buffer_;
    std::deque<std::shared_ptr<const std::string>> queue_;
    std::size_t queuedBytes_ = 0;
    bool writing_ = false;
    bool closing_ = false;
    bool dropped_ = false;
    std::optional<Person> person_;
};

}  // namespace web::server
