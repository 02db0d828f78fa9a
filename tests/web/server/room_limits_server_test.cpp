// The limits per address of the rooms in the real lasca-web, set small on its command line and
// reached by count, each tab connecting from its own loopback address (127.0.0.2, ...): Torneio
// tables made from one address, a table made and left that blocks nobody, new kept Lasca games
// from one address, two-person tables made from one address. (The rules themselves are tested
// without sockets in rooms_test.cpp; this shows the flags reach them and the addresses are the
// connections'.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "live_server.h"
#include "test_directory.h"

namespace web::server {
namespace {

using test::createTable;
using test::Json;
using test::Server;
using test::Tab;

// The answer to a Torneio message: the next `torneio.created`, `torneio.joined` or `error`.
Json torneioAnswer(Tab& tab, const Json& m) {
    tab.send(m);
    for (;;) {
        Json r = tab.read();
        const std::string type = r.value("type", "");
        if (type == "torneio.created" || type == "torneio.joined" || type == "error") return r;
    }
}
const Json kTorneioCreate = {{"type", "torneio.create"},
                             {"seats", Json::array({{{"kind", "person"}}, {{"kind", "random"}}})},
                             {"rounds", 1}};

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST(RoomLimits, EachAddressMeetsItsOwnLimitsOnTheRealServer) {
    const std::string db = (common::test::testDirectory() / "web.db").string();
    auto server =
        Server::start(db, 0,
                      {"--max-torneio-tables", "2", "--max-torneio-tables-per-address", "1",
                       "--max-duels-per-address", "1", "--max-games-per-address", "1"});
    ASSERT_TRUE(server);
    const std::string& port = server->port;

    // Torneio: one table an address, refused with the limit named.
    Tab a(port, "/ws/torneio", "127.0.0.2");
    EXPECT_EQ(a.read()["type"], "hello");
    const Json made = torneioAnswer(a, kTorneioCreate);
    ASSERT_EQ(made["type"], "torneio.created") << made.dump();
    const Json joined = torneioAnswer(
        a,
        {{"type", "torneio.join"}, {"table", made["table"]}, {"token", made["seats"][0]["token"]}});
    ASSERT_EQ(joined["type"], "torneio.joined") << joined.dump();
    Tab a2(port, "/ws/torneio", "127.0.0.2");
    EXPECT_EQ(a2.read()["type"], "hello");
    const Json refused = torneioAnswer(a2, kTorneioCreate);
    EXPECT_TRUE(contains(refused.value("message", ""), "already has 1 Torneio table"))
        << refused.dump();
    // A table made and left (the room is full with it) does not block another address.
    {
        Tab b(port, "/ws/torneio", "127.0.0.3");
        EXPECT_EQ(b.read()["type"], "hello");
        EXPECT_EQ(torneioAnswer(b, kTorneioCreate)["type"], "torneio.created");
    }
    Tab c(port, "/ws/torneio", "127.0.0.4");
    EXPECT_EQ(c.read()["type"], "hello");
    const Json third = torneioAnswer(c, kTorneioCreate);
    EXPECT_EQ(third["type"], "torneio.created") << third.dump();

    // Lasca: one new kept game an hour from an address; beyond, played but not kept.
    const auto playOne = [&](const std::string& from, std::vector<std::string>& errors) {
        Tab tab(port, "/ws", from);
        tab.readState();
        tab.send({{"type", "new"}, {"engine", "none"}});
        tab.readState();
        tab.send({{"type", "move"}, {"ply", 0}, {"move", "c3-d4"}});
        return tab.readState(&errors);
    };
    std::vector<std::string> errors;
    EXPECT_EQ(playOne("127.0.0.2", errors)["kept"], true);
    EXPECT_TRUE(errors.empty());
    const Json notKept = playOne("127.0.0.2", errors);
    EXPECT_EQ(notKept["kept"], false);
    EXPECT_EQ(notKept["moves"].size(), 1u) << "played all the same";
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_TRUE(contains(errors[0], "started 1 kept game within the hour")) << errors[0];
    errors.clear();
    EXPECT_EQ(playOne("127.0.0.3", errors)["kept"], true) << "another address has its own";

    // Two-person tables: one an address while its tab shows it.
    Tab d1(port, "/ws", "127.0.0.5");
    const auto table = createTable(d1, nullptr);
    ASSERT_TRUE(table);
    d1.send({{"type", "lasca.join"}, {"table", table->id}, {"token", table->white}});
    EXPECT_EQ(d1.readState()["seat"], "white");
    Tab d2(port, "/ws", "127.0.0.5");
    std::string unexpected;
    EXPECT_FALSE(createTable(d2, nullptr, &unexpected));
    EXPECT_TRUE(contains(unexpected, "already has 1 two-person table on")) << unexpected;
    Tab e(port, "/ws", "127.0.0.6");
    EXPECT_TRUE(createTable(e, nullptr));
}

}  // namespace
}  // namespace web::server
