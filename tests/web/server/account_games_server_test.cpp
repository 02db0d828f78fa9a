// An account's games against the real lasca-web (protocol.md, "Accounts (HTTP)" and "Player
// pages (HTTP)"): GET /api/account/games gives the signed-in account every table it played,
// finished and running, as one PDN file that reads back through the project's PDN reader, and
// no other account's; a guest gets the 401 of the other account endpoints. An account deleted:
// its games stay, named "deleted-<id>" on the opponent's page, /games, the game's PDN and the
// opponent's download, never by the old name, and the old name's page is a 404. The tables are
// written into the store directly while the server is stopped (the store is the server's alone
// while it runs); the sessions made before survive the restart.
#include <gtest/gtest.h>

#include <boost/beast/http.hpp>
#include <set>
#include <sstream>
#include <string>

#include "lasca/core/pdn.h"
#include "lasca/core/position.h"
#include "live_server.h"
#include "test_directory.h"
#include "web/store/store.h"

namespace web::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using common::test::testDirectory;
using test::Json;
using test::Server;
using tcp = net::ip::tcp;

// One request with the server's own Origin, and `token` as the session cookie when not "".
test::Reply exchange(const std::string& port, http::verb method, const std::string& target,
                     const std::string& body, const std::string& token = "") {
    test::Sent sent;
    sent.cookie = token;
    return test::exchange(port, method, target, body, sent);
}

std::string get(const std::string& port, const std::string& target, int status = 200) {
    const auto response = test::get(port, target);
    EXPECT_EQ(response.status, status) << target;
    return response.text;
}

// Signs up `name` (password "correct horse"): the session's token.
std::string signUp(const std::string& port, const std::string& name) {
    const auto token = test::signUp(port, name);
    EXPECT_FALSE(token.empty()) << name;
    return token;
}

// A table of two accounts (0: a guest's seat) with two moves; `result` "*" while it runs.
store::StoredDuel duel(const std::string& id, std::int64_t white, std::int64_t black,
                       const std::string& result, const std::string& publicWatch = "") {
    store::StoredDuel d;
    d.id = id;
    d.startLfen = lasca::Position::startPosition().toLfen();
    d.moves = {"c3-d4", "f6-e5"};
    d.whiteHash = "w" + id;
    d.blackHash = "b" + id;
    d.watchHash = "v" + id;
    d.clockTime = 180000;
    d.clockIncrement = 2000;
    d.whiteMs = d.blackMs = 180000;
    d.result = result;
    d.rule = result == "*" ? "" : "resign";
    d.created = d.updated = 1764700000000;
    d.whiteAccount = white;
    d.blackAccount = black;
    d.publicWatch = publicWatch;
    return d;
}

// The games of a PDN text, or a failure.
std::vector<lasca::PdnGame> games(const std::string& pdn) {
    std::istringstream in(pdn);
    auto read = lasca::readPdn(in);
    EXPECT_TRUE(read.ok()) << read.error() << "\n" << pdn;
    return read.ok() ? std::move(read).value() : std::vector<lasca::PdnGame>();
}

TEST(AccountGames, DownloadedAsOnePdnAndADeletedAccountIsNamedByItsNumber) {
    const std::string db = (testDirectory() / "web.db").string();
    std::string ana, bo, cy;
    {
        auto server = Server::start(db);
        ASSERT_TRUE(server);
        ana = signUp(server->port, "Ana");
        bo = signUp(server->port, "Bo_9");
        cy = signUp(server->port, "Cy");
        ASSERT_FALSE(ana.empty() || bo.empty() || cy.empty());
        server->process->kill();
    }
    std::int64_t boId = 0;
    {
        auto store = store::Store::open(db).value();
        const auto a = store->findAccount("ana").value()->id;
        boId = store->findAccount("bo_9").value()->id;
        const auto c = store->findAccount("cy").value()->id;
        ASSERT_TRUE(store->saveDuel(duel("t1", a, boId, "2-0")).ok());               // 1
        ASSERT_TRUE(store->saveDuel(duel("t2", boId, a, "*", "watchtoken2")).ok());  // 2
        ASSERT_TRUE(store->saveDuel(duel("t3", a, 0, "1-1")).ok());                  // 3
        ASSERT_TRUE(store->saveDuel(duel("t4", boId, c, "0-2")).ok());               // 4
        ASSERT_TRUE(store->saveDuel(duel("privatetable5", c, a, "*")).ok());         // 5: private
    }
    auto server = Server::start(db);
    ASSERT_TRUE(server);
    const auto& port = server->port;

    // Ana's file: her four tables (finished and running), oldest first, not Bo's and Cy's.
    auto file = exchange(port, http::verb::get, "/api/account/games", "", ana);
    ASSERT_EQ(file.status, 200) << file.text;
    EXPECT_EQ(file.disposition, "attachment; filename=\"Ana-games.pdn\"");
    EXPECT_EQ(file.contentType, "text/plain; charset=utf-8");
    EXPECT_EQ(file.cacheControl, "no-store");
    auto read = games(file.text);
    ASSERT_EQ(read.size(), 4u);
    std::vector<std::string> rounds, whites, blacks, results;
    for (const auto& g : read) {
        rounds.push_back(*g.tag("Round"));
        whites.push_back(*g.tag("White"));
        blacks.push_back(*g.tag("Black"));
        results.push_back(*g.tag("Result"));
        EXPECT_EQ(g.moves, (std::vector<std::string>{"c3-d4", "f6-e5"}));
        EXPECT_EQ(*g.tag("TimeControl"), "180+2");
    }
    EXPECT_EQ(rounds, (std::vector<std::string>{"1", "2", "3", "5"}));
    EXPECT_EQ(whites, (std::vector<std::string>{"Ana", "Bo_9", "Ana", "Cy"}));
    EXPECT_EQ(blacks, (std::vector<std::string>{"Bo_9", "Ana", "black player", "Ana"}));
    EXPECT_EQ(results, (std::vector<std::string>{"2-0", "*", "1-1", "*"}));
    // The finished one as its own page makes it.
    EXPECT_NE(file.text.find(get(port, "/games/table/1.pdn")), std::string::npos);
    // Bo's: his three, Ana's game with a guest not among them.
    const auto bos = games(exchange(port, http::verb::get, "/api/account/games", "", bo).text);
    ASSERT_EQ(bos.size(), 3u);
    EXPECT_EQ(*bos[2].tag("Round"), "4");

    // A guest, a stale cookie: the accounts' 401; another method: 405.
    for (const std::string& token : {std::string(), std::string(43, 'A')}) {
        const auto refused = exchange(port, http::verb::get, "/api/account/games", "", token);
        EXPECT_EQ(refused.status, 401);
        EXPECT_EQ(Json::parse(refused.text), (Json{{"error", "not signed in"},
                                                   {"key", "server.account.notSignedIn"},
                                                   {"params", Json::object()}}));
        EXPECT_EQ(refused.disposition, "");
    }
    EXPECT_EQ(exchange(port, http::verb::get, "/api/account/torneio", "").status, 401);
    const auto records = exchange(port, http::verb::get, "/api/account/torneio", "", ana);
    EXPECT_EQ(records.status, 200);
    EXPECT_EQ(records.disposition, "attachment; filename=\"Ana-torneio.txt\"");
    EXPECT_EQ(records.text, "") << "no Torneio table yet";
    const auto posted = exchange(port, http::verb::post, "/api/account/games", "{}", ana);
    EXPECT_EQ(posted.status, 405);
    EXPECT_EQ(posted.allow, "GET");

    // /games lists the public running table with its players, not the private one.
    const auto list = get(port, "/games");
    EXPECT_NE(list.find("/?table=t2&amp;token=watchtoken2"), std::string::npos) << list;
    EXPECT_NE(list.find("<a href=\"/@/Bo_9\">Bo_9</a> v <a href=\"/@/Ana\">Ana</a>"),
              std::string::npos);
    EXPECT_EQ(list.find("privatetable5"), std::string::npos);
    EXPECT_EQ(list.find("vprivatetable5"), std::string::npos);

    // Bo deletes his account: every page names him "deleted-<id>", none by his old name.
    const auto deleted = exchange(port, http::verb::post, "/api/account/delete",
                                  Json{{"password", "correct horse"}}.dump(), bo);
    ASSERT_EQ(deleted.status, 200) << deleted.text;
    const std::string gone = "deleted-" + std::to_string(boId);
    for (const std::string target : {"/@/Ana", "/api/@/Ana", "/games", "/games/table/1.pdn",
                                     "/games/table/4.pdn", "/games?player=Ana", "/games.pdn"}) {
        const auto page = get(port, target);
        EXPECT_EQ(page.find("Bo_9"), std::string::npos) << target << ":\n" << page;
        if (target != "/games?player=Ana" && target != "/games.pdn") {
            EXPECT_NE(page.find(gone), std::string::npos) << target << ":\n" << page;
        }
    }
    const auto json = Json::parse(get(port, "/api/@/Ana"));
    EXPECT_EQ(json["games"][1]["opponent"], gone) << json;  // table 1 (table 3: a guest)
    const auto after = exchange(port, http::verb::get, "/api/account/games", "", ana).text;
    EXPECT_EQ(after.find("Bo_9"), std::string::npos);
    read = games(after);
    ASSERT_EQ(read.size(), 4u);
    EXPECT_EQ(*read[0].tag("Black"), gone);
    EXPECT_EQ(*read[1].tag("White"), gone);
    get(port, "/@/Bo_9", 404);
    get(port, "/api/@/bo_9", 404);
    get(port, "/@/" + gone, 404);
    // His session is gone with him.
    EXPECT_EQ(exchange(port, http::verb::get, "/api/account/games", "", bo).status, 401);
}

}  // namespace
}  // namespace web::server
