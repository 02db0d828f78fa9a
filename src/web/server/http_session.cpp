#include "http_session.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include <boost/beast/websocket.hpp>

#include "web/pages/games_page.h"
#include "websocket_session.h"

namespace web::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = boost::asio::ip::tcp;

namespace {

constexpr std::chrono::seconds kHttpTimeout{30};

std::string contentType(const std::filesystem::path& path) {
    const auto ext = path.extension().string();
    if (ext == ".html") return "text/html; charset=utf-8";
    if (ext == ".css") return "text/css; charset=utf-8";
    if (ext == ".js") return "text/javascript; charset=utf-8";
    if (ext == ".svg") return "image/svg+xml";
    if (ext == ".png") return "image/png";
    if (ext == ".ico") return "image/x-icon";
    return "application/octet-stream";
}

// The file a request target names under the static folder, or nothing: only letters, digits,
// '-', '_', '.' and '/' in the path, no "..", no hidden files.
std::optional<std::filesystem::path> staticFile(const std::string& dir, std::string_view target) {
    const auto query = target.find('?');
    if (query != std::string_view::npos) target = target.substr(0, query);
    if (target == "/") target = "/index.html";
    if (target == "/torneio") target = "/torneio.html";
    if (target.empty() || target[0] != '/' || target.find("..") != std::string_view::npos ||
        target.find("/.") != std::string_view::npos || target.size() > 200)
        return std::nullopt;
    for (const char c : target)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.' &&
            c != '/')
            return std::nullopt;
    std::filesystem::path path = std::filesystem::path(dir) / std::string(target.substr(1));
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
    return path;
}

http::response<http::string_body> respond(const ServerState& state,
                                          const http::request<http::string_body>& request) {
    http::response<http::string_body> response;
    response.version(request.version());
    response.keep_alive(request.keep_alive());
    response.set(http::field::server, "lasca-web");
    response.set(http::field::cache_control, "no-cache");
    response.set("X-Content-Type-Options", "nosniff");
    const bool reading =
        request.method() == http::verb::get || request.method() == http::verb::head;
    const std::string_view target(request.target().data(), request.target().size());
    if (const auto games = reading ? pages::gamesPage(*state.store, target) : std::nullopt) {
        response.result(static_cast<http::status>(games->status));
        response.set(http::field::content_type, games->contentType);
        response.set("Content-Security-Policy", "default-src 'self'");
        if (request.method() == http::verb::get) response.body() = games->body;
        response.prepare_payload();
        return response;
    }
    const auto path = reading ? staticFile(state.config.staticDir, target) : std::nullopt;
    if (!path) {
        response.result(http::status::not_found);
        response.set(http::field::content_type, "text/plain");
        response.body() = "not found\n";
    } else {
        std::ifstream in(*path, std::ios::binary);
        std::ostringstream body;
        body << in.rdbuf();
        response.result(http::status::ok);
        response.set(http::field::content_type, contentType(*path));
        response.set("Content-Security-Policy",
                     "default-src 'self'; connect-src 'self'; img-src 'self' data:");
        if (request.method() == http::verb::get) response.body() = body.str();
    }
    response.prepare_payload();
    return response;
}

// A WebSocket upgrade is accepted only from the page itself: an Origin header, when there is one,
// must name the host the request was sent to (no other site may drive a local server).
bool sameOrigin(const http::request<http::string_body>& request) {
    const auto origin = request[http::field::origin];
    if (origin.empty()) return true;
    const std::string expected = "http://" + std::string(request[http::field::host]);
    return origin == expected;
}

}  // namespace

HttpSession::HttpSession(tcp::socket socket, std::shared_ptr<ServerState> state)
    : stream_(std::move(socket)), state_(std::move(state)) {
}

void HttpSession::doRead() {
    parser_.emplace();
    parser_->body_limit(8192);
    stream_.expires_after(kHttpTimeout);
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&HttpSession::onRead, shared_from_this()));
}

void HttpSession::onRead(beast::error_code ec, std::size_t) {
    if (ec) return;
    auto request = parser_->release();
    if (websocket::is_upgrade(request)) {
        const bool torneio = request.target() == "/ws/torneio";
        if ((request.target() != "/ws" && !torneio) || !sameOrigin(request)) return;
        stream_.expires_never();
        std::make_shared<WebSocketSession>(
            stream_.release_socket(), torneio ? state_->torneio : state_->lasca, state_->config)
            ->run(std::move(request));
        return;
    }
    auto response = std::make_shared<http::response<http::string_body>>(respond(*state_, request));
    http::async_write(stream_, *response,
                      [self = shared_from_this(), response](beast::error_code e, std::size_t) {
                          if (e || !response->keep_alive()) {
                              beast::error_code ignored;
                              self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
                              return;
                          }
                          self->doRead();
                      });
}

}  // namespace web::server
