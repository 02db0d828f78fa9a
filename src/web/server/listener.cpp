#include "listener.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <string_view>

#include "common/logging.h"
#include "http_session.h"

namespace web::server {

namespace beast = boost::beast;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// How long the listener waits after the system refused a connection (no descriptors left).
constexpr std::chrono::milliseconds kAcceptPause{200};

// A connection from a trusted front under the limits of the address it names, or refused.
void admit(tcp::socket socket, const std::shared_ptr<ServerState>& state, const std::string& key,
           std::string_view received) {
    if (auto slot = state->limits->admit(key)) {
        std::make_shared<HttpSession>(std::move(socket), state, std::move(slot), received)->run();
        return;
    }
    common::logger().debug("web: too many connections ({} from {}); refusing one",
                           state->limits->inAll(), key);
    refuseConnection(std::move(socket), beast::http::status::service_unavailable,
                     "too many connections: try again later");
}

// ProxyHeader: reads the PROXY protocol header a trusted front sends first (within the header
// timeout, at most kMaxProxyLine bytes), then admits the connection under the client's address.
// A connection without a sound header is closed unanswered (the front speaks the protocol).
class ProxyHeader : public std::enable_shared_from_this<ProxyHeader> {
  public:
    ProxyHeader(tcp::socket socket, std::shared_ptr<ServerState> state, std::string frontKey)
        : stream_(std::move(socket)), state_(std::move(state)), frontKey_(std::move(frontKey)) {}

    void run() {
        stream_.expires_after(std::chrono::seconds(state_->config.headerSeconds));
        net::async_read_until(stream_, net::dynamic_buffer(received_, kMaxProxyLine), "\r\n",
                              beast::bind_front_handler(&ProxyHeader::onLine, shared_from_this()));
    }

  private:
    void onLine(beast::error_code ec, std::size_t length) {
        if (ec) return;  // too slow, too long, or gone
        const std::string_view all = received_;
        const auto client = parseProxyLine(all.substr(0, length));
        if (!client) {
            common::logger().debug("web: from the front {}: {}", frontKey_, client.error());
            return;
        }
        stream_.expires_never();
        const auto key = client.value() ? addressKey(*client.value()) : frontKey_;
        admit(stream_.release_socket(), state_, key, all.substr(length));
    }

    beast::tcp_stream stream_;
    std::shared_ptr<ServerState> state_;
    std::string frontKey_;
    std::string received_;  // the header and whatever came after it in the same reads
};

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
    // Every message is written whole at once (Beast gathers a frame's header and payload), so
    // nothing is gained by Nagle's delay, and a push to an idle tab right after another would
    // otherwise wait for the peer's delayed acknowledgement (40 ms on Linux).
    beast::error_code ignored;
    socket.set_option(tcp::no_delay(true), ignored);
    beast::error_code endpointError;
    const auto remote = socket.remote_endpoint(endpointError);
    if (endpointError) return run();  // already gone
    const auto key = addressKey(remote.address());
    const auto& fronts = state_->trustedProxies;
    if (std::find(fronts.begin(), fronts.end(), remote.address()) != fronts.end())
        std::make_shared<ProxyHeader>(std::move(socket), state_, key)->run();
    else
        admit(std::move(socket), state_, key, {});
    run();
}

}  // namespace web::server
