// The attacks of issue 52 against the real lasca-web, each with a small limit set on the command
// line so that it is reached by count in seconds: files of the machine asked for by path, a
// foreign Host and Origin (DNS rebinding), held and half-sent connections, a low descriptor
// limit, silent connections, a tab that never reads; and the headers every answer carries.
// Beside them, the page's files' validators (ETag, Last-Modified, 304) and HEAD's length.
// Clients come from several loopback addresses (127.0.0.x) to tell the limits per address from
// the limits in all.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <array>
#include <boost/beast/http.hpp>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "live_server.h"
#include "test_directory.h"

namespace web::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using common::test::testDirectory;
using test::Json;
using test::kHangGuard;
using test::Server;

// A guard for a connection the server is expected to close or answer: generous, so that a busy
// machine cannot fail it, and shorter than the 30 s deadlines the server had before.
constexpr auto kCloseGuard = std::chrono::seconds(15);

// A TCP connection to the server from `source` (a loopback address); `receiveBuffer` > 0 sets
// a small receive buffer before connecting (a client that reads slowly).
std::unique_ptr<tcp::socket> connectFrom(net::io_context& io, const std::string& port,
                                         const std::string& source = "127.0.0.1",
                                         int receiveBuffer = 0) {
    auto socket = std::make_unique<tcp::socket>(io);
    socket->open(tcp::v4());
    if (receiveBuffer > 0) socket->set_option(net::socket_base::receive_buffer_size(receiveBuffer));
    socket->bind(tcp::endpoint(net::ip::make_address(source), 0));
    socket->connect(tcp::endpoint(net::ip::make_address("127.0.0.1"),
                                  static_cast<std::uint16_t>(std::stoi(port))));
    return socket;
}

struct Reply {
    int status = 0;
    http::response<http::string_body> message;
    std::string header(const std::string& name) const {
        const auto it = message.find(name);
        return it == message.end() ? std::string() : std::string(it->value());
    }
};

// Sends `text` (a whole request, as bytes) on `socket` and reads one reply; status 0 when the
// server closed the connection or said nothing within kCloseGuard.
Reply exchange(net::io_context& io, tcp::socket& socket, const std::string& text,
               bool head = false) {
    Reply reply;
    beast::error_code ec;
    net::write(socket, net::buffer(text), ec);
    if (ec) return reply;
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 << 20);
    parser.skip(head);  // the answer to HEAD has a length but no body
    std::optional<beast::error_code> done;
    http::async_read(socket, buffer, parser, [&](beast::error_code e, std::size_t) { done = e; });
    io.restart();
    io.run_for(kCloseGuard);
    if (!done) {
        socket.cancel(ec);
        io.restart();
        io.run();
        return reply;
    }
    if (*done) return reply;
    reply.message = parser.release();
    reply.status = static_cast<int>(reply.message.result_int());
    return reply;
}

// One request on a new connection from `source`, with these extra header lines.
Reply request(const std::string& port, const std::string& method, const std::string& target,
              const std::string& host, const std::vector<std::string>& headers = {},
              const std::string& source = "127.0.0.1") {
    net::io_context io;
    auto socket = connectFrom(io, port, source);
    std::string text = method + " " + target + " HTTP/1.1\r\n";
    if (!host.empty()) text += "Host: " + host + "\r\n";
    bool connection = false;
    for (const auto& h : headers) {
        text += h + "\r\n";
        connection = connection || h.rfind("Connection:", 0) == 0;
    }
    text += connection ? "\r\n" : "Connection: close\r\n\r\n";
    return exchange(io, *socket, text, method == "HEAD");
}

Reply get(const std::string& port, const std::string& target,
          const std::string& source = "127.0.0.1") {
    return request(port, "GET", target, "127.0.0.1:" + port, {}, source);
}

// A WebSocket upgrade request's extra headers.
std::vector<std::string> upgrade(const std::string& origin = "") {
    std::vector<std::string> h = {
        "Upgrade: websocket", "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"};
    if (!origin.empty()) h.push_back("Origin: " + origin);
    return h;
}

// A WebSocket to `path` from `source`, held open (its socket, once the server said 101), or
// nullptr when the server refused it.
std::unique_ptr<tcp::socket> holdWebSocket(net::io_context& io, const std::string& port,
                                           const std::string& path, const std::string& source) {
    auto socket = connectFrom(io, port, source);
    std::string text = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n";
    for (const auto& h : upgrade()) text += h + "\r\n";
    if (exchange(io, *socket, text + "\r\n").status != 101) return nullptr;
    return socket;
}

// True when the server closes `socket` (or resets it) within kCloseGuard.
bool closedBy(net::io_context& io, tcp::socket& socket) {
    std::array<char, 4096> data{};
    std::optional<beast::error_code> done;
    std::function<void()> readMore = [&] {
        socket.async_read_some(net::buffer(data), [&](beast::error_code e, std::size_t) {
            if (e)
                done = e;
            else
                readMore();
        });
    };
    readMore();
    io.restart();
    io.run_for(kCloseGuard);
    if (!done) {
        beast::error_code ignored;
        socket.cancel(ignored);
        io.restart();
        io.run();
        return false;
    }
    return true;
}

// The status of `GET /` from `source`, asked until it is 200 or kHangGuard passes: the server
// notices closed connections as it reads them, a moment after the client closed them.
int servedAgain(const std::string& port, const std::string& source) {
    int status = 0;
    const auto until = std::chrono::steady_clock::now() + kHangGuard;
    while (status != 200 && std::chrono::steady_clock::now() < until) {
        status = get(port, "/", source).status;
        if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return status;
}

std::string database() {
    return (testDirectory() / "web.db").string();
}

// A request that waits for its end: the head not finished.
std::string halfRequest(const std::string& port) {
    return "GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n";
}

TEST(Attacks, NoFileOfTheMachineIsServed) {
    const auto db = database();
    auto server = Server::start(db);
    ASSERT_TRUE(server);
    const auto& port = server->port;
    for (const std::string& target : std::vector<std::string>{
             "//etc/passwd", "//etc/shadow", "//etc/hostname", "//proc/self/environ",
             "///proc/self/cmdline", "/" + db, "/../../../../etc/passwd",
             "/%2e%2e/%2e%2e/etc/passwd", "//" + std::string(LASCA_WEB), "/.git/config",
             "/CMakeLists.txt"}) {
        const auto reply = get(port, target);
        EXPECT_EQ(reply.status, 404) << target;
        EXPECT_EQ(reply.message.body().find("root:"), std::string::npos) << target;
    }
    const auto page = get(port, "/");
    EXPECT_EQ(page.status, 200);
    EXPECT_NE(page.message.body().find("<html"), std::string::npos);
    EXPECT_EQ(get(port, "/torneio").status, 200);
    EXPECT_EQ(get(port, "/lasca.js").header("Content-Type"), "text/javascript; charset=utf-8");
    const auto head = request(port, "HEAD", "/lasca.js", "127.0.0.1:" + port);
    EXPECT_EQ(head.status, 200);
    EXPECT_GT(std::stoul(head.header("Content-Length")), 1000u);
    EXPECT_EQ(request(port, "POST", "/", "127.0.0.1:" + port).status, 405);
}

// Every byte the server sends for one request (Connection: close) on a new connection, until it
// closes it (or kCloseGuard passes).
std::string rawReply(const std::string& port, const std::string& text) {
    net::io_context io;
    auto socket = connectFrom(io, port);
    beast::error_code ec;
    net::write(*socket, net::buffer(text), ec);
    std::string received;
    std::array<char, 4096> data{};
    std::function<void()> readMore = [&] {
        socket->async_read_some(net::buffer(data), [&](beast::error_code e, std::size_t n) {
            received.append(data.data(), n);
            if (!e) readMore();
        });
    };
    readMore();
    io.run_for(kCloseGuard);
    return received;
}

// The page's files are sent `no-cache` with their validators: a browser that holds a file asks
// with them and gets 304 without a body; HEAD tells the length and the tag a GET has.
TEST(Files, AFileTheBrowserHoldsIsAnswered304AndHeadTellsItsLength) {
    auto server = Server::start(database());
    ASSERT_TRUE(server);
    const auto& port = server->port;
    const std::string host = "127.0.0.1:" + port;
    const auto full = get(port, "/app.css");
    ASSERT_EQ(full.status, 200);
    const std::string tag = full.header("ETag"), time = full.header("Last-Modified");
    const std::string length = std::to_string(full.message.body().size());
    EXPECT_GT(full.message.body().size(), 1000u);
    EXPECT_EQ(full.header("Content-Length"), length);
    EXPECT_EQ(full.header("Cache-Control"), "no-cache");
    EXPECT_EQ(tag.size(), 66u) << tag;
    EXPECT_TRUE(time.ends_with(" GMT")) << time;
    EXPECT_NE(get(port, "/lasca.js").header("ETag"), tag);

    // HEAD: the same headers, the real length, no body (the server closes after the head).
    const std::string head =
        rawReply(port, "HEAD /app.css HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
    const auto end = head.find("\r\n\r\n");
    ASSERT_NE(end, std::string::npos) << head;
    EXPECT_EQ(head.substr(end + 4), "") << "HEAD sent a body";
    EXPECT_TRUE(head.starts_with("HTTP/1.1 200 ")) << head;
    for (const std::string& field :
         std::vector<std::string>{"Content-Length: " + length, "ETag: " + tag,
                                  "Last-Modified: " + time, "Content-Type: text/css"})
        EXPECT_NE(head.find("\r\n" + field), std::string::npos) << field << " in\n" << head;

    const auto ask = [&](const std::string& method, const std::vector<std::string>& headers) {
        return request(port, method, "/app.css", host, headers);
    };
    for (const auto& validators :
         std::vector<std::vector<std::string>>{{"If-None-Match: " + tag},
                                               {"If-None-Match: \"other\", W/" + tag},
                                               {"If-Modified-Since: " + time},
                                               {"If-None-Match: *"}}) {
        for (const std::string method : {"GET", "HEAD"}) {
            const auto kept = ask(method, validators);
            EXPECT_EQ(kept.status, 304) << method << " " << validators[0];
            EXPECT_EQ(kept.message.body(), "") << validators[0];
            EXPECT_EQ(kept.header("ETag"), tag) << validators[0];
            EXPECT_EQ(kept.header("Content-Length"), "") << "not the length of an empty body";
            EXPECT_EQ(kept.header("Cache-Control"), "no-cache");
        }
    }
    // Validators that do not match: the whole file. If-None-Match decides when it is sent.
    for (const auto& validators : std::vector<std::vector<std::string>>{
             {"If-None-Match: \"other\""},
             {"If-None-Match: \"other\"", "If-Modified-Since: " + time},
             {"If-Modified-Since: Thu, 01 Jan 1970 00:00:00 GMT"},
             {"If-Modified-Since: yesterday"}}) {
        const auto again = ask("GET", validators);
        EXPECT_EQ(again.status, 200) << validators[0];
        EXPECT_EQ(again.message.body(), full.message.body()) << validators[0];
    }
    // The pages the server writes itself have no validator, and HEAD tells their length too.
    const auto games = get(port, "/games");
    const auto gamesHead = request(port, "HEAD", "/games", host);
    EXPECT_EQ(gamesHead.status, games.status);
    EXPECT_EQ(gamesHead.header("Content-Length"), std::to_string(games.message.body().size()));
    EXPECT_EQ(gamesHead.header("ETag"), "");
}

TEST(Files, APageComesInThePersonsLanguage) {
    auto server = Server::start(database());
    ASSERT_TRUE(server);
    const auto& port = server->port;
    const std::string host = "127.0.0.1:" + port;
    const auto page = [&](const std::string& target, const std::vector<std::string>& headers) {
        return request(port, "GET", target, host, headers);
    };
    const auto english = page("/", {});
    ASSERT_EQ(english.status, 200);
    EXPECT_NE(english.message.body().find("<html lang=\"en\">"), std::string::npos);
    EXPECT_EQ(english.header("Vary"), "Cookie, Accept-Language");
    // Accept-Language, unless the person chose (the lasca_lang cookie).
    const auto portuguese = page("/lobby", {"Accept-Language: de;q=0.9, pt-BR;q=0.8, en;q=0.1"});
    EXPECT_NE(portuguese.message.body().find("<html lang=\"pt-BR\">"), std::string::npos);
    const auto chosen = page("/", {"Accept-Language: pt-BR", "Cookie: a=b; lasca_lang=en"});
    EXPECT_NE(chosen.message.body().find("<html lang=\"en\">"), std::string::npos);
    const auto chosenPt = page("/torneio", {"Cookie: lasca_lang=pt-BR"});
    EXPECT_NE(chosenPt.message.body().find("<html lang=\"pt-BR\">"), std::string::npos);
    // A page's tag names its language: the English copy a browser holds is no answer in Portuguese.
    const auto tag = english.header("ETag");
    EXPECT_TRUE(tag.starts_with("\"en-")) << tag;
    EXPECT_EQ(page("/", {"If-None-Match: " + tag}).status, 304);
    EXPECT_EQ(page("/", {"If-None-Match: " + tag, "Cookie: lasca_lang=pt-BR"}).status, 200);
    // The words: the chosen language's catalogue, and English's for anything else.
    const auto words = [&](const std::vector<std::string>& headers) {
        const auto reply = page("/i18n/messages.js", headers);
        EXPECT_EQ(reply.status, 200);
        EXPECT_EQ(reply.header("Vary"), "Cookie, Accept-Language");
        const auto& body = reply.message.body();
        const std::string prefix = "window.LASCA_I18N = ";
        EXPECT_TRUE(body.starts_with(prefix)) << body.substr(0, 40);
        if (!body.starts_with(prefix) || !body.ends_with(";\n")) return Json();
        return Json::parse(body.substr(prefix.size(), body.size() - prefix.size() - 2), nullptr,
                           false);
    };
    const auto en = words({"Accept-Language: fr"});
    const auto pt = words({"Cookie: lasca_lang=pt-BR"});
    ASSERT_TRUE(en.is_object() && pt.is_object());
    EXPECT_EQ(en["lang"], "en");
    EXPECT_EQ(pt["lang"], "pt-BR");
    EXPECT_EQ(en["messages"]["common.nav.games"], "Games");
    EXPECT_EQ(pt["messages"]["common.nav.games"], "Partidas");
    EXPECT_EQ(en["messages"].size(), pt["messages"].size());
    EXPECT_EQ(words({"Cookie: lasca_lang=<script>", "Accept-Language: pt"})["lang"], "pt-BR");
}

TEST(Attacks, AnotherSiteCannotDriveTheServerThroughItsName) {
    auto server = Server::start(database(), 0, {"--public-origin", "https://lasca.example.org"});
    ASSERT_TRUE(server);
    const auto& port = server->port;
    const std::string own = "127.0.0.1:" + port;
    // DNS rebinding: the attacker's name, pointed at 127.0.0.1.
    for (const std::string target : {"/", "/games", "/games.pdn", "//etc/hostname"})
        EXPECT_EQ(request(port, "GET", target, "attacker.test").status, 421) << target;
    EXPECT_EQ(request(port, "GET", "/", "attacker.test:" + port).status, 421);
    EXPECT_EQ(request(port, "GET", "/", "").status, 421) << "no Host at all";
    for (const std::string path : {"/ws", "/ws/torneio"}) {
        EXPECT_EQ(
            request(port, "GET", path, "attacker.test", upgrade("http://attacker.test")).status,
            421)
            << path;
        // A page of another site on the server's own name: 403, not a silent drop.
        EXPECT_EQ(request(port, "GET", path, own, upgrade("http://attacker.test")).status, 403)
            << path;
        EXPECT_EQ(request(port, "GET", path, own, upgrade("null")).status, 403) << path;
        EXPECT_EQ(request(port, "GET", path, own, upgrade("http://" + own)).status, 101) << path;
        EXPECT_EQ(request(port, "GET", path, own, upgrade()).status, 101) << "a program";
        EXPECT_EQ(
            request(port, "GET", path, "lasca.example.org", upgrade("https://lasca.example.org"))
                .status,
            101)
            << path;
    }
    EXPECT_EQ(request(port, "GET", "/", "localhost:" + port).status, 200);
    EXPECT_EQ(request(port, "GET", "/", "lasca.example.org").status, 200);
    EXPECT_EQ(request(port, "GET", "/ws/other", own, upgrade("http://" + own)).status, 404);
}

TEST(Attacks, EveryAnswerForbidsFramingAndKeepsTheReferrer) {
    auto server = Server::start(database());
    ASSERT_TRUE(server);
    const auto& port = server->port;
    const std::string own = "127.0.0.1:" + port;
    const std::vector<Reply> replies = {
        get(port, "/"),
        get(port, "/games"),
        get(port, "/missing"),
        request(port, "GET", "/", "attacker.test"),
        request(port, "POST", "/", own),
        request(port, "GET", "/ws", own, upgrade("http://attacker.test")),
        request(port, "GET", "/ws", own, upgrade("http://" + own))};
    const std::vector<int> statuses = {200, 200, 404, 421, 405, 403, 101};
    for (std::size_t i = 0; i < replies.size(); ++i) {
        const auto& r = replies[i];
        EXPECT_EQ(r.status, statuses[i]) << i;
        EXPECT_EQ(r.header("X-Frame-Options"), "DENY") << i;
        EXPECT_EQ(r.header("Referrer-Policy"), "same-origin") << i;
        EXPECT_EQ(r.header("X-Content-Type-Options"), "nosniff") << i;
        EXPECT_NE(r.header("Content-Security-Policy").find("frame-ancestors 'none'"),
                  std::string::npos)
            << i;
    }
}

TEST(Attacks, ConnectionsAreCappedPerAddressAndInAll) {
    auto server = Server::start(database(), 0,
                                {"--max-connections", "6", "--max-connections-per-address", "3"});
    ASSERT_TRUE(server);
    const auto& port = server->port;
    net::io_context io;
    // Three half-sent requests from one address: its fourth connection is refused at once.
    std::vector<std::unique_ptr<tcp::socket>> held;
    for (int i = 0; i < 3; ++i) {
        held.push_back(connectFrom(io, port, "127.0.0.1"));
        net::write(*held.back(), net::buffer(halfRequest(port)));
    }
    const auto refused = get(port, "/", "127.0.0.1");
    EXPECT_EQ(refused.status, 503);
    EXPECT_EQ(refused.header("Retry-After"), "10");
    EXPECT_EQ(get(port, "/", "127.0.0.2").status, 200) << "another address is served";
    // Three idle Torneio sockets from a second address: /ws/torneio is under the same caps.
    std::vector<std::unique_ptr<tcp::socket>> tabs;
    for (int i = 0; i < 3; ++i) {
        tabs.push_back(holdWebSocket(io, port, "/ws/torneio", "127.0.0.3"));
        ASSERT_TRUE(tabs.back()) << "Torneio socket " << i;
    }
    const auto fourth =
        request(port, "GET", "/ws/torneio", "127.0.0.1:" + port, upgrade(), "127.0.0.3");
    EXPECT_EQ(fourth.status, 503) << "six held in all";
    EXPECT_EQ(get(port, "/", "127.0.0.4").status, 503) << "six held in all";
    // Once they close, the server serves again.
    held.clear();
    tabs.clear();
    EXPECT_EQ(servedAgain(port, "127.0.0.1"), 200);
}

// The query of a WebSocket's address (?home=NAME, which the front of several instances routes
// by) chooses nothing on the server: the room is chosen by the path alone, compared whole, and a
// query of any bytes opens the same room; a path that is not a room's is a 404 with any query.
TEST(Attacks, TheFrontsQueryChoosesNothingOnTheServer) {
    auto server = Server::start(database());
    ASSERT_TRUE(server);
    const auto& port = server->port;
    net::io_context io;
    const std::vector<std::string> rooms = {
        "/ws/lobby?home=../../etc/passwd", "/ws?home=%00%ff%2F..",
        "/ws/torneio?home=web1&home=", "/ws?", "/ws/lobby?home=" + std::string(2000, 'a')};
    for (const std::string& target : rooms)
        EXPECT_TRUE(holdWebSocket(io, port, target, "127.0.0.1")) << target;
    for (const std::string target :
         {"/ws/../ws?home=web1", "/ws/lobby/?home=web1", "/wsx?home=/ws", "/?home=/ws/lobby"})
        EXPECT_EQ(request(port, "GET", target, "127.0.0.1:" + port, upgrade()).status, 404)
            << target;
}

// Behind a trusted front (HAProxy with send-proxy, here 127.0.0.9), the PROXY protocol header
// names the client: each client meets its own limit while another is served, a connection of
// the front without the header is closed, and nobody else can claim an address with one.
TEST(Attacks, BehindATrustedFrontEachClientMeetsItsOwnLimit) {
    auto server = Server::start(
        database(), 0, {"--trusted-proxy", "127.0.0.9", "--max-connections-per-address", "2"});
    ASSERT_TRUE(server);
    const auto& port = server->port;
    net::io_context io;
    const auto page = "GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n";
    const auto header = [&](const std::string& client) {
        return "PROXY TCP4 " + client + " 127.0.0.1 40000 " + port + "\r\n";
    };
    // Two kept-alive connections of 10.1.1.1 through the front, each answered (so admitted).
    std::vector<std::unique_ptr<tcp::socket>> held;
    for (int i = 0; i < 2; ++i) {
        held.push_back(connectFrom(io, port, "127.0.0.9"));
        EXPECT_EQ(exchange(io, *held.back(), header("10.1.1.1") + page).status, 200) << i;
    }
    const auto thirdOfOne = [&] {
        auto socket = connectFrom(io, port, "127.0.0.9");
        return exchange(io, *socket, header("10.1.1.1") + page);
    };
    EXPECT_EQ(thirdOfOne().status, 503) << "10.1.1.1 holds two";
    auto other = connectFrom(io, port, "127.0.0.9");
    EXPECT_EQ(exchange(io, *other, header("10.1.1.2") + page).status, 200)
        << "another client behind the same front is served";
    EXPECT_EQ(get(port, "/", "127.0.0.2").status, 200) << "a client without the front too";
    // The front's connection without the header is closed unanswered.
    auto bare = connectFrom(io, port, "127.0.0.9");
    EXPECT_EQ(exchange(io, *bare, page).status, 0);
    // Anyone else's PROXY header is not HTTP: closed, counted under its own address.
    auto claim = connectFrom(io, port, "127.0.0.3");
    EXPECT_EQ(exchange(io, *claim, header("10.1.1.9") + page).status, 0);
    // Once 10.1.1.1's connections close, it is served again.
    held.clear();
    int status = 0;
    const auto until = std::chrono::steady_clock::now() + kHangGuard;
    while (status != 200 && std::chrono::steady_clock::now() < until) {
        status = thirdOfOne().status;
        if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_EQ(status, 200);
}

// Under a descriptor limit of 320, 400 held connections (each from its own address): the
// server refuses the ones beyond what fits with 503 instead of running out of descriptors and
// spinning on accept, and serves again once they go.
TEST(Attacks, HeldConnectionsCannotExhaustTheDescriptors) {
    rlimit own{};
    ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &own), 0);
    if (own.rlim_cur < 1000) {
        own.rlim_cur = std::min<rlim_t>(own.rlim_max, 1000);
        setrlimit(RLIMIT_NOFILE, &own);
    }
    if (own.rlim_cur < 900) GTEST_SKIP() << "this test needs 900 descriptors of its own";
    std::vector<std::string> args = {"-c",         "ulimit -n 320 && exec \"$0\" \"$@\"",
                                     LASCA_WEB,    "--port",
                                     "0",          "--db",
                                     database(),   "--engine",
                                     LASCA_ENGINE, "--log-level",
                                     "off",        "--max-engines",
                                     "1"};
    auto started = common::ChildProcess::start("/bin/sh", args, "");
    ASSERT_TRUE(started);
    auto process = std::move(started).value();
    std::string line;
    ASSERT_EQ(process->readLine(line, common::SteadyClock::now() + kHangGuard),
              common::ReadStatus::Line);
    const auto port = line.substr(line.rfind(':') + 1, line.size() - line.rfind(':') - 2);
    net::io_context io;
    std::vector<std::unique_ptr<tcp::socket>> held;
    for (int i = 0; i < 400; ++i) {
        const std::string source =
            "127.0." + std::to_string(1 + i / 250) + "." + std::to_string(1 + i % 250);
        held.push_back(connectFrom(io, port, source));
        net::write(*held.back(), net::buffer(halfRequest(port)));
    }
    // The last one is beyond the limit: it has its 503.
    const auto last = exchange(io, *held.back(), "\r\n");
    EXPECT_EQ(last.status, 503);
    EXPECT_EQ(get(port, "/", "127.0.3.1").status, 503) << "a newcomer is told, not left waiting";
    held.clear();
    EXPECT_EQ(servedAgain(port, "127.0.3.2"), 200);
}

TEST(Attacks, ARequestThatNeverEndsIsCut) {
    auto server = Server::start(database(), 0, {"--header-timeout", "1"});
    ASSERT_TRUE(server);
    net::io_context io;
    auto socket = connectFrom(io, server->port);
    net::write(*socket, net::buffer(halfRequest(server->port)));
    EXPECT_TRUE(closedBy(io, *socket)) << "still open after " << kCloseGuard.count() << " s";
    auto silent = connectFrom(io, server->port);  // says nothing at all
    EXPECT_TRUE(closedBy(io, *silent));
}

TEST(Attacks, ASilentWebSocketIsClosed) {
    auto server = Server::start(database(), 0, {"--idle-timeout", "1"});
    ASSERT_TRUE(server);
    for (const std::string path : {"/ws", "/ws/torneio"}) {
        test::Tab tab(server->port, path);
        tab.read();  // the hello (or the first state)
        bool closed = false;
        const auto until = std::chrono::steady_clock::now() + kCloseGuard;
        while (!closed && std::chrono::steady_clock::now() < until) {
            try {
                tab.read();
            } catch (const boost::system::system_error&) {
                closed = true;
            }
        }
        EXPECT_TRUE(closed) << path;
    }
}

// A tab with a tiny receive buffer that asks for a 55 KB state 59 times and reads nothing: the
// replies piling up pass --max-queued-bytes and the server closes it, long before 59 states.
TEST(Attacks, ATabThatNeverReadsIsCutByBytes) {
    const std::string comment(55000, 'x');
    const Json import = {{"type", "pdn.import"},
                         {"pdn", "[Event \"big\"]\n1. c3-d4 {" + comment + "} *\n"}};
    {
        // A tab that reads, on a server with the default limit (on the small one, a state still
        // counted while its write completes could add to the next): each state of the imported
        // game is that large.
        auto roomy = Server::start((testDirectory() / "roomy.db").string());
        ASSERT_TRUE(roomy);
        test::Tab reader(roomy->port);
        reader.readState();
        reader.send(import);
        EXPECT_GT(reader.readState().dump().size(), 55000u);
        reader.send({{"type", "view"}, {"ply", 0}});
        EXPECT_GT(reader.readState().dump().size(), 55000u);
    }
    auto server = Server::start(database(), 0, {"--max-queued-bytes", "65536"});
    ASSERT_TRUE(server);
    net::io_context io;
    websocket::stream<tcp::socket> ws(std::move(*connectFrom(io, server->port, "127.0.0.1", 4096)));
    ws.handshake("127.0.0.1:" + server->port, "/ws");
    ws.write(net::buffer(import.dump()));
    std::size_t states = 0;
    bool closed = false;
    try {
        for (int i = 0; i < 59; ++i)
            ws.write(net::buffer(Json{{"type", "view"}, {"ply", i % 2}}.dump()));
    } catch (const boost::system::system_error&) {
        closed = true;  // closed while still sending
    }
    beast::flat_buffer buffer;
    std::optional<beast::error_code> done;
    std::function<void()> readMore = [&] {
        ws.async_read(buffer, [&](beast::error_code e, std::size_t) {
            if (e) {
                done = e;
                return;
            }
            const auto m = Json::parse(beast::buffers_to_string(buffer.data()));
            buffer.clear();
            if (m.value("type", "") == "state") ++states;
            readMore();
        });
    };
    readMore();
    io.run_for(kCloseGuard);
    closed = closed || done.has_value();
    EXPECT_TRUE(closed) << states << " states read and the tab still open";
    EXPECT_LT(states, 30u);
}

}  // namespace
}  // namespace web::server
