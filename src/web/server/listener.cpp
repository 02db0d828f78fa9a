#include "listener.h"

#include <chrono>

#include "common/logging.h"
#include "http_session.h"

namespace web::server {

namespace beast = boost::beast;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// How long the listener waits after the system refused a connection (no descriptors left).
constexpr std::chrono::milliseconds kAcceptPause{200};

}  // namespace

Listener::Listener(net::io_context& io, tcp::acceptor acceptor, std::shared_ptr<ServerState> state)
    : io_(io), acceptor_(std::move(acceptor)), state_(std::move(state)), pause_(io) {
}

void Listener::run() {
    acceptor_.async_accept(net::make_strand(io_),
                           beast::bind_front_handler(&Listener::onAccept, shared_from_this()));
}

void Listener::onAccept(beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted) return;  // the server stops
    if (ec) {
        // EMFILE, ENFILE, ENOBUFS...: the connection waits in the backlog; accepting again at
        // once would only fail again at full speed.
        if (!warned_) common::logger().warn("web: cannot accept a connection: {}", ec.message());
        warned_ = true;
        pause_.expires_after(kAcceptPause);
        pause_.async_wait([self = shared_from_this()](beast::error_code e) {
            if (!e) self->run();
        });
        return;
    }
    warned_ = false;
    beast::error_code endpointError;
    const auto remote = socket.remote_endpoint(endpointError);
    if (endpointError) return run();  // already gone
    const auto key = addressKey(remote.address());
    if (auto slot = state_->limits->admit(key)) {
        std::make_shared<HttpSession>(std::move(socket), state_, std::move(slot))->run();
    } else {
        common::logger().debug("web: too many connections ({} from {}); refusing one",
                               state_->limits->inAll(), key);
        refuseConnection(std::move(socket), beast::http::status::service_unavailable,
                         "too many connections: try again later");
    }
    run();
}

}  // namespace web::server
