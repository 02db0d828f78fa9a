#include "http_session.h"

#include <chrono>
#include <string>
#include <string_view>

#include <boost/beast/websocket.hpp>

#include "web/accounts/accounts.h"
#include "web/pages/games_page.h"
#include "web/pages/player_page.h"
#include "web/store/connection.h"
#include "websocket_session.h"

namespace web::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = boost::asio::ip::tcp;

namespace {

// How long writing one answer may take before the connection is dropped.
constexpr std::chrono::seconds kWriteTimeout{30};
constexpr std::size_t kMaxRequestBody = 8192;

using Response = http::response<http::string_body>;

std::string_view asView(beast::string_view s) {
    return {s.data(), s.size()};
}

// A page's <html lang="en"> as <html lang="<lang>">.
std::string withLanguage(const std::string& page, std::string_view lang) {
    constexpr std::string_view written = "<html lang=\"en\">";
    const auto at = page.find(written);
    if (at == std::string::npos || lang == "en") return page;
    std::string out = page;
    out.replace(at, written.size(), "<html lang=\"" + std::string(lang) + "\">");
    return out;
}

// The body of a GET; a HEAD gets the same headers, its Content-Length included, and no body.
void setBody(Response& response, http::verb method, const std::string& body) {
    if (method == http::verb::head) {
        response.content_length(body.size());
        return;
    }
    response.body() = body;
    response.prepare_payload();
}

std::shared_ptr<Response> answer(const http::request<http::string_body>& request,
                                 http::status status, const std::string& text) {
    auto response = std::make_shared<Response>(status, request.version());
    addSecurityHeaders(*response);
    response->set(http::field::content_type, "text/plain; charset=utf-8");
    response->set(http::field::cache_control, "no-cache");
    response->keep_alive(request.keep_alive());
    setBody(*response, request.method(), text + "\n");
    return response;
}

// GET /health, for a front's checks and an operator: the database answers a round trip, the
// engine pool's counts, and with several instances this one's leases. 200 when the database
// answers and the leases were renewed within their life, else 503.
std::shared_ptr<Response> health(const ServerState& state,
                                 const http::request<http::string_body>& request) {
    const auto ping = state.store->ping();
    bool ok = ping && ping.value();
    nlohmann::json store = {
        {"backend", state.store->backend() == store::Backend::PostgreSQL ? "postgresql" : "sqlite"},
        {"ok", ok}};
    if (!ping) store["error"] = ping.error();
    nlohmann::json home = nullptr;
    if (const auto stats = state.store->homeStats(); !stats.name.empty()) {
        const bool renewed = stats.sinceRenewalMs >= 0 && stats.sinceRenewalMs < stats.ttlMs;
        ok = ok && renewed;
        home = {{"instance", stats.name},
                {"renewed", renewed},
                {"sinceRenewalMs", stats.sinceRenewalMs},
                {"leaseMs", stats.ttlMs},
                {"tables", stats.held},
                {"takeovers", stats.takeovers},
                {"staleWrites", stats.staleWrites}};
    }
    const auto pool = state.engineStats ? state.engineStats() : lasca_tables::PoolStats{};
    const nlohmann::json body = {{"status", ok ? "ok" : "failing"},
                                 {"store", store},
                                 {"home", home},
                                 {"engines",
                                  {{"slots", state.engineSlots},
                                   {"running", pool.workers},
                                   {"busy", pool.busy},
                                   {"queued", pool.queued},
                                   {"served", pool.served},
                                   {"restarts", pool.restarts}}}};
    auto response = answer(request, ok ? http::status::ok : http::status::service_unavailable, "");
    response->set(http::field::content_type, "application/json");
    setBody(*response, request.method(), body.dump() + "\n");
    return response;
}

std::shared_ptr<Response> respond(const ServerState& state,
                                  const http::request<http::string_body>& request) {
    const auto method = request.method();
    if (method != http::verb::get && method != http::verb::head) {
        auto response = answer(request, http::status::method_not_allowed, "method not allowed");
        response->set(http::field::allow, "GET, HEAD");
        return response;
    }
    const std::string_view target = asView(request.target());
    auto response = std::make_shared<Response>(http::status::ok, request.version());
    addSecurityHeaders(*response);
    response->keep_alive(request.keep_alive());
    response->set(http::field::cache_control, "no-cache");
    // The person's language (the lasca_lang cookie, then Accept-Language): what varies with it
    // says so, for caches between.
    const auto lang = i18n::choose(asView(request[http::field::cookie]),
                                   asView(request[http::field::accept_language]));
    const std::string_view path = target.substr(0, target.find_first_of("?#"));
    if (path == "/i18n/messages.js") {
        response->set(http::field::content_type, "text/javascript; charset=utf-8");
        response->set(http::field::vary, "Cookie, Accept-Language");
        setBody(*response, method, state.catalogues.script(lang));
        return response;
    }
    if (path == "/health") return health(state, request);
    const i18n::Translator words(state.catalogues, lang);
    auto games = pages::playerPage(*state.store, target, words);
    if (!games) {
        // The running public Torneio tables are read for /games alone.
        const bool list = (path == "/games" || path == "/games/") && state.torneioToWatch;
        games = pages::gamesPage(
            *state.store, target, words,
            list ? state.torneioToWatch() : std::vector<pages::WatchableTorneio>());
    }
    if (games) {
        response->result(static_cast<http::status>(games->status));
        response->set(http::field::content_type, games->contentType);
        for (const auto& [name, value] : games->headers) response->set(name, value);
        setBody(*response, method, games->body);
    } else if (const auto* file = state.files.find(target)) {
        // A page is sent in the person's language: its <html lang> says which (the words come
        // from /i18n/messages.js), and its tag names the language too.
        const bool page = file->contentType.starts_with("text/html");
        const auto langTag =
            page ? "\"" + std::string(lang) + "-" + file->etag.substr(1) : file->etag;
        // Sent `no-cache`: a browser keeps the file and asks again with its validators; the
        // same file is then answered 304 without a body.
        response->set(http::field::etag, langTag);
        if (page)
            response->set(http::field::vary, "Cookie, Accept-Language");
        else
            response->set(http::field::last_modified, file->lastModified);
        if (notModified(langTag, page ? std::nullopt : std::optional(file->modified),
                        asView(request[http::field::if_none_match]),
                        asView(request[http::field::if_modified_since]))) {
            // No Content-Length: a 304 may only repeat the whole file's, and needs none.
            response->result(http::status::not_modified);
            return response;
        }
        response->set(http::field::content_type, file->contentType);
        setBody(*response, method, page ? withLanguage(file->body, lang) : file->body);
    } else {
        return answer(request, http::status::not_found, "not found");
    }
    return response;
}

// The signed-in account of a Cookie header (its lasca_session token, a session of the store that
// has not expired); nothing for a guest, an unknown or stale token, or a store that fails.
std::optional<Person> personOf(store::Store& store, std::string_view cookies) {
    const auto token = accounts::tokenFromCookies(cookies);
    if (!token) return std::nullopt;
    const auto account = store.findSession(accounts::tokenHash(*token), nowMilliseconds());
    if (!account || !account.value()) return std::nullopt;
    return Person{account.value()->id, account.value()->name};
}

}  // namespace

void refuseConnection(tcp::socket socket, http::status status, const std::string& text) {
    struct Refusal {
        beast::tcp_stream stream;
        http::response<http::string_body> response;
    };
    auto refusal = std::make_shared<Refusal>(Refusal{beast::tcp_stream(std::move(socket)), {}});
    auto& response = refusal->response;
    response.result(status);
    response.version(11);
    addSecurityHeaders(response);
    response.set(http::field::content_type, "text/plain; charset=utf-8");
    response.set(http::field::retry_after, "10");
    response.keep_alive(false);
    response.body() = text + "\n";
    response.prepare_payload();
    refusal->stream.expires_after(std::chrono::seconds(5));
    http::async_write(refusal->stream, refusal->response,
                      [refusal](beast::error_code, std::size_t) {
                          beast::error_code ignored;
                          refusal->stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
                          refusal->stream.close();
                      });
}

HttpSession::HttpSession(tcp::socket socket, std::shared_ptr<ServerState> state,
                         std::unique_ptr<ConnectionLimits::Slot> slot, std::string_view received)
    : stream_(std::move(socket)), state_(std::move(state)), slot_(std::move(slot)) {
    buffer_.commit(
        boost::asio::buffer_copy(buffer_.prepare(received.size()), boost::asio::buffer(received)));
}

void HttpSession::doRead() {
    parser_.emplace();
    parser_->header_limit(8192);
    parser_->body_limit(kMaxRequestBody);
    // The deadline covers the wait for the next request on a kept-alive connection too.
    stream_.expires_after(std::chrono::seconds(state_->config.headerSeconds));
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&HttpSession::onRead, shared_from_this()));
}

void HttpSession::onRead(beast::error_code ec, std::size_t) {
    if (ec) return;  // closed, too slow, or not HTTP: the connection goes
    auto request = parser_->release();
    if (!state_->hosts.hostAllowed(asView(request[http::field::host]))) {
        auto response = answer(request, http::status::misdirected_request,
                               "this server does not answer for that host name");
        response->keep_alive(false);
        return write(response);
    }
    if (AccountApi::handles(asView(request.target())) && !websocket::is_upgrade(request)) {
        // Answered from the accounts' own threads; the answer is written on this connection's
        // strand.
        state_->accounts->handle(std::move(request), slot_->address(),
                                 [self = shared_from_this()](std::shared_ptr<Response> response) {
                                     boost::asio::post(self->stream_.get_executor(),
                                                       [self, response] { self->write(response); });
                                 });
        return;
    }
    if (websocket::is_upgrade(request)) {
        // The query (?home=NAME: the front's routing, web/ui.js) is the front's, not the room's.
        const std::string_view target = asView(request.target());
        const std::string_view path = target.substr(0, target.find('?'));
        const auto room = path == "/ws"           ? state_->lasca
                          : path == "/ws/torneio" ? state_->torneio
                          : path == "/ws/lobby"   ? state_->lobby
                                                  : nullptr;
        if (!room) return write(answer(request, http::status::not_found, "not found"));
        if (!state_->hosts.originAllowed(asView(request[http::field::origin]))) {
            auto response =
                answer(request, http::status::forbidden, "WebSocket from another origin refused");
            response->keep_alive(false);
            return write(response);
        }
        stream_.expires_never();
        auto person = personOf(*state_->store, asView(request[http::field::cookie]));
        std::make_shared<WebSocketSession>(stream_.release_socket(), room, state_->config,
                                           std::move(slot_), std::move(person))
            ->run(std::move(request));
        return;
    }
    write(respond(*state_, request));
}

void HttpSession::write(std::shared_ptr<http::response<http::string_body>> response) {
    stream_.expires_after(kWriteTimeout);
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
