#include "websocket_session.h"

#include <chrono>

#include "common/logging.h"
#include "web/messages/messages.h"

namespace web::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// The longest WebSocket frame read; longer messages than kMaxMessageBytes still get an error
// reply, longer frames than this close the connection.
constexpr std::size_t kMaxFrameBytes = 1 << 20;
constexpr std::size_t kMaxQueuedMessages = 2000;  // a tab that reads nothing is disconnected

double secondsNow() {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

std::string dumpJson(const Json& j) {
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace

WebSocketSession::WebSocketSession(tcp::socket socket, std::shared_ptr<Room> room,
                                   const ServerConfig& config)
    : ws_(std::move(socket)),
      room_(std::move(room)),
      limiter_(config.messagesPerSecond, config.burst) {
}

WebSocketSession::~WebSocketSession() {
    tab_.reset();  // a table's engine stops before the connection goes
}

void WebSocketSession::run(http::request<http::string_body> request) {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(kMaxFrameBytes);
    ws_.async_accept(request,
                     beast::bind_front_handler(&WebSocketSession::onAccept, shared_from_this()));
}

void WebSocketSession::onAccept(beast::error_code ec) {
    if (ec) return;
    tab_ = room_->open(shared_from_this());
    if (tab_) doRead();
}

void WebSocketSession::doRead() {
    ws_.async_read(buffer_,
                   beast::bind_front_handler(&WebSocketSession::onRead, shared_from_this()));
}

void WebSocketSession::onRead(beast::error_code ec, std::size_t) {
    if (ec) return;  // closed: the session ends when the last handler lets go of it
    std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    if (!limiter_.allow(secondsNow()))
        send({messages::errorMessage("too many messages: slow down")});
    else
        tab_->onMessage(text);
    doRead();
}

void WebSocketSession::send(const std::vector<Json>& messages) {
    for (const auto& m : messages) {
        if (queue_.size() >= kMaxQueuedMessages) {
            common::logger().warn("web: a tab reads too slowly; closing it");
            beast::get_lowest_layer(ws_).close();
            return;
        }
        queue_.push_back(dumpJson(m));
    }
    if (!writing_ && !queue_.empty()) doWrite();
}

void WebSocketSession::sendAndClose(const std::vector<Json>& messages) {
    closing_ = true;
    send(messages);
}

void WebSocketSession::doWrite() {
    writing_ = true;
    ws_.text(true);
    ws_.async_write(net::buffer(queue_.front()),
                    beast::bind_front_handler(&WebSocketSession::onWrite, shared_from_this()));
}

void WebSocketSession::onWrite(beast::error_code ec, std::size_t) {
    writing_ = false;
    if (ec) return;
    queue_.pop_front();
    if (!queue_.empty()) {
        doWrite();
    } else if (closing_) {
        ws_.async_close(websocket::close_code::try_again_later,
                        [self = shared_from_this()](beast::error_code) {});
    }
}

}  // namespace web::server
