// The real lasca-web for the server tests: started as a child process on a database file (its
// port read from its first line), and a tab as a WebSocket speaking JSON. The test's program
// defines LASCA_WEB and LASCA_ENGINE.
#pragma once

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/process.h"

namespace web::server::test {

namespace net = boost::asio;
namespace websocket = boost::beast::websocket;
using Json = nlohmann::json;
using tcp = net::ip::tcp;

constexpr auto kHangGuard = std::chrono::seconds(20);  // a hang guard, not a speed limit
// How long a tab waits for a message before the test fails: a hang guard for sanitizer builds
// on a busy machine, not a speed limit.
constexpr auto kReadGuard = std::chrono::seconds(120);

// The server as a child process on a database file; its port read from its first line.
struct Server {
    std::unique_ptr<common::ChildProcess> process;
    std::string port;

    // fileBlocks > 0: the server may write files of at most that many 512-byte blocks (a full
    // disk, as far as the server can tell: writes beyond it fail with EFBIG).
    // extra: more arguments for lasca-web.
    static std::optional<Server> start(const std::string& db, int fileBlocks = 0,
                                       const std::vector<std::string>& extra = {}) {
        std::vector<std::string> args = {"--port",   "0",          "--db",        db,
                                         "--engine", LASCA_ENGINE, "--log-level", "off"};
        args.insert(args.end(), extra.begin(), extra.end());
        std::string program = LASCA_WEB;
        if (fileBlocks > 0) {
            args.insert(args.begin(), {"-c",
                                       "ulimit -f " + std::to_string(fileBlocks) +
                                           " && trap '' XFSZ && exec \"$0\" \"$@\"",
                                       LASCA_WEB});
            program = "/bin/sh";
        }
        auto started = common::ChildProcess::start(program, args, "");
        if (!started) return std::nullopt;
        Server server{std::move(started).value(), ""};
        std::string line;
        if (server.process->readLine(line, common::SteadyClock::now() + kHangGuard) !=
            common::ReadStatus::Line)
            return std::nullopt;
        std::smatch found;
        if (!std::regex_search(line, found, std::regex(":([0-9]+)/"))) return std::nullopt;
        server.port = found[1];
        return server;
    }
};

// One tab: a WebSocket to the server, JSON messages. `from`: the loopback address the tab
// connects from ("127.0.0.2", ...; "" for the system's choice), so that one test plays several
// addresses against the server's limits per address. `session`: a session token sent as the
// lasca_session cookie of the upgrade ("" for none: a guest).
class Tab {
  public:
    explicit Tab(const std::string& port, const std::string& path = "/ws",
                 const std::string& from = "", const std::string& session = "")
        : ws_(io_) {
        if (!session.empty())
            ws_.set_option(
                websocket::stream_base::decorator([session](websocket::request_type& request) {
                    request.set(boost::beast::http::field::cookie,
                                "theme=dark; lasca_session=" + session);
                }));
        tcp::resolver resolver(io_);
        const auto endpoints = resolver.resolve("127.0.0.1", port);
        if (!from.empty()) {
            ws_.next_layer().open(tcp::v4());
            ws_.next_layer().bind(tcp::endpoint(net::ip::make_address(from), 0));
            ws_.next_layer().connect(*endpoints.begin());
        } else {
            net::connect(ws_.next_layer(), endpoints);
        }
        ws_.handshake("127.0.0.1:" + port, path);
    }
    void send(const Json& m) { ws_.write(net::buffer(m.dump())); }
    void sendText(const std::string& text) { ws_.write(net::buffer(text)); }
    // The next message; throws std::runtime_error when none comes within kReadGuard (a test
    // waiting for a reply the server never sends fails instead of hanging).
    Json read() {
        boost::beast::flat_buffer buffer;
        std::optional<boost::system::error_code> done;
        ws_.async_read(buffer, [&](boost::system::error_code ec, std::size_t) { done = ec; });
        io_.restart();
        io_.run_for(kReadGuard);
        if (!done) {
            boost::system::error_code ignored;
            ws_.next_layer().cancel(ignored);
            io_.restart();
            io_.run();  // lets the cancelled read finish
            throw std::runtime_error("no message from the server within " +
                                     std::to_string(kReadGuard.count()) + " s");
        }
        if (*done) throw boost::system::system_error(*done);
        return Json::parse(boost::beast::buffers_to_string(buffer.data()));
    }
    // Reads until a `state` message (errors before it are returned in `errors`; without
    // `errors`, they are named in the exception a missing state throws).
    Json readState(std::vector<std::string>* errors = nullptr) {
        std::vector<std::string> seen;
        for (;;) {
            Json m;
            try {
                m = read();
            } catch (const std::runtime_error& e) {
                std::string text = e.what();
                for (const auto& error : seen) text += "; after the error '" + error + "'";
                throw std::runtime_error(text);
            }
            if (m["type"] == "state") return m;
            if (m["type"] == "error") (errors ? *errors : seen).push_back(m["message"]);
        }
    }

  private:
    net::io_context io_;
    websocket::stream<tcp::socket> ws_;
};

// A two-person table as `lasca.created` gives it: its id and the three links' tokens.
struct CreatedTable {
    std::string id, white, black, watch;
};

// `lasca.create` with `clock` (null: none) from `creator`, a tab just opened (its first state is
// read here); nothing, and the unexpected message in `*unexpected`, when the answer is not
// `lasca.created`.
inline std::optional<CreatedTable> createTable(Tab& creator, const Json& clock,
                                               std::string* unexpected = nullptr) {
    creator.readState();
    creator.send({{"type", "lasca.create"}, {"clock", clock}});
    Json created;
    do created = creator.read();
    while (created.value("type", "") == "state");
    if (created.value("type", "") != "lasca.created") {
        if (unexpected) *unexpected = created.dump();
        return std::nullopt;
    }
    return CreatedTable{created["table"], created["seats"][0]["token"],
                        created["seats"][1]["token"], created["watch"]};
}

// ---- HTTP requests (the accounts' endpoints, the pages) --------------------------------------

// A guard for one answer: generous (a busy machine hashing passwords), not a measure.
constexpr auto kAnswerGuard = std::chrono::seconds(60);

// An answer: its status (0 when none came), body, and the headers the tests read.
struct Reply {
    int status = 0;
    std::string text;                     // the body as it came
    Json body;                            // the body as JSON (discarded when it is not JSON)
    std::string setCookie;                // the first Set-Cookie
    std::vector<std::string> setCookies;  // every Set-Cookie, in order
    std::string retryAfter;
    std::string contentType;
    std::string disposition;
    std::string cacheControl;
    std::string allow;
    // The token the Set-Cookie keeps ("" when none, or when it ends the session).
    std::string token() const {
        const std::string prefix = "lasca_session=";
        if (setCookie.rfind(prefix, 0) != 0) return "";
        return setCookie.substr(prefix.size(), setCookie.find(';') - prefix.size());
    }
};

// What a request carries beside its method, path and body.
struct Sent {
    std::string origin = "own";  // "own": the server's own origin; "": none
    std::string cookie;          // a token ("": no Cookie header)
    std::string from = "127.0.0.1";
    std::string cookieHeader = "";  // a whole Cookie header as it is (instead of `cookie`)
};

// One request on a new connection; status 0 when no answer came.
inline Reply exchange(const std::string& port, boost::beast::http::verb method,
                      const std::string& target, const std::string& body, const Sent& sent = {}) {
    namespace beast = boost::beast;
    namespace http = beast::http;
    net::io_context io;
    tcp::socket socket(io);
    socket.open(tcp::v4());
    socket.bind(tcp::endpoint(net::ip::make_address(sent.from), 0));
    socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"),
                                 static_cast<std::uint16_t>(std::stoi(port))));
    http::request<http::string_body> request{method, target, 11};
    request.set(http::field::host, "127.0.0.1:" + port);
    if (sent.origin == "own")
        request.set(http::field::origin, "http://127.0.0.1:" + port);
    else if (!sent.origin.empty())
        request.set(http::field::origin, sent.origin);
    if (!sent.cookieHeader.empty())
        request.set(http::field::cookie, sent.cookieHeader);
    else if (!sent.cookie.empty())
        request.set(http::field::cookie, "theme=dark; lasca_session=" + sent.cookie);
    request.set(http::field::content_type, "application/json");
    request.keep_alive(false);
    request.body() = body;
    request.prepare_payload();
    Reply reply;
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 << 20);
    std::optional<beast::error_code> done;
    http::async_write(socket, request, [&](beast::error_code e, std::size_t) {
        if (e) {
            done = e;
            return;
        }
        http::async_read(socket, buffer, parser,
                         [&](beast::error_code e2, std::size_t) { done = e2; });
    });
    io.run_for(kAnswerGuard);
    if (!done || *done) return reply;
    response = parser.release();
    reply.status = static_cast<int>(response.result_int());
    reply.text = response.body();
    reply.body = Json::parse(reply.text, nullptr, false);
    const auto header = [&](http::field field) {
        const auto it = response.find(field);
        return it == response.end() ? std::string() : std::string(it->value());
    };
    reply.setCookie = header(http::field::set_cookie);
    const auto [first, last] = response.equal_range(http::field::set_cookie);
    for (auto field = first; field != last; ++field) reply.setCookies.emplace_back(field->value());
    reply.retryAfter = header(http::field::retry_after);
    reply.contentType = header(http::field::content_type);
    reply.disposition = header(http::field::content_disposition);
    reply.cacheControl = header(http::field::cache_control);
    reply.allow = header(http::field::allow);
    return reply;
}

inline Reply post(const std::string& port, const std::string& target, const Json& body,
                  const Sent& sent = {}) {
    return exchange(port, boost::beast::http::verb::post, target, body.dump(), sent);
}

inline Reply get(const std::string& port, const std::string& target, const Sent& sent = {}) {
    return exchange(port, boost::beast::http::verb::get, target, "", sent);
}

// Signs up `name` (password "correct horse") from `from`; its session token ("" when refused).
inline std::string signUp(const std::string& port, const std::string& name,
                          const std::string& from = "127.0.0.1") {
    Sent sent;
    sent.from = from;
    return post(port, "/api/signup", {{"name", name}, {"password", "correct horse"}}, sent).token();
}

}  // namespace web::server::test
