// One TCP connection before (or without) a WebSocket upgrade: the page's own files, the pages
// the server writes itself (/games), the accounts' endpoints (/api/..., handed to the
// AccountApi, whose answer comes back to be written here), and the upgrade of /ws (Lasca) and
// /ws/torneio to a WebSocketSession of the matching room. Every request must name a host the server
// answers for (421 otherwise) and arrive whole within config.headerSeconds (the connection is
// closed otherwise); an upgrade from a page of another origin gets 403.
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "server_state.h"

namespace web::server {

// HttpSession
//   slot_    this connection's place under the connection limits (handed to the WebSocket
//            session on an upgrade)
class HttpSession : public std::enable_shared_from_this<HttpSession> {
  public:
    // `received`: bytes already read from the connection (after a PROXY protocol header).
    HttpSession(boost::asio::ip::tcp::socket socket, std::shared_ptr<ServerState> state,
                std::unique_ptr<ConnectionLimits::Slot> slot, std::string_view received = {});
    void run() { doRead(); }

  private:
    void doRead();
    void onRead(boost::beast::error_code ec, std::size_t bytes);
    void write(
        std::shared_ptr<boost::beast::http::response<boost::beast::http::string_body>> response);

    boost::beast::tcp_stream stream_;
    std::shared_ptr<ServerState> state_;
    std::unique_ptr<ConnectionLimits::Slot> slot_;
    boost::beast::flat_buffer buffer_;
    std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
};

// The headers every answer carries, WebSocket upgrades included: no other site may frame the
// pages, read them as another type, or learn where a person came from.
template <class Fields>
void addSecurityHeaders(Fields& fields) {
    fields.set(boost::beast::http::field::server, "lasca-web");
    fields.set("X-Content-Type-Options", "nosniff");
    fields.set("X-Frame-Options", "DENY");
    fields.set("Referrer-Policy", "same-origin");
    fields.set("Cross-Origin-Resource-Policy", "same-origin");
    fields.set("Content-Security-Policy",
               "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
               "frame-ancestors 'none'; base-uri 'none'; form-action 'self'");
}

// Writes a short plain-text answer with `status` and closes the connection (used for
// connections refused before any request is read: too many at once).
void refuseConnection(boost::asio::ip::tcp::socket socket, boost::beast::http::status status,
                      const std::string& text);

}  // namespace web::server
