// What the Torneio room says to a person, with fake connections: every refusal and notice a
// page can meet (a table that cannot be made, a link that opens no seat, a seat bound to an
// account, a decision that breaks a rule at set-up and on a turn, a decision when none is asked,
// the seat opened in another window) carries a key of both catalogues (server.torneio.*) whose
// params fill every placeholder, whose Portuguese differs from its English, and whose English is
// the reply's "message" (what programs read). The server's thread is the test's: it runs the
// room's posted handlers one at a time, waiting only for the table's thread.
#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fake_peer.h"
#include "torneio_room.h"
#include "web/i18n/i18n.h"
#include "web/server/server.h"
#include "web/store/store.h"
#include "web/web_test_util.h"

namespace web::server {
namespace {

// The hang guard of every wait: it only ends a test that would never end.
constexpr std::chrono::seconds kHangGuard{120};

// A tab of the room (fake_peer.h) that acts at its seat.
struct Conn : fake::Conn {
    using fake::Conn::Conn;
    std::vector<Json> act(const std::string& action) {
        return say({{"type", "torneio.act"}, {"action", action}});
    }
    // The newest view of a started game this tab was sent (null before one).
    Json view() const {
        Json last;
        for (const auto& m : peer->received)
            if (m.value("type", "") == "torneio.view" && m.value("started", false)) last = m;
        return last;
    }
};

// `key` with `params` in both languages (web_test_util.h).
void expectSaid(const std::string& key, const Json& params, const std::string& where) {
    web::test::expectSaidInBothLanguages(key, params, where);
}

// The one error among `replies` is `key`, said in both languages, its English the message.
void expectRefused(const std::vector<Json>& replies, const std::string& key,
                   const std::string& where) {
    const Json error = test::lastOfType(replies, "error");
    ASSERT_FALSE(error.is_null()) << where << ": not refused";
    EXPECT_EQ(error.value("key", ""), key) << where << ": " << error.dump();
    const Json params = error.value("params", Json::object());
    expectSaid(error.value("key", ""), params, where);
    EXPECT_EQ(error.value("message", ""),
              i18n::builtIn().text("en", error.value("key", ""), params))
        << where;
}

struct TorneioTexts : ::testing::Test {
    boost::asio::io_context io;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work =
        boost::asio::make_work_guard(io);
    std::unique_ptr<store::Store> db = std::move(store::Store::open("")).value();
    ServerConfig config = [] {
        ServerConfig c;
        c.maxTorneioTables = 3;
        c.maxTorneioTablesPerAddress = 1;
        return c;
    }();
    std::shared_ptr<TorneioRoom> room =
        std::make_shared<TorneioRoom>(config, *db, io.get_executor());
    ~TorneioTexts() override { room->clear(); }

    // Runs the room's posted handlers until `ready()`; false when the hang guard ran out.
    template <class Ready>
    bool serveUntil(Ready ready) {
        const auto deadline = std::chrono::steady_clock::now() + kHangGuard;
        while (!ready()) {
            if (std::chrono::steady_clock::now() >= deadline) return false;
            io.run_one_for(kHangGuard);
        }
        return true;
    }
    // A table of one person and one random player made from `conn`: id and the person's token.
    std::pair<std::string, std::string> create(Conn& conn, int rounds = 1) {
        const auto replies =
            conn.say({{"type", "torneio.create"},
                      {"seats", Json::array({{{"kind", "person"}}, {{"kind", "random"}}})},
                      {"rounds", rounds}});
        const Json made = test::lastOfType(replies, "torneio.created");
        if (made.is_null()) return {};
        return {made["table"].get<std::string>(), made["seats"][0]["token"].get<std::string>()};
    }
    std::vector<Json> join(Conn& conn, const std::string& table, const std::string& token) {
        return conn.say({{"type", "torneio.join"}, {"table", table}, {"token", token}});
    }
    Person account(const std::string& name) {
        const auto made = db->createAccount(name, name, "hash", 1000);
        EXPECT_TRUE(made.ok() && made.value());
        return made.ok() && made.value() ? Person{made.value()->id, name} : Person{};
    }
};

Json seats(std::initializer_list<const char*> kinds) {
    Json out = Json::array();
    for (const char* kind : kinds) out.push_back({{"kind", kind}});
    return out;
}

TEST_F(TorneioTexts, ATableThatCannotBeMadeSaysWhyInBothLanguages) {
    Conn a(*room, "10.0.0.1");
    expectRefused(
        a.say({{"type", "torneio.create"}, {"seats", seats({"random", "ai"})}, {"rounds", 10}}),
        "server.torneio.noPerson", "no person seat");
    for (const int rounds : {0, 201})
        expectRefused(a.say({{"type", "torneio.create"},
                             {"seats", seats({"person", "ai"})},
                             {"rounds", rounds}}),
                      "server.torneio.rounds", "rounds " + std::to_string(rounds));
    // One table per address (shown, so never dropped); then a room full of shown tables.
    const auto first = create(a);
    ASSERT_FALSE(first.first.empty());
    ASSERT_FALSE(test::lastOfType(join(a, first.first, first.second), "torneio.joined").is_null());
    Conn again(*room, "10.0.0.1");
    expectRefused(
        again.say({{"type", "torneio.create"}, {"seats", seats({"person", "ai"})}, {"rounds", 10}}),
        "server.torneio.addressFull", "a second table from one address");
    std::vector<std::unique_ptr<Conn>> others;  // open to the end: their tables are shown
    for (const std::string address : {"10.0.0.2", "10.0.0.3"}) {
        others.push_back(std::make_unique<Conn>(*room, address));
        const auto table = create(*others.back());
        ASSERT_FALSE(table.first.empty());
        join(*others.back(), table.first, table.second);
    }
    Conn late(*room, "10.0.0.4");
    expectRefused(
        late.say({{"type", "torneio.create"}, {"seats", seats({"person", "ai"})}, {"rounds", 10}}),
        "server.torneio.full", "a room full of shown tables");
}

TEST_F(TorneioTexts, ALinkThatOpensNoSeatSaysWhyInBothLanguages) {
    Conn a(*room, "10.0.0.1");
    expectRefused(a.act("random"), "server.torneio.join.first", "an act before a join");
    expectRefused(join(a, "no-such-table", "0123"), "server.torneio.join.noTable", "no table");
    const auto table = create(a);
    ASSERT_FALSE(table.first.empty());
    expectRefused(join(a, table.first, "0123"), "server.torneio.join.noSeat", "a wrong token");
    ASSERT_FALSE(test::lastOfType(join(a, table.first, table.second), "torneio.joined").is_null());
    expectRefused(join(a, table.first, table.second), "server.torneio.join.already",
                  "a second join");
    // The seat opened in another window: the first is told, in both languages.
    Conn b(*room, "10.0.0.1");
    ASSERT_FALSE(test::lastOfType(join(b, table.first, table.second), "torneio.joined").is_null());
    const Json left = test::lastOfType(a.peer->received, "torneio.left");
    ASSERT_FALSE(left.is_null());
    EXPECT_EQ(left["key"], "server.torneio.left");
    EXPECT_EQ(left["text"], "this seat was opened in another window: play it there");
    expectSaid(left["key"], left["params"], "torneio.left");
    expectRefused(a.act("random"), "server.torneio.join.first", "an act after the seat left");
}

TEST_F(TorneioTexts, ASeatBoundToAnAccountSaysWhoMayOpenItInBothLanguages) {
    const Person ana = account("Ana"), bo = account("Bo");
    const auto rated =
        room->createForLobby({{"person", 1}, {"person", 1}}, 5, {ana, bo}, true, "10.0.0.9");
    ASSERT_TRUE(rated.ok()) << rated.error();
    const auto casual =
        room->createForLobby({{"person", 1}, {"random", 1}}, 5, {ana}, false, "10.0.0.8");
    ASSERT_TRUE(casual.ok()) << casual.error();
    Conn guest(*room, "10.0.0.1"), asBo(*room, "10.0.0.2", bo);
    expectRefused(join(guest, rated.value().id, rated.value().tokens[0]),
                  "server.torneio.join.signInRated", "a guest at a rated seat");
    expectRefused(join(asBo, rated.value().id, rated.value().tokens[0]),
                  "server.torneio.join.othersRated", "another's rated seat");
    expectRefused(join(guest, casual.value().id, casual.value().tokens[0]),
                  "server.torneio.join.signIn", "a guest at a bound seat");
    expectRefused(join(asBo, casual.value().id, casual.value().tokens[0]),
                  "server.torneio.join.others", "another's bound seat");
}

// A game of one round against a random player, each rule broken once before the legal decision
// (at the set-up, then on the turn), and a decision sent once nothing is asked.
TEST_F(TorneioTexts, ARefusedDecisionSaysTheRuleItBreaksInBothLanguages) {
    Conn a(*room, "10.0.0.1");
    const auto table = create(a, 1);
    ASSERT_FALSE(table.first.empty());
    ASSERT_FALSE(test::lastOfType(join(a, table.first, table.second), "torneio.joined").is_null());
    const auto asked = [&](const char* kind) {
        const Json v = a.view();
        return !v.is_null() && v["request"].is_object() && v["request"]["kind"] == kind;
    };
    ASSERT_TRUE(serveUntil([&] { return asked("setup"); })) << "no set-up asked";
    const Json setUp = a.view();
    std::vector<std::string> zone;
    for (const auto& square : setUp["zone"]) zone.push_back(square);
    ASSERT_GE(zone.size(), 4u);
    // A square two ranks or more from every square of the zone (a home zone is two ranks deep).
    const std::string far = zone[0][1] <= '2' ? "h8" : "a1";
    const auto setup = [&](const std::string& king, const std::string& w1, const std::string& s) {
        return "setup king " + king + " warriors " + w1 + ":3 " + zone[2] + ":3 " + zone[3] + ":" +
               s;
    };
    expectRefused(a.act("fly away"), "server.torneio.refused.unreadable", "not a decision");
    expectRefused(a.act("move 1 a1"), "server.torneio.refused.expectSetUp", "a move at set-up");
    expectRefused(a.act(setup(far, zone[1], "4")), "server.torneio.refused.notZone",
                  "the king outside the zone");
    expectRefused(a.act(setup(zone[0], zone[0], "4")), "server.torneio.refused.twoPieces",
                  "two pieces on a square");
    expectRefused(a.act(setup(zone[0], zone[1], "3")), "server.torneio.refused.strengthTotal",
                  "strengths adding up to 9");
    EXPECT_TRUE(test::lastOfType(a.act(setup(zone[0], zone[1], "4")), "error").is_null());

    ASSERT_TRUE(serveUntil([&] { return asked("turn"); })) << "no turn asked";
    const Json turn = a.view();
    const std::string king = turn["own"][0]["square"];
    expectRefused(a.act(setup(zone[0], zone[1], "4")), "server.torneio.refused.expectTurn",
                  "a set-up on a turn");
    expectRefused(a.act("combat " + king), "server.torneio.refused.noWarrior",
                  "a combat on the king's square");
    expectRefused(a.act("pass"), "server.torneio.refused.noPass", "a pass that is not allowed");
    expectRefused(a.act("move 1 " + far), "server.torneio.refused.warriorTarget",
                  "a warrior too far");
    expectRefused(a.act("move 0 " + far), "server.torneio.refused.kingTarget", "the king too far");

    // Every later decision legal, to the end of the round (the game's last); each request
    // answered once (the view that asks it is the newest until the answer's view comes).
    std::size_t answered = 0;
    ASSERT_TRUE(serveUntil([&] {
        const Json v = a.view();
        if (v.is_null()) return false;
        if (v["over"].get<bool>()) return true;
        if (v["request"].is_object() && v["lineCount"].get<std::size_t>() != answered) {
            answered = v["lineCount"];
            const Json& choices = v["request"]["choices"];
            const auto replies = a.act(choices.empty() ? "random" : choices[0].get<std::string>());
            EXPECT_TRUE(test::lastOfType(replies, "error").is_null()) << v["request"].dump();
        }
        return false;
    })) << "the game did not end";
    expectRefused(a.act("random"), "server.torneio.refused.notAsked", "a decision after the end");
}

// Refusals no fake connection can cause on demand (the store failing) are keys too.
TEST(TorneioTextsCatalogue, TheStoresFailuresAreSaidInBothLanguages) {
    for (const char* key : {"server.torneio.savingFailed", "server.torneio.savingFailedTable",
                            "server.torneio.join.cannotLoad"})
        expectSaid(key, {{"error", "disk I/O error"}}, key);
}

}  // namespace
}  // namespace web::server
