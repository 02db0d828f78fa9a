#include "websocket_session.h"

#include <chrono>

#include "common/logging.h"
#include "http_session.h"
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
                                   const ServerConfig& config,
                                   std::unique_ptr<ConnectionLimits::Slot> slot,
                                   std::optional<Person> person)
    : ws_(std::move(socket)),
      room_(std::move(room)),
      slot_(std::move(slot)),
      limiter_(config.messagesPerSecond, config.burst),
      idleTime_(config.idleSeconds),
      maxQueuedBytes_(config.maxQueuedBytes),
      idle_(ws_.get_executor()),
      person_(std::move(person)) {
}

WebSocketSession::~WebSocketSession() {
    tab_.reset();  // a table's engine stops before the connection goes
}

const std::string& WebSocketSession::address() const {
    return slot_->address();
}

void WebSocketSession::run(http::request<http::string_body> request) {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& response) { addSecurityHeaders(response); }));
    ws_.read_message_max(kMaxFrameBytes);
    ws_.async_accept(request,
                     beast::bind_front_handler(&WebSocketSession::onAccept, shared_from_this()));
}

void WebSocketSession::onAccept(beast::error_code ec) {
    if (ec) return;
    tab_ = room_->open(shared_from_this());
    if (!tab_) return;
    armIdle();
    doRead();
}

// The idle deadline: the handler holds no owner of the session, so a closed one goes at once.
void WebSocketSession::armIdle() {
    idle_.expires_after(idleTime_);
    idle_.async_wait([weak = weak_from_this()](beast::error_code ec) {
        auto self = weak.lock();
        if (ec || !self) return;
        common::logger().info("web: a tab from {} sent nothing for {} s; closing it",
                              self->address(), self->idleTime_.count());
        self->drop();
    });
}

// Closes the socket at once (nothing more is written): a tab too slow to read, or idle.
void WebSocketSession::drop() {
    if (dropped_) return;
    dropped_ = true;
    idle_.cancel();
    if (!writing_) {  // else the write in flight still reads the front message
        queue_.clear();
        queuedBytes_ = 0;
    }
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ignored);
    beast::get_lowest_layer(ws_).close();
}

void WebSocketSession::doRead() {
    ws_.async_read(buffer_,
                   beast::bind_front_handler(&WebSocketSession::onRead, shared_from_this()));
}

void WebSocketSession::onRead(beast::error_code ec, std::size_t) {
    if (ec) {  // closed: the session ends when the last handler lets go of it
        idle_.cancel();
        return;
    }
    armIdle();
    std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    if (!limiter_.allow(secondsNow()))
        send({messages::errorMessage(messages::Say{"server.error.tooManyMessages"})});
    else
        tab_->onMessage(text);
    if (!dropped_) doRead();
}

// Queues one text; false (and the connection dropped) when the tab reads too slowly.
bool WebSocketSession::enqueue(std::shared_ptr<const std::string> text) {
    if (queue_.size() >= kMaxQueuedMessages || queuedBytes_ + text->size() > maxQueuedBytes_) {
        common::logger().warn(
            "web: a tab from {} reads too slowly ({} bytes waiting); "
            "closing it",
            address(), queuedBytes_);
        drop();
        return false;
    }
    queuedBytes_ += text->size();
    queue_.push_back(std::move(text));
    return true;
}

void WebSocketSession::send(const std::vector<Json>& messages) {
    if (dropped_) return;
    for (const auto& m : messages)
        if (!enqueue(std::make_shared<const std::string>(dumpJson(m)))) return;
    if (!writing_ && !queue_.empty()) doWrite();
}

void WebSocketSession::sendText(const std::shared_ptr<const std::string>& text) {
    if (dropped_ || !enqueue(text)) return;
    if (!writing_) doWrite();
}

void WebSocketSession::sendAndClose(const std::vector<Json>& messages) {
    closing_ = true;
    send(messages);
}

void WebSocketSession::doWrite() {
    writing_ = true;
    ws_.text(true);
    ws_.async_write(net::buffer(*queue_.front()),
                    beast::bind_front_handler(&WebSocketSession::onWrite, shared_from_this()));
}

void WebSocketSession::onWrite(beast::error_code ec, std::size_t) {
    writing_ = false;
    if (ec || dropped_) {
        queue_.clear();
        queuedBytes_ = 0;
        return;
    }
    queuedBytes_ -= queue_.front()->size();
    queue_.pop_front();
    if (!queue_.empty()) {
        doWrite();
    } else if (closing_) {
        idle_.cancel();
        ws_.async_close(websocket::close_code::try_again_later,
                        [self = shared_from_this()](beast::error_code) {});
    }
}

}  // namespace web::server
