// A watcher of a Torneio table (public_view.h) is shown the public events (D8) and nothing else.
// A whole game of AI seats is played while a watcher takes every new view as the server would;
// each message it received must be the same function of the record's public events alone
// (publicViewJson over the first eventCount of them), the lines it received together must be
// exactly the record's public events in order, and no private event (a set-up with its king
// square and strengths, a move, a withdrawal, a placed point) may appear in any of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "torneio/rules/event.h"
#include "torneio/rules/geometry.h"
#include "torneio/rules/params.h"
#include "torneio/rules/record.h"
#include "web/torneio_tables/public_view.h"
#include "web/torneio_tables/torneio_table.h"

namespace web::torneio_tables {
namespace {

// The hang guard of every wait: generous, it only ends a test that would never end.
constexpr std::chrono::seconds kHangGuard{120};

// Watcher: takes the table's watcher view after each change, as the server's room does (what is
// new since the last one it took).
struct Watcher {
    std::mutex mutex;
    std::condition_variable changed;
    int changes = 0;
    std::vector<Json> received;
    std::size_t from = 0;
    int resets = 0;

    void notify() {
        std::lock_guard lock(mutex);
        ++changes;
        changed.notify_all();
    }
    void take(const TorneioTable& table) {
        Json view = table.publicView(from, resets);
        ASSERT_EQ(view["type"], "torneio.watchView") << view;
        from = view["eventCount"];
        resets = view["resets"];
        received.push_back(std::move(view));
    }
};

std::vector<torneio::Event> parsedPublic(const std::vector<std::string>& lines,
                                         const torneio::Geometry& geometry) {
    std::vector<torneio::Event> events;
    for (const auto& line : lines) {
        auto event = torneio::parseEvent(line, 0, geometry);
        EXPECT_TRUE(event) << line;
        if (event) events.push_back(event.value());
    }
    return events;
}

TEST(TorneioPublicView, AWatcherReceivesThePublicEventsOfAWholeGameAndNothingElse) {
    Watcher watcher;
    TorneioTableHooks hooks;
    hooks.publicChanged = [&watcher] { watcher.notify(); };
    auto created = TorneioTable::create(
        {{"heuristic", 0}, {"random", 0}, {"heuristic", 0}, {"random", 0}}, 40, 20261207, hooks);
    ASSERT_TRUE(created) << created.error();
    auto table = created.value();
    table->start();
    // Until a view says the game is over (its end is a public event, told like any other).
    const auto guard = std::chrono::steady_clock::now() + kHangGuard;
    int seen = 0;
    while (watcher.received.empty() || !watcher.received.back()["over"].get<bool>()) {
        {
            std::unique_lock lock(watcher.mutex);
            ASSERT_TRUE(watcher.changed.wait_until(lock, guard, [&] {
                return watcher.changes != seen;
            })) << "the game did not end";
            seen = watcher.changes;
        }
        watcher.take(*table);
    }
    ASSERT_TRUE(table->waitFinished(guard));
    watcher.take(*table);
    const auto record = table->record();
    ASSERT_TRUE(record.has_value());
    ASSERT_NE(record->outcome.kind, torneio::OutcomeKind::Ongoing);

    const torneio::Geometry geometry(record->params);
    const auto expected = publicEvents(*record);
    std::vector<std::string> expectedLines;
    for (const auto& e : expected) expectedLines.push_back(torneio::formatEvent(e, geometry));

    // The lines the watcher received, put together as its page does, are the public events.
    std::vector<std::string> lines;
    for (const auto& view : watcher.received) {
        const std::size_t from = view["eventsFrom"];
        if (from == 0) lines.clear();
        ASSERT_EQ(from, lines.size()) << "each view goes on where the last one ended";
        for (const auto& line : view["events"]) lines.push_back(line);
        EXPECT_EQ(lines.size(), view["eventCount"].get<std::size_t>());
    }
    EXPECT_EQ(lines, expectedLines);
    EXPECT_EQ(watcher.received.back()["resets"], 0) << "no seat was disqualified";

    // Every message is the same function of the public events alone: rebuilt from the record's
    // first eventCount public events, it is equal, field by field.
    for (const auto& view : watcher.received) {
        const std::size_t count = view["eventCount"];
        ASSERT_LE(count, expected.size());
        const std::vector<torneio::Event> prefix(expected.begin(),
                                                 expected.begin() + static_cast<long>(count));
        auto rebuilt = publicViewJson(record->params, table->seatsJson(), prefix,
                                      view["eventsFrom"].get<std::size_t>());
        ASSERT_TRUE(rebuilt) << rebuilt.error();
        Json got = view;
        for (const char* key : {"type", "table", "rated", "resets"}) got.erase(key);
        EXPECT_EQ(got, rebuilt.value());
    }
    const Json& last = watcher.received.back();
    EXPECT_TRUE(last["over"].get<bool>());
    ASSERT_TRUE(last["outcome"].is_object());
    EXPECT_EQ(last["outcome"]["draw"], record->outcome.kind == torneio::OutcomeKind::Draw);

    // No private event of any seat, nor its text, reached the watcher.
    std::string everything;
    for (const auto& view : watcher.received) everything += view.dump() + "\n";
    int hidden = 0;
    for (const auto& entry : record->entries) {
        if (entry.kind != torneio::RecordEntry::Kind::Event ||
            entry.event.audience == torneio::kPublic)
            continue;
        ++hidden;
        const std::string text = torneio::formatEvent(entry.event, geometry);
        // "event setup king c1 warriors a1:3 ...": the words after "event " are the secret.
        EXPECT_EQ(everything.find(text.substr(6)), std::string::npos) << "leaked: " << text;
    }
    EXPECT_GT(hidden, 0) << "the seats had private events";
    for (const char* word : {"setup", "warriors", "placed", "\"own\"", "request", "withdraw "})
        EXPECT_EQ(everything.find(word), std::string::npos) << word;
    // The seed's game has combats with strengths revealed, and pieces seen.
    EXPECT_TRUE(std::any_of(expected.begin(), expected.end(), [](const torneio::Event& e) {
        return e.kind == torneio::EventKind::Reveal && e.value >= 0;
    }));
    bool sighted = false;
    for (const auto& view : watcher.received) sighted = sighted || !view["sightings"].empty();
    EXPECT_TRUE(sighted);
    // A sighting's strength is one the seat revealed in public: the set-ups' strengths of the
    // pieces never revealed are nowhere.
    for (const auto& view : watcher.received)
        for (const auto& s : view["sightings"]) {
            const int strength = s["strength"];
            if (strength < 0) continue;
            bool revealed = false;
            for (const auto& e : expected)
                revealed = revealed || (e.kind == torneio::EventKind::Reveal &&
                                        e.seat + 1 == s["seat"].get<int>() && e.value == strength);
            EXPECT_TRUE(revealed) << s;
        }
}

// PublicRecord follows a game from its decisions; a seat the referee puts out is put out there
// too; the record of the end replaces the list when the two differ (and only then).
TEST(TorneioPublicView, APublicRecordFollowsTheDecisionsAndTheEndsRecord) {
    auto created =
        TorneioTable::create({{"random", 0}, {"random", 0}, {"heuristic", 0}}, 20, 7, {});
    ASSERT_TRUE(created) << created.error();
    auto table = created.value();
    table->start();
    ASSERT_TRUE(table->waitFinished(std::chrono::steady_clock::now() + kHangGuard));
    const auto record = table->record();
    ASSERT_TRUE(record.has_value());
    const auto expected = publicEvents(*record);

    PublicRecord followed(record->params);
    for (const auto& entry : record->entries)
        if (entry.kind == torneio::RecordEntry::Kind::Action)
            followed.decided(entry.seat, entry.action);
    EXPECT_EQ(followed.snapshot().events, expected);
    EXPECT_FALSE(followed.ended(*record)) << "the same events: nothing replaced";
    EXPECT_EQ(followed.snapshot().resets, 0);

    // Seat 2 put out after the first two decisions: its public event, and the end's record
    // (where it was not) replaces the list.
    PublicRecord cut(record->params);
    int decisions = 0;
    for (const auto& entry : record->entries)
        if (entry.kind == torneio::RecordEntry::Kind::Action && decisions++ < 2)
            cut.decided(entry.seat, entry.action);
    EXPECT_FALSE(cut.outOrOver(1));
    EXPECT_TRUE(cut.disqualified(1, torneio::Fault::Timeout));
    EXPECT_TRUE(cut.outOrOver(1));
    EXPECT_FALSE(cut.disqualified(1, torneio::Fault::Crash)) << "out already";
    const auto geometry = torneio::Geometry(record->params);
    bool told = false;
    for (const auto& e : cut.snapshot().events)
        told = told || torneio::formatEvent(e, geometry) == "event disqualified 2 timeout";
    EXPECT_TRUE(told);
    EXPECT_TRUE(cut.ended(*record));
    EXPECT_EQ(cut.snapshot().events, expected);
    EXPECT_EQ(cut.snapshot().resets, 1);
}

TEST(TorneioPublicView, APrivateEventIsRefused) {
    const auto params = torneio::defaultParams(2);
    const torneio::Geometry geometry(params);
    auto setUp = torneio::parseEvent("event setup king c1 warriors a1:3 e1:3 g1:4", 0, geometry);
    ASSERT_TRUE(setUp) << setUp.error();
    const std::vector<torneio::Event> events = {setUp.value()};
    EXPECT_FALSE(publicViewJson(params, Json::array(), events, 0));
    PublicBoard board(params);
    EXPECT_FALSE(board.take(setUp.value()));
}

// The sightings of D8's public events: a combat and its reveals, a retreat carrying the strength
// seen, a result dropping a seat that did not reveal, a withdrawal, a removal, an elimination.
TEST(TorneioPublicView, ThePublicEventsSayWhereWhichPieceWasSeen) {
    const auto params = torneio::defaultParams(3);
    const torneio::Geometry geometry(params);
    const auto events =
        parsedPublic({"event turn 1 1", "event moved 1", "event turn 2 1", "event combat 2 d4",
                      "event reveal 3 2", "event reveal 1 4", "event reveal 2 5", "event result 2",
                      "event retreat 3 c5", "event retreat 1 e5", "event gained 2 1"},
                     geometry);
    auto view = publicViewJson(params, Json::array(), events, 0);
    ASSERT_TRUE(view) << view.error();
    const Json& v = view.value();
    EXPECT_EQ(v["round"], 1);
    EXPECT_EQ(v["turnSeat"], 2);
    EXPECT_EQ(v["combat"], "d4");
    EXPECT_EQ(v["players"][0]["moves"], 1);
    EXPECT_EQ(v["players"][1]["gained"], 1);
    ASSERT_EQ(v["sightings"].size(), 3U) << v["sightings"];
    EXPECT_EQ(v["sightings"][0]["seat"], 2);
    EXPECT_EQ(v["sightings"][0]["square"], "d4");
    EXPECT_EQ(v["sightings"][0]["strength"], 5);
    EXPECT_EQ(v["sightings"][1]["square"], "c5");
    EXPECT_EQ(v["sightings"][1]["strength"], 2) << "the retreat keeps the strength seen";
    EXPECT_EQ(v["sightings"][2]["seat"], 1);
    EXPECT_EQ(v["sightings"][2]["strength"], 4);
    EXPECT_FALSE(v["over"].get<bool>());
    EXPECT_EQ(v["eventCount"], events.size());

    // The next combat on c5 without seat 3 revealing: its sighting there is out of date; seat 1
    // is out with its pieces; the end.
    const auto more =
        parsedPublic({"event turn 3 2", "event combat 3 e5", "event reveal 1 king",
                      "event reveal 3 3", "event result 3", "event eliminated 1", "event turn 2 2",
                      "event combat 2 c5", "event reveal 2 6", "event result 2", "event end win 2"},
                     geometry);
    std::vector<torneio::Event> all = events;
    all.insert(all.end(), more.begin(), more.end());
    view = publicViewJson(params, Json::array(), all, events.size());
    ASSERT_TRUE(view) << view.error();
    const Json& w = view.value();
    EXPECT_EQ(w["eventsFrom"], events.size());
    EXPECT_EQ(w["events"].size(), more.size());
    EXPECT_EQ(w["players"][0]["out"], true);
    for (const auto& s : w["sightings"]) {
        EXPECT_NE(s["seat"], 1) << "an eliminated seat's pieces are gone";
        EXPECT_FALSE(s["seat"] == 3 && s["square"] == "c5") << "seat 3 did not reveal on c5";
    }
    EXPECT_TRUE(w["over"].get<bool>());
    EXPECT_EQ(w["outcome"], (Json{{"draw", false}, {"seats", {2}}}));
}

}  // namespace
}  // namespace web::torneio_tables
