// One TCP connection before (or without) a WebSocket upgrade: the page's static files, the
// pages the server writes itself (/games), and the upgrade of /ws (Lasca) and /ws/torneio to a
// WebSocketSession of the matching room.
#pragma once

#include <memory>
#include <optional>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "server_state.h"

namespace web::server {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
  public:
    HttpSession(boost::asio::ip::tcp::socket socket, std::shared_ptr<ServerState> state);
    void run() { doRead(); }

  private:
    void doRead();
    void onRead(boost::beast::error_code ec, std::size_t bytes);

    boost::beast::tcp_stream stream_;
    std::shared_ptr<ServerState> state_;
    boost::beast::flat_buffer buffer_;
    std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
};

}  // namespace web::server
