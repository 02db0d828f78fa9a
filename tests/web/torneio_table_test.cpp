// Torneio at one table of the web page: a person seat (driven by the test as its page would be)
// against an AI, played to the end; what the seat's page receives must be exactly that seat's
// view (D8): its event lines are the events visible to it, in order, and nothing private to
// another seat ever reaches it.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "torneio/event.h"
#include "torneio/geometry.h"
#include "web/torneio_table.h"

namespace web {
namespace {

// PageDriver: receives a seat's views as its page would (only what is new since the last
// view) and answers every decision.
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

    // Plays seat `seat` of the table to the end of the game (a hang guard stops it).
    void play(TorneioTable& table, int seat, int pick) {
        WebSeat* web = table.webSeat(seat);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
        while (std::chrono::steady_clock::now() < deadline) {
            {
                std::unique_lock lock(mutex);
                changed.wait_for(lock, std::chrono::milliseconds(50));
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
            if (table.finished() && web->view(lines, log)["lines"].empty() && request.is_null())
                return;
        }
        FAIL() << "the game did not end";
    }
};

TEST(TorneioTable, APersonSeatReceivesExactlyItsOwnView) {
    PageDriver page;
    auto created = TorneioTable::create({{"person", 1}, {"heuristic", 1}}, 40, 20261201,
                                        [&page](int) { page.notify(); });
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
    EXPECT_FALSE(TorneioTable::create({{"person", 1}}, 10, 1, [](int) {}));
    EXPECT_FALSE(TorneioTable::create({{"person", 1}, {"wizard", 1}}, 10, 1, [](int) {}));
    EXPECT_FALSE(TorneioTable::create({{"person", 1}, {"ai", 9}}, 10, 1, [](int) {}));
    EXPECT_FALSE(TorneioTable::create({{"person", 1}, {"ai", 1}}, 0, 1, [](int) {}));
    PageDriver page;
    auto table = TorneioTable::create({{"person", 1}, {"random", 0}}, 5, 7, [&page](int) {
                     page.notify();
                 }).value();
    table->start();
    WebSeat* web = table->webSeat(0);
    // Wait for the set-up request, then try bad replies: each refused, the request stays.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (web->view(0, 0)["request"].is_null() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
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

}  // namespace
}  // namespace web
