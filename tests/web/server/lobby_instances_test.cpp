// One lobby on two instances (lobby_room.h): two LobbyRooms, each on its own Store with homes on
// (web1, web2), sharing one database of a throwaway PostgreSQL cluster, with a bus the test
// holds: each room's events wait in a queue per room until the test delivers them, so that the
// order in which instances hear them is the test's to choose (the real bus, LISTEN/NOTIFY, is
// tested by web.pg.store and, with three lasca-web instances, by web.pg.cluster).
//   - A seek made on web1 is accepted on web2: web2 makes the table and holds it; each tab is
//     told its own seat, and the seats' token hashes are those of the tokens each instance told
//     its tab (no token crossed); both lobbies list the game, and unlist it at its end.
//   - web2 takes a seek before web1 has heard its own event: web1's tab still gets its seat.
//   - A challenge crosses: found by name on the other instance, declined (the reason reaches the
//     challenger), accepted; one to a person in no lobby is refused; the challenged person's last
//     tab closing withdraws it.
//   - A Torneio offer gathers people on both instances: the table is made with each person's
//     hash, in the order they sat, and each tab told its seat.
//   - An instance that stops renewing: the other drops its tabs' offers and tells its tabs, and
//     no longer counts its tabs among the lobby's people.
#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <boost/asio.hpp>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "../pg_cluster.h"
#include "common/seed.h"
#include "duel_room.h"
#include "fake_peer.h"
#include "lobby_room.h"
#include "web/store/store.h"
#include "web/web_test_util.h"

namespace web::server {
namespace {

using fake::Conn;

[[maybe_unused]] const ::testing::Environment* const kCluster =
    ::testing::AddGlobalTestEnvironment(new web::test::PgClusterEnvironment);

constexpr std::int64_t kLease = 60000;

Json ofType(const std::vector<Json>& replies, const std::string& type) {
    return web::test::lastOfType(replies, type);
}

// A Torneio table as the lobby asks for it, remembered instead of made.
struct MadeTorneio {
    std::vector<std::optional<Person>> persons;
    std::vector<std::string> hashes;
    int seats = 0;
};

class TwoLobbies : public ::testing::Test {
  protected:
    // One instance: its store, its two-person tables, its lobby and the events it has yet to
    // hear.
    struct Instance {
        std::unique_ptr<store::Store> store;
        std::shared_ptr<DuelRoom> duels;
        std::shared_ptr<LobbyRoom> lobby;
        std::deque<std::string> unheard;
    };

    void SetUp() override {
        static int databases = 0;
        std::string error;
        url = web::test::PgClusterEnvironment::cluster().createDatabase(
            "lobby_" + std::to_string(++databases), error);
        ASSERT_FALSE(url.empty()) << error;
        for (int i = 0; i < 2; ++i) {
            auto& one = instances[i];
            auto opened = store::Store::open(url);
            ASSERT_TRUE(opened.ok()) << opened.error();
            one.store = std::move(opened).value();
            one.store->setHome("web" + std::to_string(i + 1), kLease);
            ASSERT_TRUE(one.store->renewHome().ok());
            one.duels = std::make_shared<DuelRoom>(io.get_executor(), *one.store, 10, 10);
            one.lobby = std::make_shared<LobbyRoom>(
                io.get_executor(), *one.store, one.duels,
                [this](const std::vector<torneio_tables::TorneioSeatChoice>& seats, int,
                       const std::vector<std::optional<Person>>& persons, bool, const std::string&,
                       const std::vector<std::string>& hashes) -> common::Result<MadeTorneioTable> {
                    torneio = MadeTorneio{persons, hashes, static_cast<int>(seats.size())};
                    return MadeTorneioTable{"t" + common::randomHex(4),
                                            std::vector<std::string>(seats.size())};
                },
                3,
                [this](const std::string& event) {
                    for (auto& each : instances) each.unheard.push_back(event);
                    return true;
                });
        }
        deliver();  // each start's "reload"
    }

    // Every instance hears what it has not yet heard, in order.
    void deliver() {
        for (bool more = true; more;) {
            more = false;
            for (auto& one : instances)
                while (!one.unheard.empty()) {
                    const std::string event = one.unheard.front();
                    one.unheard.pop_front();
                    one.lobby->heard(event);
                    more = true;
                }
        }
    }

    Person account(const std::string& name) {
        const auto made = instances[0].store->createAccount(name, name, "", 0);
        EXPECT_TRUE(made.ok() && made.value()) << name;
        return {made.ok() && made.value() ? made.value()->id : 0, name};
    }

    bool execRaw(const std::string& sql) {
        PGconn* conn = PQconnectdb(url.c_str());
        PGresult* done = PQexec(conn, sql.c_str());
        const bool ok = PQresultStatus(done) == PGRES_COMMAND_OK;
        PQclear(done);
        PQfinish(conn);
        return ok;
    }

    boost::asio::io_context io;
    std::string url;
    Instance instances[2];
    std::optional<MadeTorneio> torneio;
    LobbyRoom& web1() { return *instances[0].lobby; }
    LobbyRoom& web2() { return *instances[1].lobby; }
};

// The seat a Lasca table's stored row gives this token (by its hash), or "".
std::string seatOfToken(store::Store& store, const std::string& table, const std::string& token) {
    const auto kept = store.loadDuel(table);
    if (!kept.ok() || !kept.value()) return "no table";
    const std::string hash = common::hashSecret(token);
    if (kept.value()->whiteHash == hash) return "white";
    if (kept.value()->blackHash == hash) return "black";
    return "";
}

TEST_F(TwoLobbies, ASeekMadeOnOneIsAcceptedOnTheOtherWithNoTokenCrossing) {
    Conn ana(web1(), "10.0.0.1"), bo(web2(), "10.0.0.2"), eve(web2(), "10.0.0.3");
    const Json mine = ofType(ana.say({{"type", "seek.create"}, {"clock", nullptr}}), "lobby.seek");
    ASSERT_FALSE(mine.is_null()) << "its maker sees it at once";
    EXPECT_TRUE(mine["seek"]["mine"].get<bool>());
    EXPECT_TRUE(ofType(bo.peer->received, "lobby.seek").is_null()) << "web2 has not heard yet";
    deliver();
    const Json seen = ofType(bo.peer->received, "lobby.seek");
    ASSERT_FALSE(seen.is_null());
    EXPECT_FALSE(seen["seek"]["mine"].get<bool>());
    const std::string id = seen["seek"]["id"];
    EXPECT_EQ(std::count_if(ana.peer->received.begin(), ana.peer->received.end(),
                            [](const Json& m) { return m["type"] == "lobby.seek"; }),
              1)
        << "its own event read back changes nothing";

    EXPECT_TRUE(bo.say({{"type", "seek.accept"}, {"seek", id}}).empty());
    deliver();
    const Json a = ofType(ana.peer->received, "lobby.start");
    const Json b = ofType(bo.peer->received, "lobby.start");
    ASSERT_FALSE(a.is_null() || b.is_null());
    const std::string table = a["table"];
    EXPECT_EQ(b["table"], table);
    EXPECT_NE(a["colour"], b["colour"]);
    EXPECT_TRUE(instances[1].store->holds(store::homeKey("duel", table))) << "made where accepted";
    EXPECT_FALSE(instances[0].store->holds(store::homeKey("duel", table)));
    EXPECT_EQ(seatOfToken(*instances[0].store, table, a["token"]), a["colour"]);
    EXPECT_EQ(seatOfToken(*instances[0].store, table, b["token"]), b["colour"]);
    for (Conn* c : {&ana, &bo, &eve}) {
        EXPECT_EQ(ofType(c->peer->received, "lobby.seekGone")["seek"], id);
        EXPECT_EQ(ofType(c->peer->received, "lobby.game")["game"]["table"], table);
    }
    EXPECT_TRUE(ofType(eve.peer->received, "lobby.start").is_null());
    // Its end, on web2, unlists it on both.
    web2().gameEnded(table);
    deliver();
    EXPECT_EQ(ofType(ana.peer->received, "lobby.gameGone")["table"], table);
    EXPECT_EQ(ofType(eve.peer->received, "lobby.gameGone")["table"], table);
    // A tab opened later sees no game and no seek.
    Conn late(web1(), "10.0.0.4");
    const Json hello = ofType(late.peer->received, "lobby.hello");
    EXPECT_TRUE(hello["seeks"].empty());
    EXPECT_TRUE(hello["games"].empty());
}

TEST_F(TwoLobbies, ASeekTakenBeforeItsMakerHeardItStillSeatsTheMaker) {
    Conn ana(web1(), "10.0.0.1"), bo(web2(), "10.0.0.2");
    const std::string id =
        ofType(ana.say({{"type", "seek.create"}, {"clock", nullptr}}), "lobby.seek")["seek"]["id"];
    // web2 hears it and its tab accepts while web1 has not yet heard its own event.
    while (!instances[1].unheard.empty()) {
        web2().heard(instances[1].unheard.front());
        instances[1].unheard.pop_front();
    }
    EXPECT_TRUE(bo.say({{"type", "seek.accept"}, {"seek", id}}).empty());
    deliver();  // web1 hears "offer" (its row already gone), then "started"
    const Json a = ofType(ana.peer->received, "lobby.start");
    ASSERT_FALSE(a.is_null());
    EXPECT_EQ(seatOfToken(*instances[1].store, a["table"], a["token"]), a["colour"]);
    EXPECT_EQ(ofType(ana.peer->received, "lobby.seekGone")["seek"], id);
}

TEST_F(TwoLobbies, AChallengeCrossesInstancesAndItsAnswerComesBack) {
    const Person cara = account("cara"), davi = account("davi");
    Conn c(web1(), "10.0.0.1", cara), d(web2(), "10.0.0.2", davi);
    const Json nobody = ofType(c.say({{"type", "challenge.create"}, {"to", "edu"}}), "error");
    EXPECT_EQ(nobody["key"], "server.lobby.notInLobby");
    const Json sent =
        ofType(c.say({{"type", "challenge.create"}, {"to", "DAVI"}, {"clock", nullptr}}),
               "lobby.challenge");
    EXPECT_TRUE(sent["challenge"]["mine"].get<bool>()) << "its challenger sees it at once";
    deliver();
    const Json asked = ofType(d.peer->received, "lobby.challenge");
    ASSERT_FALSE(asked.is_null());
    EXPECT_EQ(asked["challenge"]["from"], "cara");
    const std::string first = asked["challenge"]["id"];
    EXPECT_TRUE(d.say({{"type", "challenge.decline"}, {"challenge", first}, {"reason", "tooFast"}})
                    .empty());
    deliver();
    const Json declined = ofType(c.peer->received, "lobby.challengeGone");
    EXPECT_EQ(declined["challenge"], first);
    EXPECT_TRUE(declined["declined"].get<bool>());
    EXPECT_EQ(declined["reason"], "tooFast");
    EXPECT_EQ(declined["key"], "server.lobby.decline.tooFast");

    c.say({{"type", "challenge.create"}, {"to", "davi"}, {"clock", nullptr}});
    deliver();
    const std::string second = ofType(d.peer->received, "lobby.challenge")["challenge"]["id"];
    EXPECT_TRUE(d.say({{"type", "challenge.accept"}, {"challenge", second}}).empty());
    deliver();
    EXPECT_TRUE(ofType(c.peer->received, "lobby.challengeGone")["accepted"].get<bool>());
    const Json cs = ofType(c.peer->received, "lobby.start");
    const Json ds = ofType(d.peer->received, "lobby.start");
    ASSERT_FALSE(cs.is_null() || ds.is_null());
    EXPECT_EQ(cs["table"], ds["table"]);
    const auto kept = instances[0].store->loadDuel(cs["table"]);
    ASSERT_TRUE(kept.ok() && kept.value());
    EXPECT_EQ(cs["colour"] == "white" ? kept.value()->whiteAccount : kept.value()->blackAccount,
              cara.id);
    EXPECT_EQ(seatOfToken(*instances[0].store, cs["table"], cs["token"]), cs["colour"]);

    // A third challenge waits; the challenged person's last lobby tab (on web2) closes.
    c.say({{"type", "challenge.create"}, {"to", "davi"}, {"clock", nullptr}});
    deliver();
    const std::string third = ofType(d.peer->received, "lobby.challenge")["challenge"]["id"];
    d.close();
    deliver();
    const Json left = ofType(c.peer->received, "lobby.challengeGone");
    EXPECT_EQ(left["challenge"], third);
    EXPECT_EQ(left["reason"], "left");
}

TEST_F(TwoLobbies, ATorneioOfferGathersPeopleOnBothInstances) {
    Conn ana(web1(), "10.0.0.1"), bo(web2(), "10.0.0.2"), cy(web1(), "10.0.0.3");
    ana.say({{"type", "torneio.open"}, {"seats", 4}, {"people", 3}, {"rounds", 5}});
    deliver();
    const std::string id = ofType(bo.peer->received, "lobby.offer")["offer"]["id"];
    EXPECT_TRUE(bo.say({{"type", "torneio.sit"}, {"offer", id}}).empty());
    deliver();
    EXPECT_EQ(ofType(cy.peer->received, "lobby.offer")["offer"]["free"], 1);
    EXPECT_TRUE(ofType(bo.peer->received, "lobby.offer")["offer"]["seated"].get<bool>());
    EXPECT_TRUE(cy.say({{"type", "torneio.sit"}, {"offer", id}}).empty());
    deliver();
    ASSERT_TRUE(torneio.has_value());
    EXPECT_EQ(torneio->seats, 4);
    ASSERT_EQ(torneio->hashes.size(), 3U);
    int seat = 1;
    for (Conn* c : {&ana, &bo, &cy}) {
        const Json start = ofType(c->peer->received, "lobby.start");
        ASSERT_FALSE(start.is_null()) << seat;
        EXPECT_EQ(start["game"], "torneio");
        EXPECT_EQ(start["seat"], seat) << "seats in the order people sat";
        EXPECT_EQ(common::hashSecret(start["token"].get<std::string>()),
                  torneio->hashes[static_cast<std::size_t>(seat - 1)]);
        EXPECT_EQ(ofType(c->peer->received, "lobby.offerGone")["offer"], id);
        EXPECT_EQ(ofType(c->peer->received, "lobby.game")["game"]["kind"], "torneio");
        ++seat;
    }
}

TEST_F(TwoLobbies, AnInstanceThatStopsRenewingLeavesNoOfferBehind) {
    Conn ana(web1(), "10.0.0.1"), bo(web2(), "10.0.0.2"), cy(web1(), "10.0.0.3");
    // The people: each instance's tabs, counted together.
    EXPECT_EQ(web2().countPeople(), 1U) << "web1 has not counted its tabs yet";
    EXPECT_EQ(web1().countPeople(), 3U);
    Conn dee(web1(), "10.0.0.4");
    EXPECT_EQ(ofType(dee.peer->received, "lobby.hello")["people"], 4) << "web2's one included";
    dee.close();
    ana.say({{"type", "seek.create"}, {"clock", nullptr}});
    ana.say({{"type", "torneio.open"}, {"seats", 3}, {"people", 2}, {"rounds", 5}});
    deliver();
    const std::string seek = ofType(bo.peer->received, "lobby.seek")["seek"]["id"];
    const std::string offer = ofType(bo.peer->received, "lobby.offer")["offer"]["id"];
    web2().dropLost();
    deliver();
    EXPECT_TRUE(ofType(bo.peer->received, "lobby.seekGone").is_null()) << "web1 renews";
    ASSERT_TRUE(
        execRaw("UPDATE instances SET renewed_at = renewed_at - 3600000 WHERE name = 'web1'"));
    web2().dropLost();
    deliver();
    EXPECT_EQ(ofType(bo.peer->received, "lobby.seekGone")["seek"], seek);
    EXPECT_EQ(ofType(bo.peer->received, "lobby.offerGone")["offer"], offer);
    const Json taken = ofType(bo.say({{"type", "seek.accept"}, {"seek", seek}}), "error");
    EXPECT_EQ(taken["key"], "server.lobby.seekGone");
    EXPECT_EQ(web2().countPeople(), 1U) << "web1's tabs no longer counted";
}

}  // namespace
}  // namespace web::server
