#include "listener.h"

#include "http_session.h"

namespace web::server {

namespace beast = boost::beast;
namespace net = boost::asio;
using tcp = net::ip::tcp;

Listener::Listener(net::io_context& io, tcp::acceptor acceptor, std::shared_ptr<ServerState> state)
    : io_(io), acceptor_(std::move(acceptor)), state_(std::move(state)) {
}

void Listener::run() {
    acceptor_.async_accept(net::make_strand(io_),
                           beast::bind_front_handler(&Listener::onAccept, shared_from_this()));
}

void Listener::onAccept(beast::error_code ec, tcp::socket socket) {
    if (!ec) std::make_shared<HttpSession>(std::move(socket), state_)->run();
    run();
}

}  // namespace web::server
