// GET /health, the check a front (HAProxy) and an operator ask each instance: 200 while its
// database answers a round trip, 503 once it does not (the instance still serves its pages),
// and the engine pool's counts. On SQLite (Health.*) and on a throwaway PostgreSQL cluster
// (HealthPostgres.*, label `postgres`: scripts/pg-cluster.sh).
#include <gtest/gtest.h>

#include <string>

#include "live_server.h"
#include "pg_cluster.h"
#include "test_directory.h"

namespace web::server {
namespace {

using common::test::testDirectory;
using test::Server;

TEST(Health, AnInstanceSaysItsDatabaseAnswersAndItsEngines) {
    auto server = Server::start((testDirectory() / "web.db").string(), 0, {"--max-engines", "3"});
    ASSERT_TRUE(server);
    const auto health = test::get(server->port, "/health");
    ASSERT_EQ(health.status, 200) << health.text;
    EXPECT_EQ(health.contentType, "application/json");
    EXPECT_EQ(health.body["status"], "ok");
    EXPECT_EQ(health.body["store"]["backend"], "sqlite");
    EXPECT_EQ(health.body["store"]["ok"], true);
    EXPECT_EQ(health.body["engines"]["slots"], 3);
    EXPECT_EQ(health.body["engines"]["busy"], 0);
    EXPECT_EQ(health.body["engines"]["queued"], 0);
    EXPECT_TRUE(health.body["home"].is_null()) << "one server alone holds no leases";
    // Only GET and HEAD, like every page; a foreign Host is refused as anywhere.
    EXPECT_EQ(test::post(server->port, "/health", test::Json::object()).status, 405);
}

TEST(Health, AnInstanceOfSeveralSaysItsLeases) {
    auto server = Server::start((testDirectory() / "web.db").string(), 0,
                                {"--instance", "web7", "--lease-ms", "600000"});
    ASSERT_TRUE(server);
    const auto health = test::get(server->port, "/health");
    ASSERT_EQ(health.status, 200) << health.text;
    const auto& home = health.body["home"];
    EXPECT_EQ(home["instance"], "web7");
    EXPECT_EQ(home["leaseMs"], 600000);
    EXPECT_EQ(home["renewed"], true) << "renewed before the first connection";
    EXPECT_GE(home["sinceRenewalMs"].get<int>(), 0);
    EXPECT_EQ(home["tables"], 0);
    EXPECT_EQ(home["takeovers"], 0);
    EXPECT_EQ(home["staleWrites"], 0);
    test::Tab tab(server->port);  // a kept game is a table this instance holds
    tab.readState();
    tab.send({{"type", "move"}, {"ply", 0}, {"move", "c3-d4"}});
    EXPECT_EQ(tab.readState()["moves"].size(), 1U);
    EXPECT_EQ(test::get(server->port, "/health").body["home"]["tables"], 1);
}

TEST(HealthPostgres, AnInstanceWhoseDatabaseStopsSaysSoAndServesItsPages) {
    web::test::PgCluster cluster;
    const auto started = cluster.start("health", "fsync=off");
    ASSERT_EQ(started, "") << started;
    std::string error;
    const auto url = cluster.createDatabase("lasca_health", error);
    ASSERT_NE(url, "") << error;
    auto server = Server::start(url);
    ASSERT_TRUE(server);
    const auto up = test::get(server->port, "/health");
    ASSERT_EQ(up.status, 200) << up.text;
    EXPECT_EQ(up.body["store"]["backend"], "postgresql");
    EXPECT_EQ(up.body["store"]["ok"], true);
    cluster.stop();
    const auto down = test::get(server->port, "/health");
    EXPECT_EQ(down.status, 503) << down.text;
    EXPECT_EQ(down.body["status"], "failing");
    EXPECT_EQ(down.body["store"]["ok"], false);
    EXPECT_FALSE(down.body["store"]["error"].get<std::string>().empty());
    EXPECT_EQ(test::get(server->port, "/").status, 200) << "the page is still served";
}

}  // namespace
}  // namespace web::server
