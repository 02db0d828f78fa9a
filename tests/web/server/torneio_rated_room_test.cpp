// Rated Torneio tables in the room (torneio_room.h) with fake connections, each signed in as an
// account or a guest: a table made for the lobby binds its person seats to their accounts, so a
// guest is refused a rated seat and another account a seat bound to someone else (also once the
// table is restored from the store); a rated table of two accounts and two AI seats played to
// its end through the room (every request answered `random` through torneio.act) ends with the
// accounts' Torneio ratings equal to web::ratings::afterTorneioGame's on the finishing places
// among the accounts (one rating grown by its time away first), kept with the end, and shown on
// the player page. The server's thread is the test's: it runs the room's posted handlers one at
// a time (io_context::run_one_for), waiting only for the table's thread, never for a time.
#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "torneio/rules/record.h"
#include "torneio_room.h"
#include "web/pages/account_games.h"
#include "web/pages/games_page.h"
#include "web/pages/player_page.h"
#include "web/ratings/ratings.h"
#include "web/server/server.h"
#include "web/store/store.h"
#include "web/torneio_tables/finishing_places.h"
#include "web/web_test_util.h"

namespace web::server {
namespace {

using torneio_tables::TorneioSeatChoice;

// The hang guard of every wait: generous, it only ends a test that would never end.
constexpr std::chrono::seconds kHangGuard{120};
constexpr std::int64_t kDay = 86'400'000;

// SignedPeer: a connection from one address, signed in as `person` (nothing: a guest), that
// keeps what it is sent.
class SignedPeer : public Peer {
  public:
    explicit SignedPeer(std::optional<Person> person) : person_(std::move(person)) {}
    void send(const std::vector<Json>& messages) override {
        received.insert(received.end(), messages.begin(), messages.end());
    }
    void sendAndClose(const std::vector<Json>& messages) override { send(messages); }
    const std::string& address() const override { return address_; }
    std::optional<Person> person() const override { return person_; }

    std::vector<Json> received;

  private:
    std::optional<Person> person_;
    std::string address_ = "10.0.0.1";
};

struct Conn {
    std::shared_ptr<SignedPeer> peer;
    std::shared_ptr<Tab> tab;

    Conn(Room& room, std::optional<Person> person)
        : peer(std::make_shared<SignedPeer>(std::move(person))) {
        tab = room.open(peer);
    }
    std::vector<Json> say(const Json& m) {
        const std::size_t before = peer->received.size();
        tab->onMessage(m.dump());
        return {peer->received.begin() + static_cast<std::ptrdiff_t>(before), peer->received.end()};
    }
    // torneio.join: the `torneio.joined` message, or the error's text as {"error": text}.
    Json join(const std::string& table, const std::string& token) {
        const auto replies = say({{"type", "torneio.join"}, {"table", table}, {"token", token}});
        const Json joined = test::lastOfType(replies, "torneio.joined");
        if (!joined.is_null()) return joined;
        const Json error = test::lastOfType(replies, "error");
        return {{"error", error.is_null() ? std::string("no answer") : error.value("message", "")}};
    }
};

std::string errorOf(const Json& joined) {
    return joined.value("error", "");
}

struct TorneioRatedRoom : ::testing::Test {
    boost::asio::io_context io;
    std::unique_ptr<store::Store> db = std::move(store::Store::open("")).value();
    ServerConfig config;
    std::shared_ptr<TorneioRoom> room =
        std::make_shared<TorneioRoom>(config, *db, io.get_executor());
    ~TorneioRatedRoom() override { room->clear(); }

    Person account(const std::string& name) {
        const auto made = db->createAccount(name, name, "hash", 1000);
        EXPECT_TRUE(made.ok() && made.value());
        return made.ok() && made.value() ? Person{made.value()->id, name} : Person{};
    }
};

TEST_F(TorneioRatedRoom, AGuestAndAnotherAccountAreRefusedASeatBoundToAnAccount) {
    const Person ana = account("ana"), bo = account("bo"), cy = account("cy");
    const std::vector<TorneioSeatChoice> seats = {{"person", 1}, {"person", 1}, {"random", 0}};
    const auto made = room->createForLobby(seats, 3, {ana, bo}, true, "10.0.0.1");
    ASSERT_TRUE(made.ok()) << made.error();
    const auto& [id, tokens] = made.value();
    ASSERT_EQ(tokens.size(), 3u);
    EXPECT_TRUE(tokens[2].empty()) << "an AI seat has no token";
    Conn guest(*room, std::nullopt), asCy(*room, cy), asBo(*room, bo), asAna(*room, ana);
    EXPECT_EQ(errorOf(guest.join(id, tokens[0])), "sign in to play at a rated table");
    EXPECT_EQ(errorOf(asCy.join(id, tokens[0])),
              "this seat of the rated table is another player's");
    EXPECT_EQ(errorOf(asBo.join(id, tokens[0])),
              "this seat of the rated table is another player's");
    const Json joined = asAna.join(id, tokens[0]);
    ASSERT_EQ(errorOf(joined), "");
    EXPECT_TRUE(joined["rated"].get<bool>());
    EXPECT_EQ(joined["seats"][0]["player"], "ana");
    EXPECT_EQ(joined["seats"][1]["player"], "bo");
    EXPECT_FALSE(joined["seats"][2].contains("player"));
    const auto kept = db->loadTorneioTable(id).value();
    ASSERT_TRUE(kept);
    EXPECT_TRUE(kept->rated);
    EXPECT_EQ(kept->seats[1].account, bo.id);
    EXPECT_EQ(kept->seats[1].name, "bo");

    // Restored from the store (the room dropped it): the same seats, bound as before.
    room->clear();
    Conn guest2(*room, std::nullopt), asAna2(*room, ana), asBo2(*room, bo);
    EXPECT_EQ(errorOf(guest2.join(id, tokens[1])), "sign in to play at a rated table");
    EXPECT_EQ(errorOf(asAna2.join(id, tokens[1])),
              "this seat of the rated table is another player's");
    const Json back = asBo2.join(id, tokens[1]);
    ASSERT_EQ(errorOf(back), "");
    EXPECT_TRUE(back["rated"].get<bool>());
    EXPECT_EQ(back["seats"][0]["player"], "ana");

    // A rated table needs every person signed in, one account a seat; the persons match the
    // person seats.
    EXPECT_FALSE(room->createForLobby(seats, 3, {ana, std::nullopt}, true, "10.0.0.2").ok());
    EXPECT_FALSE(room->createForLobby(seats, 3, {ana, ana}, true, "10.0.0.2").ok());
    EXPECT_FALSE(room->createForLobby(seats, 3, {ana}, false, "10.0.0.2").ok());
    EXPECT_FALSE(room->createForLobby(seats, 0, {ana, bo}, true, "10.0.0.2").ok());
    // An unrated lobby table with a guest: the guest's seat is anyone's, the account's is not.
    const auto casual = room->createForLobby(seats, 3, {ana, std::nullopt}, false, "10.0.0.2");
    ASSERT_TRUE(casual.ok()) << casual.error();
    Conn guest3(*room, std::nullopt), guest4(*room, std::nullopt);
    EXPECT_EQ(errorOf(guest3.join(casual.value().id, casual.value().tokens[0])),
              "sign in to open this seat");
    const Json guestSeat = guest4.join(casual.value().id, casual.value().tokens[1]);
    ASSERT_EQ(errorOf(guestSeat), "");
    EXPECT_FALSE(guestSeat["rated"].get<bool>());
    EXPECT_EQ(guestSeat["seats"][0]["player"], "ana");
    EXPECT_FALSE(guestSeat["seats"][1].contains("player"));
    // A table made from a page binds nobody and is not rated.
    const auto created =
        guest3.say({{"type", "torneio.create"},
                    {"seats", Json::array({{{"kind", "person"}}, {{"kind", "random"}}})},
                    {"rounds", 1}});
    const Json page = test::lastOfType(created, "torneio.created");
    ASSERT_FALSE(page.is_null());
    EXPECT_FALSE(page["rated"].get<bool>());
    EXPECT_FALSE(page["seats"][0].contains("player"));
}

TEST_F(TorneioRatedRoom, ARatedTablePlayedToItsEndRatesItsAccountsByTheirPlaces) {
    const Person ana = account("ana"), bo = account("bo"), cy = account("cy");
    // Ana has played before, ten days ago: her rating grows by the time away before this game.
    const std::int64_t before = nowMilliseconds() - 10 * kDay;
    store::StoredTorneioTable earlier;
    earlier.id = "earlier";
    earlier.params = "seats 2";
    earlier.seats = {{"person", 1, "h1", ana.id, ""}, {"person", 1, "h2", cy.id, ""}};
    earlier.rated = true;
    ASSERT_TRUE(db->createTorneioTable(earlier).ok());
    const common::Rating anaBefore{1700, 80, 0.06};
    ASSERT_TRUE(db->finishRatedTorneioTable(
                      "earlier", "win 1", "", before,
                      [&](const auto&) -> common::Result<std::vector<common::Rating>> {
                          return std::vector<common::Rating>{anaBefore, common::startRating()};
                      })
                    .ok());

    const std::vector<TorneioSeatChoice> seats = {
        {"person", 1}, {"random", 0}, {"person", 1}, {"random", 0}};
    const auto made = room->createForLobby(seats, 40, {ana, bo}, true, "10.0.0.1");
    ASSERT_TRUE(made.ok()) << made.error();
    const auto& [id, tokens] = made.value();
    Conn asAna(*room, ana), asBo(*room, bo);
    ASSERT_EQ(errorOf(asAna.join(id, tokens[0])), "");
    ASSERT_EQ(errorOf(asBo.join(id, tokens[2])), "");

    // Every view with a request is answered `random` (a stale one is refused, harmlessly).
    auto guard = boost::asio::make_work_guard(io);
    std::size_t seenAna = 0, seenBo = 0;
    const auto answer = [](Conn& conn, std::size_t& seen) {
        for (; seen < conn.peer->received.size(); ++seen) {
            const Json& m = conn.peer->received[seen];
            const bool asked = m.value("type", "") == "torneio.view" && m.contains("request") &&
                               !m["request"].is_null();
            if (asked) conn.say({{"type", "torneio.act"}, {"action", "random"}});
        }
    };
    const auto deadline = std::chrono::steady_clock::now() + kHangGuard;
    for (;;) {
        answer(asAna, seenAna);
        answer(asBo, seenBo);
        const auto kept = db->loadTorneioTable(id);
        ASSERT_TRUE(kept.ok() && kept.value());
        if (!kept.value()->result.empty()) break;
        ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "the game did not end";
        io.run_one_for(kHangGuard);
    }

    const auto kept = db->loadTorneioTable(id).value();
    EXPECT_GT(kept->decisions.size(), 4u) << "four set-ups, then play";
    const auto record = torneio::parseRecord(kept->record);
    ASSERT_TRUE(record.ok()) << record.error();
    const auto places = torneio_tables::finishingPlaces(record.value());
    ASSERT_TRUE(places);

    // Ana (seat 1) and Bo (seat 3) placed between themselves; the AI seats do not count.
    const int anaPlace = (*places)[0] <= (*places)[2] ? 1 : 2;
    const int boPlace = (*places)[2] <= (*places)[0] ? 1 : 2;
    const auto anaRatings = db->ratingsOf(ana.id).value();
    const auto boRatings = db->ratingsOf(bo.id).value();
    ASSERT_EQ(anaRatings.size(), 1u);
    ASSERT_EQ(boRatings.size(), 1u);
    const std::int64_t at = anaRatings[0].lastGame;
    EXPECT_EQ(boRatings[0].lastGame, at);
    EXPECT_EQ(kept->updated, at);
    EXPECT_EQ(anaRatings[0].games, 2);
    EXPECT_EQ(boRatings[0].games, 1);
    const auto grown = common::withTimeAway(
        anaBefore, static_cast<double>(at - before) / static_cast<double>(kDay));
    ASSERT_TRUE(grown.ok());
    const std::vector<ratings::TorneioSeat> rated = {{grown.value(), anaPlace},
                                                     {common::startRating(), boPlace}};
    const auto expected = ratings::afterTorneioGame(rated);
    ASSERT_TRUE(expected.ok()) << expected.error();
    EXPECT_DOUBLE_EQ(anaRatings[0].rating.rating, expected.value()[0].rating);
    EXPECT_DOUBLE_EQ(anaRatings[0].rating.deviation, expected.value()[0].deviation);
    EXPECT_DOUBLE_EQ(anaRatings[0].rating.volatility, expected.value()[0].volatility);
    EXPECT_DOUBLE_EQ(boRatings[0].rating.rating, expected.value()[1].rating);
    EXPECT_DOUBLE_EQ(boRatings[0].rating.deviation, expected.value()[1].deviation);
    EXPECT_EQ(anaRatings[0].category, store::kTorneioCategory);

    // The player page: the Torneio rating, its history (the earlier game, then this one) and
    // the finished tables, newest first.
    const auto page = pages::playerPage(*db, "/api/@/bo");
    ASSERT_TRUE(page);
    ASSERT_EQ(page->status, 200);
    const Json bos = Json::parse(page->body);
    ASSERT_EQ(bos["ratings"].size(), 1u);
    EXPECT_EQ(bos["ratings"][0]["category"], "torneio");
    EXPECT_TRUE(bos["ratings"][0]["provisional"].get<bool>());
    ASSERT_EQ(bos["history"].size(), 1u);
    EXPECT_EQ(bos["history"][0]["game"], 2);
    ASSERT_EQ(bos["torneioTables"].size(), 1u);
    EXPECT_EQ(bos["torneioTables"][0]["table"], 2);
    EXPECT_EQ(bos["torneioTables"][0]["seat"], 3);
    EXPECT_EQ(bos["torneioTables"][0]["rated"], true);
    EXPECT_EQ(bos["torneioTables"][0]["result"], kept->result);
    EXPECT_EQ(bos["torneioTables"][0]["seats"][0]["player"], "ana");
    EXPECT_EQ(bos["torneioTables"][0]["record"], "/games/torneio/2");
    const auto anas = Json::parse(pages::playerPage(*db, "/api/@/ana")->body);
    ASSERT_EQ(anas["history"].size(), 2u);
    EXPECT_EQ(anas["history"][0]["game"], 1);
    EXPECT_EQ(anas["torneioTables"].size(), 2u);
    const std::string html = pages::playerPage(*db, "/@/ana")->body;
    EXPECT_NE(html.find("<td>torneio</td>"), std::string::npos);
    EXPECT_NE(html.find("torneio rating history"), std::string::npos);
    EXPECT_NE(html.find("href=\"/games/torneio/2\""), std::string::npos);
    EXPECT_NE(html.find("<a href=\"/@/bo\">bo</a>"), std::string::npos);

    // Bo's Torneio records to download: this table's record, whole; Ana's file both tables,
    // oldest first, or only the newest when the budget holds one.
    const auto boAccount = db->findAccount("bo");
    ASSERT_TRUE(boAccount.ok() && boAccount.value());
    const auto file = pages::accountTorneioRecords(*db, *boAccount.value());
    ASSERT_EQ(file.status, 200);
    EXPECT_EQ(file.headers.at(0).second, "attachment; filename=\"bo-torneio.txt\"");
    EXPECT_EQ(file.body.rfind("# table 2: " + kept->result + "\n", 0), 0U) << file.body;
    EXPECT_NE(file.body.find(pages::torneioTableText(*kept)), std::string::npos);
    const auto anaAccount = db->findAccount("ana");
    ASSERT_TRUE(anaAccount.ok() && anaAccount.value());
    const auto both = pages::accountTorneioRecords(*db, *anaAccount.value());
    EXPECT_LT(both.body.find("# table 1: "), both.body.find("# table 2: "));
    const auto newest = pages::accountTorneioRecords(*db, *anaAccount.value(), 10);
    EXPECT_EQ(newest.body.find("# table 1: "), std::string::npos);
    EXPECT_NE(newest.body.find("# table 2: "), std::string::npos);
    EXPECT_EQ(newest.body.rfind("# the oldest tables are left out", 0), 0U);
}

}  // namespace
}  // namespace web::server
