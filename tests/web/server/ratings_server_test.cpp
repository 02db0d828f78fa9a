// Rated two-person tables against the real lasca-web (issue 55 items 3 and 4): two accounts sign
// up, open a rated table with a clock, play it to its end (a move, then a resignation), and the
// ratings kept in the store (after a `kill -9`) and shown on both player pages, HTML and JSON,
// equal web::ratings::afterGame's figures computed here. A guest cannot make or sit at a rated
// table, nor one account hold both seats; a name with markup never appears unescaped.
// Nothing depends on the machine's speed: the clock (3 min + 2 s) never runs out here.
#include <gtest/gtest.h>

#include <boost/beast/http.hpp>
#include <cmath>
#include <string>

#include "live_server.h"
#include "test_directory.h"
#include "web/pages/player_page.h"
#include "web/ratings/ratings.h"
#include "web/store/store.h"

namespace web::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using common::test::testDirectory;
using test::Json;
using test::Server;
using test::Tab;
using tcp = net::ip::tcp;

using test::get;
using test::signUp;

// The first reply of `tab` to `m` that is not a state (the state a join sends before is read).
Json answerTo(Tab& tab, const Json& m) {
    tab.send(m);
    Json reply;
    do reply = tab.read();
    while (reply.value("type", "") == "state");
    return reply;
}

std::string rounded(double rating) {
    return std::to_string(std::lround(rating));
}

TEST(RatingsServer, TwoAccountsPlayARatedTableAndBothPagesShowTheNewRatings) {
    const std::string db = (testDirectory() / "web.db").string();
    const Json clock = {{"time", 180000}, {"increment", 2000}};  // 180 + 40 x 2 s: blitz
    std::string tableId, white, black, bo;
    {
        auto server = Server::start(db);
        ASSERT_TRUE(server);
        const auto& port = server->port;
        const auto ana = signUp(port, "Ana", "127.0.0.2");
        bo = signUp(port, "Bo_9", "127.0.0.3");
        ASSERT_FALSE(ana.empty());
        ASSERT_FALSE(bo.empty());

        // A guest asks for a rated table: refused, no table made.
        Tab guest(port);
        guest.readState();
        Json refused =
            answerTo(guest, {{"type", "lasca.create"}, {"clock", clock}, {"rated", true}});
        EXPECT_EQ(refused["type"], "error");
        EXPECT_NE(refused["message"].get<std::string>().find("sign in"), std::string::npos);
        // Signed in, but without a clock: refused too.
        Tab a(port, "/ws", "", ana);
        a.readState();
        refused = answerTo(a, {{"type", "lasca.create"}, {"clock", nullptr}, {"rated", true}});
        EXPECT_EQ(refused["type"], "error");
        refused = answerTo(a, {{"type", "lasca.create"}, {"clock", clock}, {"rated", "yes"}});
        EXPECT_EQ(refused["type"], "error");
        const Json created =
            answerTo(a, {{"type", "lasca.create"}, {"clock", clock}, {"rated", true}});
        ASSERT_EQ(created["type"], "lasca.created") << created;
        EXPECT_EQ(created["rated"], true);
        tableId = created["table"];
        white = created["seats"][0]["token"];
        black = created["seats"][1]["token"];

        a.send({{"type", "lasca.join"}, {"table", tableId}, {"token", white}});
        Json as = a.readState();
        EXPECT_EQ(as["rated"], true);
        EXPECT_EQ(as["players"]["white"], "Ana");
        EXPECT_TRUE(as["players"]["black"].is_null());
        // Before Black's seat is taken, nobody moves.
        const std::string first = as["legal"][0]["move"];
        EXPECT_EQ(answerTo(a, {{"type", "move"}, {"ply", 0}, {"move", first}})["type"], "error");
        // A guest, and Ana herself, cannot take Black's seat.
        Tab g(port);
        g.readState();
        EXPECT_EQ(
            answerTo(g, {{"type", "lasca.join"}, {"table", tableId}, {"token", black}})["type"],
            "error");
        Tab a2(port, "/ws", "", ana);
        a2.readState();
        EXPECT_EQ(
            answerTo(a2, {{"type", "lasca.join"}, {"table", tableId}, {"token", black}})["type"],
            "error");
        // Bo takes it: both see both names.
        Tab b(port, "/ws", "", bo);
        b.readState();
        b.send({{"type", "lasca.join"}, {"table", tableId}, {"token", black}});
        const Json bs = b.readState();
        EXPECT_EQ(bs["players"]["white"], "Ana");
        EXPECT_EQ(bs["players"]["black"], "Bo_9");
        EXPECT_EQ(a.readState()["players"]["black"], "Bo_9");
        // A watcher needs no account.
        g.send({{"type", "lasca.join"}, {"table", tableId}, {"token", created["watch"]}});
        EXPECT_EQ(g.readState()["seat"], "watch");

        a.send({{"type", "move"}, {"ply", 0}, {"move", first}});
        ASSERT_EQ(a.readState()["moves"].size(), 1u);
        ASSERT_EQ(b.readState()["moves"].size(), 1u);
        b.send({{"type", "resign"}});
        const Json over = b.readState();
        EXPECT_EQ(over["status"]["result"], "2-0");
        EXPECT_EQ(over["status"]["rule"], "resign");

        // Both pages show the ratings of the test's own Glicko-2 figures.
        const auto expected =
            web::ratings::afterGame(common::startRating(), common::startRating(), 1.0);
        ASSERT_TRUE(expected.ok());
        const auto& [w, l] = std::pair(expected.value()[0], expected.value()[1]);
        for (const auto& [name, rating, outcome] :
             {std::tuple("ana", w, "win"), std::tuple("BO_9", l, "loss")}) {
            const auto page = get(port, std::string("/api/@/") + name);
            ASSERT_EQ(page.status, 200) << page.text;
            const Json json = Json::parse(page.text);
            ASSERT_EQ(json["ratings"].size(), 1u) << json;
            const Json& r = json["ratings"][0];
            EXPECT_EQ(r["category"], "blitz");
            EXPECT_NEAR(r["rating"].get<double>(), rating.rating, 1e-9);
            EXPECT_NEAR(r["deviation"].get<double>(), rating.deviation, 1e-9);
            EXPECT_NEAR(r["volatility"].get<double>(), rating.volatility, 1e-12);
            EXPECT_EQ(r["provisional"], true);
            EXPECT_EQ(r["games"], 1);
            ASSERT_EQ(json["history"].size(), 1u);
            EXPECT_NEAR(json["history"][0]["rating"].get<double>(), rating.rating, 1e-9);
            ASSERT_EQ(json["games"].size(), 1u);
            EXPECT_EQ(json["games"][0]["outcome"], outcome);
            EXPECT_EQ(json["games"][0]["rated"], true);
            const std::string pdn = json["games"][0]["pdn"];
            const auto html = get(port, std::string("/@/") + name);
            ASSERT_EQ(html.status, 200);
            EXPECT_NE(html.text.find(">" + rounded(rating.rating) + "?<"), std::string::npos)
                << html.text;
            EXPECT_NE(html.text.find("<svg"), std::string::npos);
            EXPECT_NE(html.text.find("href=\"" + pdn + "\""), std::string::npos);
            const auto game = get(port, pdn);
            ASSERT_EQ(game.status, 200);
            EXPECT_NE(game.text.find("[White \"Ana\"]"), std::string::npos) << game.text;
            EXPECT_NE(game.text.find("[Black \"Bo_9\"]"), std::string::npos);
        }
        const auto anaPage = get(port, "/@/Ana").text;
        EXPECT_NE(anaPage.find("<a href=\"/@/Bo_9\">Bo_9</a>"), std::string::npos);
        const auto filtered = get(port, "/games?player=bo_9");
        EXPECT_EQ(filtered.status, 200);
        EXPECT_NE(filtered.text.find("/games/table/"), std::string::npos);
        EXPECT_EQ(get(port, "/games?player=nobody").status, 404);
        EXPECT_EQ(get(port, "/@/nobody").status, 404);
        EXPECT_EQ(get(port, "/api/@/nobody").status, 404);
        server->process->kill();  // SIGKILL: nothing is closed
    }
    {
        // Restarted: the table comes back with its seats' accounts; Bo's session still opens
        // Black's seat, a guest is refused White's, and nothing is rated twice.
        auto server = Server::start(db);
        ASSERT_TRUE(server);
        Tab b(server->port, "/ws", "", bo);
        b.readState();
        b.send({{"type", "lasca.join"}, {"table", tableId}, {"token", black}});
        const Json bs = b.readState();
        EXPECT_EQ(bs["players"]["white"], "Ana");
        EXPECT_EQ(bs["players"]["black"], "Bo_9");
        EXPECT_EQ(bs["status"]["result"], "2-0");
        Tab g(server->port);
        g.readState();
        EXPECT_EQ(
            answerTo(g, {{"type", "lasca.join"}, {"table", tableId}, {"token", white}})["type"],
            "error");
        const Json json = Json::parse(get(server->port, "/api/@/Ana").text);
        EXPECT_EQ(json["ratings"][0]["games"], 1);
        server->process->kill();
    }
    // Both halves survived the kill.
    auto store = store::Store::open(db);
    ASSERT_TRUE(store.ok()) << store.error();
    const auto kept = store.value()->loadDuel(tableId).value();
    ASSERT_TRUE(kept);
    EXPECT_EQ(kept->result, "2-0");
    EXPECT_EQ(kept->whiteName, "Ana");
    EXPECT_EQ(store.value()->ratingsOf(kept->blackAccount).value().size(), 1u);
    EXPECT_EQ(store.value()->ratingHistory(kept->whiteAccount).value().size(), 1u);
}

TEST(RatingsServer, AMarkupNameNeverAppearsUnescaped) {
    auto server = Server::start((testDirectory() / "web.db").string());
    ASSERT_TRUE(server);
    for (const std::string target :
         {"/@/%3Cscript%3Ealert(1)%3C/script%3E", "/@/<script>alert(1)</script>", "/api/@/<b>x</b>",
          "/games?player=<b>x</b>"}) {
        const auto page = get(server->port, target);
        EXPECT_EQ(page.status, 404) << target;
        EXPECT_EQ(page.text.find("<script"), std::string::npos) << target;
        EXPECT_EQ(page.text.find("<b>"), std::string::npos) << target;
    }
    // The page's own code, given a name the rule of names would refuse: shown as text.
    pages::PlayerFacts facts;
    facts.account.name = "<b>x</b>\"&";
    facts.account.created = 1000;
    facts.ratings.push_back({"blitz", {1600, 80, 0.06}, 3, 2000});
    facts.history.push_back({"blitz", "t", 1, 1600, 80, 2000});
    store::StoredDuel duel;
    duel.result = "1-1";
    duel.rule = "agreement";
    duel.rated = true;
    duel.clockTime = 180000;
    duel.whiteAccount = 0;
    duel.blackName = "<i>y</i>";
    facts.games.push_back({1, duel});
    const std::string html = pages::playerHtml(facts);
    EXPECT_EQ(html.find("<b>"), std::string::npos);
    EXPECT_EQ(html.find("<i>"), std::string::npos);
    EXPECT_NE(html.find("&lt;b&gt;x&lt;/b&gt;"), std::string::npos);
    EXPECT_NE(html.find(">1600<"), std::string::npos) << "RD 80: not provisional";
    EXPECT_NE(html.find("<svg"), std::string::npos);
}

}  // namespace
}  // namespace web::server
