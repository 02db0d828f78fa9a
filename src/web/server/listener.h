// Accepts connections and hands each to an HttpSession under the connection limits: one over
// them, in all or from its address, is answered 503 and closed. When the system itself refuses
// (out of descriptors), the listener waits a moment before accepting again instead of spinning.
// A connection from a trusted front (ServerConfig::trustedProxies) is counted under the client's
// address its PROXY protocol header names, read first.
#pragma once

#include <memory>
#include <utility>  // before Boost.Asio, whose awaitable.hpp uses std::exchange

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>

#include "server_state.h"

namespace web::server {

class Listener : public std::enable_shared_from_this<Listener> {
  public:
    Listener(boost::asio::io_context& io, boost::asio::ip::tcp::acceptor acceptor,
             std::shared_ptr<ServerState> state);
    void run();

  private:
    void onAccept(boost::beast::error_code ec, boost::asio::ip::tcp::socket socket);

    boost::asio::io_context& io_;
    boost::asio::ip::tcp::acceptor acceptor_;
    std::shared_ptr<ServerState> state_;
    boost::asio::steady_timer pause_;
    bool warned_ = false;
};

}  // namespace web::server
