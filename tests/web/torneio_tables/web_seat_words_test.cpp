// A person's Torneio seat in the catalogues' words (web_seat_words.h): every event a seat's log
// can hold, from the seat's own side and another's, and every reason a decision is refused, is a
// key both catalogues have, whose params fill every placeholder, and whose Portuguese differs
// from its English; each refusal names the rule the decision breaks (the one checkAction finds).
// A whole game of a person seat against AI seats: every entry of its log is such a key, in order
// with the English the terminal seat writes.
#include "web/torneio_tables/web_seat_words.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "torneio/rules/action.h"
#include "torneio/rules/event.h"
#include "torneio/rules/geometry.h"
#include "torneio/rules/params.h"
#include "web/i18n/i18n.h"
#include "web/torneio_tables/torneio_table.h"
#include "web/web_test_util.h"

namespace web::torneio_tables {
namespace {

using messages::Json;
using messages::Say;
using torneio::Action;
using torneio::Event;
using torneio::EventKind;
using torneio::Geometry;
using torneio::OwnPieces;
using torneio::Request;
using torneio::RequestKind;
using torneio::Square;

// The hang guard of every wait: it only ends a test that would never end.
constexpr std::chrono::seconds kHangGuard{120};

// `key` with `params` in both languages (web_test_util.h).
void expectSaid(const std::string& key, const Json& params, const std::string& where) {
    web::test::expectSaidInBothLanguages(key, params, where);
}

void expectSaid(const Say& say, const std::string& where) {
    expectSaid(say.key, say.params, where);
}

Event event(EventKind kind, int seat) {
    Event e;
    e.kind = kind;
    e.seat = seat;
    return e;
}

// Every event a seat's log can hold, as seat 0 is told it: each kind about seat 0 itself and
// about seat 1, with the values that choose between messages (a king's reveal or a strength, no
// winner, one point or more, a win or a draw, each fault). Seat 0's private events are its own.
TEST(WebSeatWords, EveryLogEntryIsAKeyOfBothCataloguesFilledAndTranslated) {
    const Geometry g(torneio::defaultParams(3));
    const Square c3 = g.at(2, 2), d4 = g.at(3, 3), e5 = g.at(4, 4);
    std::vector<torneio::person::LogEntry> entries;
    const auto add = [&](Event e, Square combat = torneio::kNoSquare) {
        entries.push_back({3, "(English)", e, combat});
    };
    for (const int seat : {0, 1}) {
        for (const auto kind :
             {EventKind::Turn, EventKind::Moved, EventKind::Pass, EventKind::Withdrew}) {
            auto e = event(kind, seat);
            e.value = 3;
            add(e);
        }
        for (const auto kind : {EventKind::Combat, EventKind::Unopposed, EventKind::Refused,
                                EventKind::Retreat, EventKind::Removed}) {
            auto e = event(kind, seat);
            e.square = d4;
            add(e);
        }
        for (const int value : {torneio::kKingReveal, 0, 4}) {
            auto e = event(EventKind::Reveal, seat);
            e.value = value;
            add(e);
        }
        add(event(EventKind::Result, seat));
        add(event(EventKind::Eliminated, seat), d4);
        add(event(EventKind::Eliminated, seat));
        for (const auto kind : {EventKind::Gained, EventKind::Forfeit})
            for (const int points : {1, 2}) {
                auto e = event(kind, seat);
                e.value = points;
                add(e);
            }
        auto win = event(EventKind::End, -1);
        win.value = 1 << seat;
        add(win);
        for (int f = 0; f < torneio::kFaultCount; ++f) {
            auto e = event(EventKind::Disqualified, seat);
            e.value = f;
            add(e);
        }
    }
    add(event(EventKind::Result, -1));
    add(event(EventKind::End, -1));  // an end naming no seat
    for (const unsigned seats : {0b101u, 0b110u}) {
        auto draw = event(EventKind::End, -1);
        draw.draw = true;
        draw.value = static_cast<int>(seats);
        add(draw);
    }
    auto setUp = event(EventKind::SetUp, 0);
    setUp.setUp = {c3, {d4, e5, g.at(6, 6)}, {2, 3, 5}};
    add(setUp);
    for (const int piece : {torneio::kKing, 2}) {
        auto move = event(EventKind::Move, 0);
        move.piece = piece;
        move.square = c3;
        move.to = d4;
        add(move);
    }
    auto withdraw = event(EventKind::Withdraw, 0);
    withdraw.piece = 1;
    withdraw.square = d4;
    withdraw.to = e5;
    add(withdraw);
    auto placed = event(EventKind::Placed, 0);
    placed.piece = 3;
    placed.value = 6;
    add(placed);
    add(event(EventKind::Position, 0));

    std::set<std::string> keys;
    for (const auto& entry : entries) {
        const auto say = logSay(entry, 0, g);
        const std::string where = torneio::formatEvent(entry.event, g);
        EXPECT_TRUE(say.key.starts_with("torneio.log.")) << where << ": " << say.key;
        expectSaid(say, where);
        keys.insert(say.key);
        const Json json = logEntryJson(entry, 0, g);
        EXPECT_EQ(json["round"], 3);
        EXPECT_EQ(json["key"], say.key);
        EXPECT_EQ(json["params"], say.params);
        EXPECT_EQ(json["text"], "(English)") << "the terminal seat's English is kept";
    }
    // Seat 0's own events and another's are told apart, and every fault has its words: every
    // torneio.log.* message but torneio.log.round (the page's "R{round}: {text}") is said.
    EXPECT_EQ(keys.size(), 49u);
}

// The numbers the messages say are the event's: seats 1-based, squares by name.
TEST(WebSeatWords, ALogEntrySaysTheEventsSeatsSquaresAndCounts) {
    const Geometry g(torneio::defaultParams(3));
    auto combat = event(EventKind::Combat, 2);
    combat.square = g.at(3, 3);
    const auto said = logSay({5, "", combat, torneio::kNoSquare}, 0, g);
    EXPECT_EQ(said.key, "torneio.log.combat");
    EXPECT_EQ(i18n::builtIn().text("pt-BR", said.key, said.params),
              "O jogador 3 convoca um combate em d4.");
    EXPECT_EQ(i18n::builtIn().text("en", said.key, said.params), "Seat 3 calls a combat on d4.");
    auto draw = event(EventKind::End, -1);
    draw.draw = true;
    draw.value = 0b101;
    const auto mine = logSay({7, "", draw, torneio::kNoSquare}, 0, g);
    EXPECT_EQ(mine.key, "torneio.log.endDrawYou");
    EXPECT_EQ(mine.params["seats"], "1, 3");
    EXPECT_EQ(logSay({7, "", draw, torneio::kNoSquare}, 1, g).key, "torneio.log.endDraw");
    auto gained = event(EventKind::Gained, 0);
    gained.value = 1;
    EXPECT_EQ(i18n::builtIn().text("en", "torneio.log.gainedYou",
                                   logSay({2, "", gained, torneio::kNoSquare}, 0, g).params),
              "You gained 1 strength point.");
}

// RefusalCase: a decision checkAction refuses and the key that says why.
struct RefusalCase {
    std::string what;
    Request request;
    OwnPieces own;
    Action action;
    std::string key;
};

// Every reason a decision is refused, each on a position made for it, and the reason is the
// rule checkAction breaks (the same order of checks). Minimum strength 1, so that a warrior of
// strength 0 is below it (D3).
TEST(WebSeatWords, EveryRefusalNamesTheRuleTheDecisionBreaksInBothLanguages) {
    auto params = torneio::defaultParams(2);
    params.minStrength = 1;
    const Geometry g(params);
    const auto zone = g.zone(0);
    ASSERT_GE(zone.size(), 5u);
    const torneio::SetUp placed{zone[0], {zone[1], zone[2], zone[3]}, {3, 3, 4}};
    const OwnPieces own = torneio::piecesOf(placed);
    OwnPieces fewer = own;  // warrior 2 out of the game
    fewer[2].alive = false;
    fewer[2].square = torneio::kNoSquare;
    OwnPieces kingless = own;
    kingless[torneio::kKing].alive = false;
    kingless[torneio::kKing].square = torneio::kNoSquare;
    const Square far = g.zone(1)[0];  // the other side of the board
    const auto setUpWith = [&](torneio::SetUp s) { return torneio::setUpAction(s); };

    Request setUpRequest;
    setUpRequest.kind = RequestKind::SetUp;
    setUpRequest.seat = 0;
    Request turn;
    turn.kind = RequestKind::Turn;
    turn.seat = 0;
    turn.round = 1;
    // An order for seat 1's loser on warrior 1's square, one step refused already.
    Request order;
    order.kind = RequestKind::RetreatOrder;
    order.seat = 0;
    order.loser = 1;
    order.from = own[1].square;
    const auto steps = g.warriorSteps(order.from);
    order.refused = {steps[0]};
    Request withdraw;
    withdraw.kind = RequestKind::Withdraw;
    withdraw.seat = 0;
    withdraw.piece = 1;
    withdraw.from = own[1].square;
    Request reward;
    reward.kind = RequestKind::Reward;
    reward.seat = 0;
    reward.points = 1;

    auto twoOnOne = placed;
    twoOnOne.warriors[1] = placed.warriors[0];
    auto outside = placed;
    outside.king = far;
    auto weak = placed;
    weak.strengths = {0, 5, 5};
    auto short_ = placed;
    short_.strengths = {3, 3, 3};
    const std::vector<RefusalCase> cases = {
        {"a move asked for a set-up",
         setUpRequest,
         {},
         torneio::moveAction(1, zone[4]),
         "server.torneio.refused.expectSetUp"},
        {"the king outside the zone (D2)",
         setUpRequest,
         {},
         setUpWith(outside),
         "server.torneio.refused.notZone"},
        {"two pieces on one square (G5)",
         setUpRequest,
         {},
         setUpWith(twoOnOne),
         "server.torneio.refused.twoPieces"},
        {"a strength below the least (D3)",
         setUpRequest,
         {},
         setUpWith(weak),
         "server.torneio.refused.strengthMin"},
        {"strengths short of the total (G4)",
         setUpRequest,
         {},
         setUpWith(short_),
         "server.torneio.refused.strengthTotal"},
        {"a set-up asked for a turn", turn, own, setUpWith(placed),
         "server.torneio.refused.expectTurn"},
        {"a warrior out of the game", turn, fewer, torneio::moveAction(2, zone[4]),
         "server.torneio.refused.warriorOut"},
        {"a king out of the game", turn, kingless, torneio::moveAction(0, zone[4]),
         "server.torneio.refused.kingOut"},
        {"a warrior too far (G5)", turn, own, torneio::moveAction(1, far),
         "server.torneio.refused.warriorTarget"},
        {"the king too far (G5)", turn, own, torneio::moveAction(0, far),
         "server.torneio.refused.kingTarget"},
        {"a combat on the king's square (G7)", turn, own, torneio::combatAction(own[0].square),
         "server.torneio.refused.noWarrior"},
        {"a pass while pieces can move (D10)", turn, own, torneio::passAction(),
         "server.torneio.refused.noPass"},
        {"a pass asked for an order", order, own, torneio::passAction(),
         "server.torneio.refused.expectOrder"},
        {"an order too far (G9)", order, own, torneio::orderAction(far),
         "server.torneio.refused.notAStep"},
        {"an order refused already (D12)", order, own, torneio::orderAction(steps[0]),
         "server.torneio.refused.alreadyRefused"},
        {"a pass asked to withdraw", withdraw, own, torneio::passAction(),
         "server.torneio.refused.expectWithdraw"},
        {"a withdrawal too far (G9)", withdraw, own, torneio::withdrawAction(far),
         "server.torneio.refused.withdrawTarget"},
        {"a pass asked for a reward", reward, own, torneio::passAction(),
         "server.torneio.refused.expectReward"},
        {"a reward for a warrior out of the game (G10)", reward, fewer, torneio::rewardAction(2),
         "server.torneio.refused.warriorOut"},
    };
    for (const auto& c : cases) {
        ASSERT_FALSE(torneio::isLegal(c.request, c.own, g, c.action)) << c.what;
        const auto say = refusalSay(c.request, c.own, g, c.action);
        EXPECT_EQ(say.key, c.key) << c.what;
        expectSaid(say, c.what);
    }
    // A legal decision has no rule broken: refusalSay is never asked of one, and says so.
    const auto legal = refusalSay(turn, own, g, torneio::combatAction(own[1].square));
    EXPECT_EQ(legal.key, "server.torneio.refused.illegal");
    expectSaid(legal, "a legal decision");
}

// A whole game of a person seat (playing at random, as a page's "random" button does) against
// two AI seats: every entry of its log says its event as a key of both catalogues, filled and
// translated, oldest first as the seat's own English log.
TEST(WebSeatWords, EveryLogEntryOfAWholeGameIsSaidInBothLanguages) {
    std::set<std::string> keys;
    for (const std::uint64_t seed : {20261207u, 7u}) {
        std::mutex mutex;
        std::condition_variable changed;
        int changes = 0;
        TorneioTableHooks hooks;
        hooks.seatChanged = [&](int) {
            std::lock_guard lock(mutex);
            ++changes;
            changed.notify_all();
        };
        auto made =
            TorneioTable::create({{"person", 1}, {"random", 1}, {"heuristic", 1}}, 30, seed, hooks);
        ASSERT_TRUE(made) << made.error();
        auto table = made.value();
        table->start();
        WebSeat* web = table->webSeat(0);
        int seen = 0;
        for (;;) {
            {
                std::unique_lock lock(mutex);
                ASSERT_TRUE(changed.wait_until(lock, std::chrono::steady_clock::now() + kHangGuard,
                                               [&] { return changes != seen; }))
                    << "the game did not end";
                seen = changes;
            }
            const Json view = web->view(0, 0);
            if (!view["request"].is_null()) {
                ASSERT_FALSE(web->submit("random").has_value());
            }
            if (view["started"].get<bool>() && view["over"].get<bool>()) break;
        }
        ASSERT_TRUE(table->waitFinished(std::chrono::steady_clock::now() + kHangGuard));
        const Json view = web->view(0, 0);
        ASSERT_TRUE(view["over"].get<bool>());
        const Json& log = view["log"];
        ASSERT_EQ(log.size(), view["logCount"].get<std::size_t>());
        ASSERT_GT(log.size(), 10u);
        int round = 0;
        for (const auto& entry : log) {
            const std::string where = entry.dump();
            ASSERT_TRUE(entry["key"].is_string()) << where;
            EXPECT_TRUE(entry["key"].get<std::string>().starts_with("torneio.log.")) << where;
            EXPECT_FALSE(entry["text"].get<std::string>().empty()) << where;
            EXPECT_GE(entry["round"].get<int>(), round) << "oldest first";
            round = entry["round"].get<int>();
            expectSaid(entry["key"], entry["params"], where);
            keys.insert(entry["key"]);
        }
        EXPECT_EQ(log.front()["key"], "torneio.log.setup") << "the seat's own set-up first";
        const std::string last = log.back()["key"];
        EXPECT_TRUE(last.starts_with("torneio.log.end")) << last;
    }
    EXPECT_GE(keys.size(), 8u) << "moves, combats, reveals and the end";
}

}  // namespace
}  // namespace web::torneio_tables
