// Torneio at one table of the web page: a person seat (driven by the test as its page would be)
// against an AI, played to the end; what the seat's page receives must be exactly that seat's
// view (D8): its event lines are the events visible to it, in order, and nothing private to
// another seat ever reaches it. A table kept decision by decision (the hooks the server's store
// uses) and made again at any point goes on exactly where it was: each person's view and pending
// request as before, and the whole game a sound record.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <utility>

#include "torneio/rules/event.h"
#include "torneio/rules/geometry.h"
#include "torneio/rules/record.h"
#include "web/torneio_tables/torneio_table.h"

namespace web::torneio_tables {

using store::StoredTorneioDecision;
using store::StoredTorneioTable;

namespace {

// The hang guard of every wait: generous, it only ends a test that would never end.
constexpr std::chrono::seconds kHangGuard{120};

std::chrono::steady_clock::time_point hangGuard() {
    return std::chrono::steady_clock::now() + kHangGuard;
}

// PageDriver: receives a seat's views as its page would (only what is new since the last
// view) and answers every decision. `changes` counts the seat's changes (seatChanged).
struct PageDriver {
    std::mutex mutex;
    std::condition_variable changed;
    int changes = 0;
    std::vector<Json> received;
    std::size_t lines = 0;
    std::size_t log = 0;

    void notify() {
        std::lock_guard lock(mutex);
        ++changes;
        changed.notify_all();
    }

    // Waits until `ready()` (checked at once and after every change of the seat); false when
    // the hang guard ran out first.
    template <class Ready>
    bool waitUntil(Ready ready) {
        std::unique_lock lock(mutex);
        return changed.wait_until(lock, hangGuard(), ready);
    }

    // Plays seat `seat` of the table to the end of the game: each change of the seat, its new
    // view, until the view says the game is over; then the table's thread ends.
    void play(TorneioTable& table, int seat, int pick) {
        WebSeat* web = table.webSeat(seat);
        int seen = 0;
        for (;;) {
            ASSERT_TRUE(waitUntil([&] { return changes != seen; })) << "the game did not end";
            {
                std::lock_guard lock(mutex);
                seen = changes;
            }
            Json view = web->view(lines, log);
            lines = view["lineCount"];
            if (view["started"].get<bool>()) log = view["logCount"];
            received.push_back(view);
            const Json& request = view["request"];
            if (!request.is_null()) {
                if (request["kind"] == "setup") {
                    ASSERT_FALSE(web->submit("random").has_value());
                } else {
                    const auto& choices = request["choices"];
                    ASSERT_FALSE(choices.empty()) << request.dump();
                    const auto choice = choices[static_cast<std::size_t>(pick++) % choices.size()];
                    ASSERT_FALSE(web->submit(choice.get<std::string>()).has_value());
                }
            }
            if (view["started"].get<bool>() && view["over"].get<bool>() && request.is_null()) break;
        }
        ASSERT_TRUE(table.waitFinished(hangGuard())) << "the table's thread did not end";
        EXPECT_TRUE(web->view(lines, log)["lines"].empty()) << "nothing after the end";
    }
};

TorneioTableHooks notifying(PageDriver& page) {
    TorneioTableHooks hooks;
    hooks.seatChanged = [&page](int) { page.notify(); };
    return hooks;
}

TEST(TorneioTable, APersonSeatReceivesExactlyItsOwnView) {
    PageDriver page;
    auto created =
        TorneioTable::create({{"person", 1}, {"heuristic", 1}}, 40, 20261201, notifying(page));
    ASSERT_TRUE(created) << created.error();
    auto table = created.value();
    const auto tokens = table->takeTokens();
    ASSERT_EQ(tokens.size(), 2u);
    EXPECT_EQ(tokens[0].size(), 32u);  // 128 bits
    EXPECT_TRUE(tokens[1].empty()) << "an AI seat has no token";
    EXPECT_TRUE(table->takeTokens().empty()) << "the tokens are handed out once";
    ASSERT_EQ(table->seatOfToken(tokens[0]), 0);
    EXPECT_FALSE(table->seatOfToken(tokens[0] + "0").has_value());
    EXPECT_FALSE(table->seatOfToken("not-a-token").has_value());
    EXPECT_FALSE(table->seatOfToken("").has_value()) << "an AI seat has no token";
    table->start();
    page.play(*table, 0, 3);
    const auto record = table->record();
    ASSERT_TRUE(record.has_value());
    EXPECT_NE(record->outcome.kind, torneio::OutcomeKind::Ongoing);

    // Every line the page received, in order.
    std::vector<std::string> lines;
    std::string everything;
    for (const auto& view : page.received) {
        for (const auto& line : view["lines"]) lines.push_back(line);
        everything += view.dump();
    }
    std::vector<std::string> eventLines;
    for (const auto& line : lines)
        if (line.starts_with("event ")) eventLines.push_back(line);
    const torneio::Geometry geometry(record->params);
    std::vector<std::string> visible;
    int hidden = 0;
    for (const auto& entry : record->entries) {
        if (entry.kind != torneio::RecordEntry::Kind::Event) continue;
        const auto text = torneio::formatEvent(entry.event, geometry);
        if (torneio::visibleTo(entry.event, 0)) {
            visible.push_back(text);
        } else {
            ++hidden;
            if (entry.event.kind == torneio::EventKind::SetUp) {
                EXPECT_EQ(everything.find(text), std::string::npos) << "leaked: " << text;
            }
        }
    }
    EXPECT_GT(hidden, 0) << "the other seat had private events";
    EXPECT_EQ(eventLines, visible) << "the page received exactly the seat's events";
    const Json last = page.received.back();
    EXPECT_TRUE(last["over"].get<bool>());
    EXPECT_FALSE(last["outcome"].is_null());
}

TEST(TorneioTable, BadChoicesAndBadActionsAreRefused) {
    EXPECT_FALSE(TorneioTable::create({{"person", 1}}, 10, 1, {}));
    EXPECT_FALSE(TorneioTable::create({{"person", 1}, {"wizard", 1}}, 10, 1, {}));
    EXPECT_FALSE(TorneioTable::create({{"person", 1}, {"ai", 9}}, 10, 1, {}));
    EXPECT_FALSE(TorneioTable::create({{"person", 1}, {"ai", 1}}, 0, 1, {}));
    PageDriver page;
    auto table =
        TorneioTable::create({{"person", 1}, {"random", 0}}, 5, 7, notifying(page)).value();
    table->start();
    WebSeat* web = table->webSeat(0);
    // Wait for the set-up request, then try bad replies: each refused, the request stays.
    ASSERT_TRUE(page.waitUntil([&] { return !web->view(0, 0)["request"].is_null(); }));
    ASSERT_EQ(web->view(0, 0)["request"]["kind"], "setup");
    EXPECT_TRUE(web->submit("fly away").has_value());
    EXPECT_TRUE(web->submit("move 1 a1").has_value());
    EXPECT_TRUE(web->submit("setup king a8 warriors b7:3 d7:3 f7:4").has_value())
        << "north's zone is not south's";
    EXPECT_FALSE(web->view(0, 0)["request"].is_null());
    EXPECT_FALSE(web->submit("setup king a1 warriors c1:3 e1:3 g1:4").has_value());
    // The table closes with the game still running: the thread ends, nothing hangs.
    table.reset();
}

// KeptTable: what the server's store would hold of a table, filled by the table's hooks;
// `changed` is notified at every change of a person seat and at the end.
struct KeptTable {
    std::mutex mutex;
    std::condition_variable changed;
    StoredTorneioTable table;
    std::string result;
    std::optional<torneio::Record> record;

    TorneioTableHooks hooks() {
        TorneioTableHooks hooks;
        hooks.seatChanged = [this](int) {
            std::lock_guard lock(mutex);
            changed.notify_all();
        };
        hooks.decided = [this](std::size_t index, const StoredTorneioDecision& decision) {
            std::lock_guard lock(mutex);
            EXPECT_EQ(index, table.decisions.size()) << "decisions are kept in order, once";
            table.decisions.push_back(decision);
            return true;
        };
        hooks.ended = [this](const std::string& text, const torneio::Record& full) {
            std::lock_guard lock(mutex);
            EXPECT_TRUE(result.empty()) << "the end is kept once";
            result = text;
            record = full;
            changed.notify_all();
        };
        return hooks;
    }
    StoredTorneioTable snapshot() {
        std::lock_guard lock(mutex);
        return table;
    }
};

// Answers every pending request of the table's person seats (a deterministic pick) until
// `decisions` replies were given, then waits until the referee waits for a person again (or the
// game ended): the table is still, everything decided is kept. Returns the replies given.
int playPersons(TorneioTable& table, KeptTable& kept, int decisions, int& pick) {
    // The first person seat with a request, with the request; nothing when none waits.
    const auto asked = [&table]() -> std::optional<std::pair<WebSeat*, Json>> {
        for (int s = 0; s < table.seats(); ++s) {
            WebSeat* web = table.webSeat(s);
            if (!web) continue;
            Json request = web->view(0, 0)["request"];
            if (!request.is_null()) return std::pair{web, std::move(request)};
        }
        return std::nullopt;
    };
    int given = 0;
    for (;;) {
        std::optional<std::pair<WebSeat*, Json>> waiting;
        bool ended = false;
        {
            std::unique_lock lock(kept.mutex);
            const bool still = kept.changed.wait_until(lock, hangGuard(), [&] {
                waiting = asked();
                ended = !kept.result.empty();
                return waiting || ended;
            });
            if (!still) {
                ADD_FAILURE() << "the table did not come to rest";
                return given;
            }
        }
        if (ended) {
            EXPECT_TRUE(table.waitFinished(hangGuard())) << "the table's thread did not end";
            return given;
        }
        if (given >= decisions) return given;
        const auto& [web, request] = *waiting;
        const auto& choices = request["choices"];
        const std::string reply =
            request["kind"] == "setup" || choices.empty()
                ? "random"
                : choices[static_cast<std::size_t>(pick++) % choices.size()].get<std::string>();
        EXPECT_FALSE(web->submit(reply).has_value()) << reply;
        ++given;
    }
}

// Every person seat's whole view: what a page that joins now receives.
std::vector<Json> personViews(const TorneioTable& table) {
    std::vector<Json> views;
    for (int s = 0; s < table.seats(); ++s)
        if (WebSeat* web = table.webSeat(s)) views.push_back(web->view(0, 0));
    return views;
}

TEST(TorneioTable, ARestoredTableGoesOnExactlyFromItsLastKeptDecision) {
    KeptTable kept;
    auto created = TorneioTable::create({{"person", 1}, {"heuristic", 1}, {"person", 1}, {"ai", 0}},
                                        30, 20261202, kept.hooks());
    ASSERT_TRUE(created) << created.error();
    auto table = created.value();
    kept.table = table->stored();
    const auto tokens = table->takeTokens();
    table->start();
    int pick = 0;
    int restores = 0;
    // Stopped (as a server killed) and made again from what was kept, several times.
    for (const int step : {1, 2, 5, 9, 20, 35}) {
        playPersons(*table, kept, step, pick);
        if (table->finished()) break;
        ++restores;
        const auto before = personViews(*table);
        const auto stored = kept.snapshot();
        table.reset();
        auto restored = TorneioTable::restore(stored, kept.hooks());
        ASSERT_TRUE(restored) << restored.error();
        table = restored.value();
        EXPECT_EQ(table->id(), stored.id);
        EXPECT_EQ(table->seatOfToken(tokens[0]), 0) << "the seat links still hold their seats";
        EXPECT_EQ(table->seatOfToken(tokens[2]), 2);
        table->start();
        playPersons(*table, kept, 0, pick);  // the replay comes to rest at the same request
        EXPECT_EQ(personViews(*table), before) << "after " << stored.decisions.size();
        EXPECT_FALSE(before[0]["request"].is_null() && before[1]["request"].is_null());
        EXPECT_EQ(kept.snapshot().decisions, stored.decisions) << "nothing kept twice";
    }
    EXPECT_GE(restores, 4) << "the game ended before the table was restored often";
    playPersons(*table, kept, 100000, pick);
    ASSERT_TRUE(table->finished());
    std::lock_guard lock(kept.mutex);
    ASSERT_TRUE(kept.record.has_value());
    EXPECT_FALSE(kept.result.empty());
    EXPECT_TRUE(torneio::replayRecord(*kept.record).ok()) << "the restored game is sound";
    std::size_t actions = 0;
    for (const auto& entry : kept.record->entries)
        if (entry.kind == torneio::RecordEntry::Kind::Action) ++actions;
    EXPECT_EQ(actions, kept.table.decisions.size()) << "every decision kept";
}

TEST(TorneioTable, AKeptTableThatIsNotSoundIsRefused) {
    KeptTable kept;
    auto table = TorneioTable::create({{"person", 1}, {"random", 0}}, 10, 3, kept.hooks()).value();
    const auto good = table->stored();
    EXPECT_TRUE(TorneioTable::restore(good, {}));
    auto bad = good;
    bad.params = "seats 9";
    EXPECT_FALSE(TorneioTable::restore(bad, {}));
    bad = good;
    bad.seats.pop_back();
    EXPECT_FALSE(TorneioTable::restore(bad, {}));
    bad = good;
    bad.seats[0].tokenHash.clear();
    EXPECT_FALSE(TorneioTable::restore(bad, {}));
    bad = good;
    bad.seats[1].kind = "wizard";
    EXPECT_FALSE(TorneioTable::restore(bad, {}));
    bad = good;
    bad.decisions = {{7, "move 1 a1"}};
    EXPECT_FALSE(TorneioTable::restore(bad, {}));
}

}  // namespace
}  // namespace web::torneio_tables
