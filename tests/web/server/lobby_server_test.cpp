// The lobby against the real lasca-web (issue 55 item 2 and its attacks): seeks seen live by the
// tabs that may take them (a guest only casual ones, a range only by the ratings in it), a seek
// accepted opening the table for both at once with their seats bound to their accounts, a seek
// accepted twice at once giving one table, a seek gone with its maker's tab, challenges
// declined with a reason or accepted, the running public games listed with a watch link that
// opens the table to anyone, and every bad message answered with one error line.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>
#include <vector>

#include "live_server.h"
#include "test_directory.h"

namespace web::server {
namespace {

using common::test::testDirectory;
using test::Json;
using test::Server;
using test::Tab;

const Json kBlitz = {{"time", 180000}, {"increment", 2000}};

// The next message of `tab` whose type is `type` (others are skipped); the test fails with what
// came instead when an error comes first.
Json next(Tab& tab, const std::string& type) {
    for (;;) {
        Json m = tab.read();
        if (m["type"] == type) return m;
        if (m["type"] == "error" && type != "error") {
            ADD_FAILURE() << "an error while waiting for " << type << ": " << m;
            return m;
        }
    }
}

std::set<std::string> seekIds(const Json& hello) {
    std::set<std::string> ids;
    for (const auto& s : hello["seeks"]) ids.insert(s["id"].get<std::string>());
    return ids;
}

struct Lobby {
    std::unique_ptr<Tab> tab;
    Json hello;
};

Lobby openLobby(const std::string& port, const std::string& session = "",
                const std::string& from = "") {
    Lobby lobby{std::make_unique<Tab>(port, "/ws/lobby", from, session), {}};
    lobby.hello = next(*lobby.tab, "lobby.hello");
    return lobby;
}

class LobbyServer : public ::testing::Test {
  protected:
    void SetUp() override {
        server_ = Server::start((testDirectory() / "web.db").string());
        ASSERT_TRUE(server_);
        port_ = server_->port;
    }
    std::optional<Server> server_;
    std::string port_;
};

TEST_F(LobbyServer, AGuestSeesCasualSeeksOnlyAndAnAccountSeesThemAll) {
    const auto ana = test::signUp(port_, "Ana", "127.0.0.2");
    const auto bo = test::signUp(port_, "Bo", "127.0.0.3");
    ASSERT_FALSE(ana.empty());
    ASSERT_FALSE(bo.empty());
    auto a = openLobby(port_, ana);
    EXPECT_EQ(a.hello["you"]["name"], "Ana");
    EXPECT_EQ(a.hello["you"]["guest"], false);
    auto guest = openLobby(port_);
    EXPECT_EQ(guest.hello["you"]["guest"], true);

    a.tab->send({{"type", "seek.create"}, {"clock", kBlitz}, {"rated", true}});
    const Json rated = next(*a.tab, "lobby.seek")["seek"];
    EXPECT_EQ(rated["mine"], true);
    EXPECT_EQ(rated["speed"], "blitz");
    EXPECT_EQ(rated["maker"], "Ana");
    EXPECT_EQ(rated["makerRating"]["rating"], 1500);
    EXPECT_EQ(rated["makerRating"]["provisional"], true);
    a.tab->send({{"type", "seek.create"}, {"clock", nullptr}});
    const Json casual = next(*a.tab, "lobby.seek")["seek"];
    EXPECT_EQ(casual["rated"], false);
    EXPECT_EQ(casual["speed"], "correspondence");
    // Live: the guest is told of the casual seek only (the next seek message it gets).
    const Json told = next(*guest.tab, "lobby.seek")["seek"];
    EXPECT_EQ(told["id"], casual["id"]);
    EXPECT_EQ(told["mine"], false);
    // Opened now: the guest's list holds the casual one, an account's both.
    auto guest2 = openLobby(port_);
    EXPECT_EQ(seekIds(guest2.hello), std::set<std::string>{casual["id"]});
    auto b = openLobby(port_, bo);
    EXPECT_EQ(seekIds(b.hello), (std::set<std::string>{rated["id"], casual["id"]}));
    // The guest cannot take the rated seek by its id, nor make a rated seek or a range.
    guest.tab->send({{"type", "seek.accept"}, {"seek", rated["id"]}});
    EXPECT_NE(next(*guest.tab, "error")["message"].get<std::string>().find("sign in"),
              std::string::npos);
    guest.tab->send({{"type", "seek.create"}, {"clock", kBlitz}, {"rated", true}});
    EXPECT_EQ(next(*guest.tab, "error")["type"], "error");
    guest.tab->send({{"type", "seek.create"}, {"clock", kBlitz}, {"range", {1400, 1600}}});
    EXPECT_EQ(next(*guest.tab, "error")["type"], "error");
}

TEST_F(LobbyServer, ARangeShowsASeekOnlyToTheRatingsInIt) {
    const auto ana = test::signUp(port_, "Ana", "127.0.0.2");
    const auto bo = test::signUp(port_, "Bo", "127.0.0.3");
    auto a = openLobby(port_, ana);
    a.tab->send(
        {{"type", "seek.create"}, {"clock", kBlitz}, {"rated", true}, {"range", {1600, 1800}}});
    const Json high = next(*a.tab, "lobby.seek")["seek"];
    EXPECT_EQ(high["range"], Json::array({1600, 1800}));
    a.tab->send(
        {{"type", "seek.create"}, {"clock", kBlitz}, {"rated", true}, {"range", {1400, 1600}}});
    const Json around = next(*a.tab, "lobby.seek")["seek"];
    auto b = openLobby(port_, bo);  // 1500: in the second range only
    EXPECT_EQ(seekIds(b.hello), std::set<std::string>{around["id"]});
    b.tab->send({{"type", "seek.accept"}, {"seek", high["id"]}});
    EXPECT_NE(next(*b.tab, "error")["message"].get<std::string>().find("range"), std::string::npos);
    // Ranges upside down or out of bounds, and bad fields, are refused with one error each.
    for (const Json& bad :
         {Json{{"type", "seek.create"}, {"clock", kBlitz}, {"range", {1800, 1600}}},
          Json{{"type", "seek.create"}, {"clock", kBlitz}, {"range", {-5, 1600}}},
          Json{{"type", "seek.create"}, {"clock", kBlitz}, {"range", {0, 99999}}},
          Json{{"type", "seek.create"}, {"clock", kBlitz}, {"range", "all"}},
          Json{{"type", "seek.create"}, {"clock", {{"time", 0}, {"increment", 0}}}},
          Json{{"type", "seek.create"}, {"clock", nullptr}, {"rated", true}},
          Json{{"type", "seek.create"}, {"clock", kBlitz}, {"colour", "white"}},
          Json{{"type", "seek.accept"}, {"seek", 5}},
          Json{{"type", "seek.cancel"}, {"seek", "nothing"}}, Json{{"type", "lobby.nothing"}}}) {
        b.tab->send(bad);
        EXPECT_EQ(next(*b.tab, "error")["type"], "error") << bad;
    }
    // Three seeks a tab at most.
    a.tab->send({{"type", "seek.create"}, {"clock", nullptr}});
    next(*a.tab, "lobby.seek");
    a.tab->send({{"type", "seek.create"}, {"clock", nullptr}});
    EXPECT_NE(next(*a.tab, "error")["message"].get<std::string>().find("open seeks"),
              std::string::npos);
}

TEST_F(LobbyServer, OneTabMakingAndCancellingSeeksIsSlowedDown) {
    auto maker = openLobby(port_);
    auto other = openLobby(port_);
    // Ten offers at once, then one each 5 s: of 30 made and cancelled as fast as the test can,
    // some are refused (unless the 30 took over 100 s), and the other tab is told only of those
    // made.
    int made = 0, refused = 0;
    for (int i = 0; i < 30; ++i) {
        maker.tab->send({{"type", "seek.create"}, {"clock", nullptr}});
        const Json m = maker.tab->read();
        if (m["type"] == "error") {
            EXPECT_NE(m["message"].get<std::string>().find("too many offers"), std::string::npos);
            ++refused;
            continue;
        }
        ASSERT_EQ(m["type"], "lobby.seek") << m;
        ++made;
        maker.tab->send({{"type", "seek.cancel"}, {"seek", m["seek"]["id"]}});
        EXPECT_EQ(next(*maker.tab, "lobby.seekGone")["seek"], m["seek"]["id"]);
    }
    EXPECT_GE(made, 10);
    EXPECT_GE(refused, 1);
    for (int i = 0; i < made; ++i) next(*other.tab, "lobby.seekGone");
    other.tab->send({{"type", "seek.create"}, {"clock", nullptr}});  // the other tab is served
    EXPECT_EQ(next(*other.tab, "lobby.seek")["seek"]["mine"], true);
}

TEST_F(LobbyServer, AnAcceptedSeekOpensTheRatedTableForBothAndIsListedToWatch) {
    const auto ana = test::signUp(port_, "Ana", "127.0.0.2");
    const auto bo = test::signUp(port_, "Bo", "127.0.0.3");
    auto a = openLobby(port_, ana);
    auto b = openLobby(port_, bo);
    auto guest = openLobby(port_);
    a.tab->send({{"type", "seek.create"}, {"clock", kBlitz}, {"rated", true}});
    const Json seek = next(*a.tab, "lobby.seek")["seek"];
    EXPECT_EQ(next(*b.tab, "lobby.seek")["seek"]["id"], seek["id"]);
    // Ana cannot take her own seek, not even from another tab.
    auto a2 = openLobby(port_, ana);
    a2.tab->send({{"type", "seek.accept"}, {"seek", seek["id"]}});
    EXPECT_NE(next(*a2.tab, "error")["message"].get<std::string>().find("own"), std::string::npos);

    b.tab->send({{"type", "seek.accept"}, {"seek", seek["id"]}});
    const Json startA = next(*a.tab, "lobby.start");
    const Json startB = next(*b.tab, "lobby.start");
    EXPECT_EQ(startA["game"], "lasca");
    EXPECT_EQ(startA["table"], startB["table"]);
    EXPECT_NE(startA["colour"], startB["colour"]);
    EXPECT_NE(startA["token"], startB["token"]);
    EXPECT_EQ(startA["url"], "/?table=" + startA["table"].get<std::string>() +
                                 "&token=" + startA["token"].get<std::string>());
    // Every lobby tab is told the seek went and the game started, with its watch link.
    Json game, gone;
    while (game.is_null() || gone.is_null()) {
        const Json m = guest.tab->read();
        if (m["type"] == "lobby.game") game = m["game"];
        if (m["type"] == "lobby.seekGone") gone = m;
    }
    EXPECT_EQ(gone["seek"], seek["id"]);
    EXPECT_EQ(game["table"], startA["table"]);
    EXPECT_EQ(game["rated"], true);
    const std::string white = startA["colour"] == "white" ? "Ana" : "Bo";
    EXPECT_EQ(game["white"], white);

    // Each opens its link signed in: the seats are bound already, play starts at once.
    const auto& whiteStart = startA["colour"] == "white" ? startA : startB;
    const auto& blackStart = startA["colour"] == "white" ? startB : startA;
    Tab w(port_, "/ws", "", white == "Ana" ? ana : bo);
    w.readState();
    w.send(
        {{"type", "lasca.join"}, {"table", whiteStart["table"]}, {"token", whiteStart["token"]}});
    Json state = w.readState();
    EXPECT_EQ(state["rated"], true);
    EXPECT_EQ(state["players"]["white"], white);
    EXPECT_EQ(state["players"]["black"], white == "Ana" ? "Bo" : "Ana");
    const std::string first = state["legal"][0]["move"];
    w.send({{"type", "move"}, {"ply", 0}, {"move", first}});
    EXPECT_EQ(w.readState()["moves"].size(), 1U);
    // The other's link is refused to a guest (the seat is bound to its account).
    Tab g(port_);
    g.readState();
    g.send(
        {{"type", "lasca.join"}, {"table", blackStart["table"]}, {"token", blackStart["token"]}});
    Json refused;
    do refused = g.read();
    while (refused["type"] == "state");
    EXPECT_EQ(refused["type"], "error");
    // The watch link opens the table to anyone.
    const std::string watch = game["watch"];
    const auto token = watch.substr(watch.find("&token=") + 7);
    g.send({{"type", "lasca.join"}, {"table", game["table"]}, {"token", token}});
    const Json watched = g.readState();
    EXPECT_EQ(watched["seat"], "watch");
    EXPECT_EQ(watched["moves"].size(), 1U);
    // A lobby opened now lists the game; it leaves the list when the game ends.
    auto later = openLobby(port_);
    ASSERT_EQ(later.hello["games"].size(), 1U);
    EXPECT_EQ(later.hello["games"][0]["table"], game["table"]);
    w.send({{"type", "resign"}});
    EXPECT_EQ(w.readState()["status"]["rule"], "resign");
    EXPECT_EQ(next(*later.tab, "lobby.gameGone")["table"], game["table"]);
}

TEST_F(LobbyServer, ASeekAcceptedTwiceAtOnceMakesOneTable) {
    const auto ana = test::signUp(port_, "Ana", "127.0.0.2");
    const auto bo = test::signUp(port_, "Bo", "127.0.0.3");
    const auto cy = test::signUp(port_, "Cy", "127.0.0.4");
    auto a = openLobby(port_, ana);
    auto b = openLobby(port_, bo);
    auto c = openLobby(port_, cy);
    for (int round = 0; round < 5; ++round) {
        a.tab->send({{"type", "seek.create"}, {"clock", kBlitz}, {"rated", round % 2 == 0}});
        const Json seek = next(*a.tab, "lobby.seek")["seek"];
        next(*b.tab, "lobby.seek");
        next(*c.tab, "lobby.seek");
        // Both accept before either reads anything.
        b.tab->send({{"type", "seek.accept"}, {"seek", seek["id"]}});
        c.tab->send({{"type", "seek.accept"}, {"seek", seek["id"]}});
        int started = 0, gone = 0;
        for (auto* tab : {b.tab.get(), c.tab.get()}) {
            for (;;) {
                const Json m = tab->read();
                if (m["type"] == "lobby.start") {
                    ++started;
                    break;
                }
                if (m["type"] == "error") {
                    EXPECT_NE(m["message"].get<std::string>().find("gone"), std::string::npos);
                    ++gone;
                    break;
                }
            }
        }
        EXPECT_EQ(started, 1);
        EXPECT_EQ(gone, 1);
        const Json start = next(*a.tab, "lobby.start");
        EXPECT_EQ(start["game"], "lasca");
    }
}

TEST_F(LobbyServer, ASeekGoesWithItsMakersTab) {
    auto watcher = openLobby(port_);
    std::string id;
    {
        auto maker = openLobby(port_);
        maker.tab->send({{"type", "seek.create"}, {"clock", nullptr}});
        id = next(*maker.tab, "lobby.seek")["seek"]["id"];
        EXPECT_EQ(next(*watcher.tab, "lobby.seek")["seek"]["id"], id);
    }  // the maker's tab closes
    EXPECT_EQ(next(*watcher.tab, "lobby.seekGone")["seek"], id);
    watcher.tab->send({{"type", "seek.accept"}, {"seek", id}});
    EXPECT_EQ(next(*watcher.tab, "error")["message"], "the seek is gone");
    EXPECT_TRUE(openLobby(port_).hello["seeks"].empty());
}

TEST_F(LobbyServer, AChallengeIsDeclinedWithAReasonOrAcceptedAsAGame) {
    const auto ana = test::signUp(port_, "Ana", "127.0.0.2");
    const auto bo = test::signUp(port_, "Bo", "127.0.0.3");
    auto a = openLobby(port_, ana);
    auto b = openLobby(port_, bo);
    auto guest = openLobby(port_);
    // Names without regard to case; a guest cannot challenge; nobody challenges a name not here.
    a.tab->send({{"type", "challenge.create"}, {"to", "BO"}, {"clock", kBlitz}, {"rated", true}});
    const Json sent = next(*a.tab, "lobby.challenge")["challenge"];
    EXPECT_EQ(sent["mine"], true);
    EXPECT_EQ(sent["to"], "Bo");
    const Json received = next(*b.tab, "lobby.challenge")["challenge"];
    EXPECT_EQ(received["from"], "Ana");
    EXPECT_EQ(received["mine"], false);
    guest.tab->send({{"type", "challenge.create"}, {"to", "Bo"}, {"clock", kBlitz}});
    EXPECT_NE(next(*guest.tab, "error")["message"].get<std::string>().find("sign in"),
              std::string::npos);
    a.tab->send({{"type", "challenge.create"}, {"to", "Zed"}, {"clock", kBlitz}});
    EXPECT_NE(next(*a.tab, "error")["message"].get<std::string>().find("not in the lobby"),
              std::string::npos);
    // Ana cannot answer her own challenge; a reason must be one of the list.
    a.tab->send({{"type", "challenge.accept"}, {"challenge", sent["id"]}});
    EXPECT_EQ(next(*a.tab, "error")["type"], "error");
    b.tab->send({{"type", "challenge.decline"}, {"challenge", sent["id"]}, {"reason", "<b>"}});
    EXPECT_EQ(next(*b.tab, "error")["type"], "error");
    b.tab->send({{"type", "challenge.decline"}, {"challenge", sent["id"]}, {"reason", "tooFast"}});
    const Json declined = next(*a.tab, "lobby.challengeGone");
    EXPECT_EQ(declined["declined"], true);
    EXPECT_EQ(declined["by"], "Bo");
    EXPECT_EQ(declined["reason"], "tooFast");
    EXPECT_NE(declined["text"].get<std::string>().find("too fast"), std::string::npos);
    EXPECT_EQ(next(*b.tab, "lobby.challengeGone")["challenge"], sent["id"]);
    // Accepted: the game opens for both.
    const Json slower = {{"time", 600000}, {"increment", 5000}};
    a.tab->send({{"type", "challenge.create"}, {"to", "bo"}, {"clock", slower}, {"rated", true}});
    const Json again = next(*b.tab, "lobby.challenge")["challenge"];
    EXPECT_EQ(again["speed"], "rapid");
    b.tab->send({{"type", "challenge.accept"}, {"challenge", again["id"]}});
    const Json startB = next(*b.tab, "lobby.start");
    const Json startA = next(*a.tab, "lobby.start");
    EXPECT_EQ(startA["table"], startB["table"]);
    EXPECT_NE(startA["colour"], startB["colour"]);
}

TEST_F(LobbyServer, ATorneioTableGathersPeopleAndStartsWhenTheLastSits) {
    const auto ana = test::signUp(port_, "Ana", "127.0.0.2");
    const auto bo = test::signUp(port_, "Bo", "127.0.0.3");
    auto a = openLobby(port_, ana);
    auto b = openLobby(port_, bo);
    auto guest = openLobby(port_);
    // A rated table of 3 seats for 2 people (one AI seat): shown to accounts only.
    a.tab->send({{"type", "torneio.open"},
                 {"seats", 3},
                 {"people", 2},
                 {"level", 0},
                 {"rounds", 30},
                 {"rated", true}});
    const Json offer = next(*a.tab, "lobby.offer")["offer"];
    EXPECT_EQ(offer["mine"], true);
    EXPECT_EQ(offer["free"], 1);
    EXPECT_EQ(offer["sitting"], Json::array({"Ana"}));
    EXPECT_EQ(next(*b.tab, "lobby.offer")["offer"]["id"], offer["id"]);
    EXPECT_TRUE(openLobby(port_).hello["offers"].empty()) << "a guest does not see a rated table";
    guest.tab->send({{"type", "torneio.sit"}, {"offer", offer["id"]}});
    EXPECT_NE(next(*guest.tab, "error")["message"].get<std::string>().find("sign in"),
              std::string::npos);
    // Bad offers are refused with one error each.
    for (const Json& bad :
         {Json{{"type", "torneio.open"}, {"seats", 5}, {"people", 2}},
          Json{{"type", "torneio.open"}, {"seats", 3}, {"people", 4}},
          Json{{"type", "torneio.open"}, {"seats", 3}, {"people", 2}, {"level", 9}},
          Json{{"type", "torneio.open"}, {"seats", 2}, {"people", 2}, {"rounds", 0}},
          Json{{"type", "torneio.sit"}, {"offer", "nothing"}}}) {
        b.tab->send(bad);
        EXPECT_EQ(next(*b.tab, "error")["type"], "error") << bad;
    }
    a.tab->send({{"type", "torneio.sit"}, {"offer", offer["id"]}});
    EXPECT_EQ(next(*a.tab, "error")["type"], "error") << "the maker sits already";
    b.tab->send({{"type", "torneio.sit"}, {"offer", offer["id"]}});
    const Json startA = next(*a.tab, "lobby.start");
    const Json startB = next(*b.tab, "lobby.start");
    EXPECT_EQ(startA["game"], "torneio");
    EXPECT_EQ(startA["table"], startB["table"]);
    EXPECT_EQ(startA["seat"], 1);
    EXPECT_EQ(startB["seat"], 2);
    EXPECT_EQ(next(*b.tab, "lobby.offerGone")["offer"], offer["id"]);
    // Each seat opens for its own account only: rated, with both names.
    Tab other(port_, "/ws/torneio", "", bo);
    next(other, "hello");
    other.send({{"type", "torneio.join"}, {"table", startA["table"]}, {"token", startA["token"]}});
    EXPECT_NE(next(other, "error")["message"].get<std::string>().find("another player"),
              std::string::npos);
    Tab seat(port_, "/ws/torneio", "", ana);
    next(seat, "hello");
    seat.send({{"type", "torneio.join"}, {"table", startA["table"]}, {"token", startA["token"]}});
    const Json joined = next(seat, "torneio.joined");
    EXPECT_EQ(joined["rated"], true);
    EXPECT_EQ(joined["seat"], 1);
    EXPECT_EQ(joined["seats"][0]["player"], "Ana");
    EXPECT_EQ(joined["seats"][1]["player"], "Bo");
    EXPECT_EQ(joined["seats"][2]["kind"], "ai");

    // A casual table: a guest sits, and the maker standing up withdraws it.
    a.tab->send({{"type", "torneio.open"}, {"seats", 2}, {"people", 2}});
    const Json casual = next(*guest.tab, "lobby.offer")["offer"];
    guest.tab->send({{"type", "torneio.sit"}, {"offer", casual["id"]}});
    EXPECT_EQ(next(*guest.tab, "lobby.start")["seat"], 2);
    a.tab->send({{"type", "torneio.open"}, {"seats", 2}, {"people", 2}});
    Json withdrawn;
    do withdrawn = next(*b.tab, "lobby.offer")["offer"];
    while (withdrawn["id"] == casual["id"]);
    a.tab->send({{"type", "torneio.stand"}, {"offer", withdrawn["id"]}});
    const Json gone = next(*b.tab, "lobby.offerGone");
    EXPECT_EQ(gone["offer"], withdrawn["id"]);
}

TEST_F(LobbyServer, TheTabsAreToldHowManyAreInTheLobby) {
    auto first = openLobby(port_);
    EXPECT_EQ(first.hello["people"], 1);
    auto second = openLobby(port_);
    EXPECT_EQ(second.hello["people"], 2);
    // Told once the count changed (at most once every few seconds): 2, then 1 after one left.
    EXPECT_EQ(next(*first.tab, "lobby.people")["people"], 2);
    second.tab.reset();
    EXPECT_EQ(next(*first.tab, "lobby.people")["people"], 1);
}

TEST_F(LobbyServer, AForeignOriginCannotOpenTheLobby) {
    // The WebSocket upgrade from another origin is refused before any room sees it.
    const auto reply = test::exchange(port_, boost::beast::http::verb::get, "/ws/lobby", "",
                                      {"http://evil.example", "", "127.0.0.1"});
    EXPECT_NE(reply.status, 101);
    EXPECT_NE(reply.status, 200);
}

// A seat's tab played by "random" on its own thread until its view says the game is over: every
// view with a pending request is answered (a repeated answer is refused and ignored). `lines`
// collects the protocol lines the seat received.
void playRandomly(Tab& seat, std::vector<std::string>& lines, std::string& failure) {
    try {
        for (;;) {
            const Json m = seat.read();
            if (m["type"] != "torneio.view") continue;
            for (const auto& line : m["lines"]) lines.push_back(line);
            if (m["started"] == true && m["over"] == true) return;
            if (!m["request"].is_null()) seat.send({{"type", "torneio.act"}, {"action", "random"}});
        }
    } catch (const std::exception& e) {
        failure = e.what();
    }
}

// The kinds of events every seat sees (D8, torneio/rules/event.h).
bool publicLine(const std::string& line) {
    for (const char* kind :
         {"turn", "moved", "pass", "combat", "unopposed", "reveal", "result", "eliminated",
          "refused", "retreat", "removed", "withdrew", "gained", "forfeit", "end", "disqualified"})
        if (line.starts_with(std::string("event ") + kind + " ")) return true;
    return false;
}

TEST_F(LobbyServer, ARunningTorneioTableIsListedAndWatchedLiveUntilItEnds) {
    const auto ana = test::signUp(port_, "Ana", "127.0.0.2");
    const auto bo = test::signUp(port_, "Bo", "127.0.0.3");
    auto a = openLobby(port_, ana);
    auto b = openLobby(port_, bo);
    auto third = openLobby(port_);  // a guest who only watches
    a.tab->send(
        {{"type", "torneio.open"}, {"seats", 3}, {"people", 2}, {"level", 0}, {"rounds", 3}});
    const Json offer = next(*a.tab, "lobby.offer")["offer"];
    b.tab->send({{"type", "torneio.sit"}, {"offer", offer["id"]}});
    const Json startA = next(*a.tab, "lobby.start");
    const Json startB = next(*b.tab, "lobby.start");
    const std::string table = startA["table"];

    // The third tab is told of the running table, with a link that names no seat.
    const Json game = next(*third.tab, "lobby.game")["game"];
    EXPECT_EQ(game["kind"], "torneio");
    EXPECT_EQ(game["table"], table);
    EXPECT_EQ(game["watch"], "/torneio?watch=" + table);
    const std::string listed = game.dump();
    EXPECT_EQ(listed.find(startA["token"].get<std::string>()), std::string::npos);
    EXPECT_EQ(listed.find(startB["token"].get<std::string>()), std::string::npos);
    ASSERT_EQ(game["seats"].size(), 3U);
    EXPECT_EQ(game["seats"][0]["player"], "Ana");
    EXPECT_EQ(game["seats"][1]["player"], "Bo");
    EXPECT_EQ(game["seats"][2]["kind"], "ai");
    EXPECT_EQ(game["rounds"], 3);
    auto later = openLobby(port_);
    bool inHello = false;
    for (const auto& g : later.hello["games"]) inHello = inHello || g["table"] == table;
    EXPECT_TRUE(inHello) << later.hello["games"];
    // ... and on /games, with the same link.
    EXPECT_NE(test::get(port_, "/games").text.find("/torneio?watch=" + table), std::string::npos);

    // The guest opens the link: the table's public view, live.
    Tab watcher(port_, "/ws/torneio");
    next(watcher, "hello");
    watcher.send({{"type", "torneio.watch"}, {"table", table}});
    const Json watching = next(watcher, "torneio.watching");
    EXPECT_EQ(watching["seats"][0]["player"], "Ana");
    // It holds no seat: an action is refused.
    watcher.send({{"type", "torneio.act"}, {"action", "random"}});
    EXPECT_EQ(next(watcher, "error")["type"], "error");

    // Both people play at random on their own threads while the guest watches.
    Tab seatA(port_, "/ws/torneio", "", ana);
    Tab seatB(port_, "/ws/torneio", "", bo);
    next(seatA, "hello");
    next(seatB, "hello");
    seatA.send({{"type", "torneio.join"}, {"table", table}, {"token", startA["token"]}});
    seatB.send({{"type", "torneio.join"}, {"table", table}, {"token", startB["token"]}});
    std::vector<std::string> linesA, linesB;
    std::string failureA, failureB;
    // Joined when they go out of scope, whatever happens below (each ends with the game).
    std::jthread playerA([&] { playRandomly(seatA, linesA, failureA); });
    std::jthread playerB([&] { playRandomly(seatB, linesB, failureB); });
    std::vector<std::string> events;
    std::string everything;
    int views = 0;
    for (;;) {
        const Json m = watcher.read();
        if (m["type"] != "torneio.watchView") continue;
        ++views;
        everything += m.dump() + "\n";
        const std::size_t from = m["eventsFrom"];
        if (from == 0) events.clear();
        EXPECT_EQ(from, events.size()) << "each view goes on where the last one ended";
        for (const auto& line : m["events"]) events.push_back(line);
        if (m["over"] == true) break;
    }
    playerA.join();
    playerB.join();
    ASSERT_EQ(failureA, "");
    ASSERT_EQ(failureB, "");
    EXPECT_GT(views, 2) << "the watcher was told as the game went";
    // Every line the watcher got is public, and each seat's public lines are the watcher's, in
    // order, for as long as the seat was in the game; nothing private of either seat is there.
    for (const auto& line : events) EXPECT_TRUE(publicLine(line)) << line;
    for (const auto* lines : {&linesA, &linesB}) {
        std::size_t at = 0;
        for (const auto& line : *lines) {
            if (!line.starts_with("event ")) continue;
            if (!publicLine(line)) {
                EXPECT_EQ(everything.find(line.substr(6)), std::string::npos) << "leaked: " << line;
                continue;
            }
            ASSERT_LT(at, events.size()) << line;
            EXPECT_EQ(events[at++], line);
        }
        EXPECT_GT(at, 0U);
    }
    EXPECT_TRUE(events.back().starts_with("event end ")) << events.back();

    // The table leaves the list when it ends, and its link no longer opens.
    EXPECT_EQ(next(*later.tab, "lobby.gameGone")["table"], table);
    Tab late(port_, "/ws/torneio");
    next(late, "hello");
    late.send({{"type", "torneio.watch"}, {"table", table}});
    EXPECT_EQ(next(late, "error")["type"], "error");
}

TEST_F(LobbyServer, APrivateTorneioTableIsNeitherListedNorWatched) {
    auto lobbyTab = openLobby(port_);
    Tab maker(port_, "/ws/torneio");
    next(maker, "hello");
    maker.send({{"type", "torneio.create"},
                {"seats", Json::array({{{"kind", "person"}}, {{"kind", "random"}}})},
                {"rounds", 5}});
    const Json created = next(maker, "torneio.created");
    const std::string table = created["table"];
    const std::string token = created["seats"][0]["token"];
    // Not in the lobby, nor on /games.
    EXPECT_EQ(openLobby(port_).hello["games"].dump().find(table), std::string::npos);
    const auto games = test::get(port_, "/games");
    EXPECT_EQ(games.status, 200);
    EXPECT_EQ(games.text.find(table), std::string::npos);
    // Its id, its seat's token, a made-up id: each refused with an error reply.
    for (const std::string& id : {table, token, std::string("0123456789ab"), std::string("")}) {
        Tab watcher(port_, "/ws/torneio");
        next(watcher, "hello");
        watcher.send({{"type", "torneio.watch"}, {"table", id}});
        const Json refused = next(watcher, "error");
        EXPECT_EQ(refused["type"], "error") << id;
    }
    // A bad message is refused too.
    Tab odd(port_, "/ws/torneio");
    next(odd, "hello");
    odd.send({{"type", "torneio.watch"}, {"table", table}, {"token", token}});
    EXPECT_EQ(next(odd, "error")["type"], "error");
}

}  // namespace
}  // namespace web::server
