// Records: JSON lines written, read, replayed through the rules (and tampering caught), and the
// record as seen from one seat.
#include "torneio/rules/record.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "test_directory.h"
#include "torneio/rules/random_play.h"
#include "torneio/torneio_test_util.h"

namespace torneio {
namespace {

using test::army;
using test::play;
using test::position;

Record randomRecord(int seats, std::uint64_t seed) {
    const State state = playRandomGame(defaultParams(seats), seed);
    std::vector<std::string> names;
    for (int s = 0; s < seats; ++s) names.push_back("random-" + std::to_string(s + 1));
    return recordOf(state, seed, names);
}

TEST(Record, WriteReadReplayRoundTrip) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        for (std::uint64_t seed = 1; seed <= 8; ++seed) {
            const State state = playRandomGame(defaultParams(seats), seed);
            const Record record = recordOf(state, seed, {"a", "b"});
            const std::string text = formatRecord(record);
            auto parsed = parseRecord(text);
            ASSERT_TRUE(parsed.ok()) << parsed.error();
            EXPECT_EQ(parsed.value(), record);
            EXPECT_EQ(formatRecord(parsed.value()), text);
            auto summary = replayRecord(parsed.value());
            ASSERT_TRUE(summary.ok()) << summary.error();
            EXPECT_EQ(summary.value().outcome, state.outcome());
            EXPECT_EQ(summary.value().decisions, state.history().size());
            EXPECT_EQ(summary.value().events, state.events().size());
        }
    }
}

TEST(Record, LinesHaveTheDocumentedShape) {
    const Record record = randomRecord(2, 3);
    const std::string text = formatRecord(record);
    EXPECT_EQ(text.rfind(R"({"type":"header","format":"torneio-record","version":1,)"
                         R"("params":{"seats":2,"board":8,"depth":2,"trim":0,"strength":10,)"
                         R"("minstrength":0,"rounds":200,"pass":"stuck"},"seed":"3",)",
                         0),
              0u)
        << text.substr(0, 300);
    EXPECT_NE(text.find(R"({"type":"action","seat":1,"text":"setup king )"), std::string::npos);
    EXPECT_NE(text.find(R"({"type":"event","to":1,"text":"event setup king )"), std::string::npos);
    EXPECT_NE(text.find(R"({"type":"event","to":"all","text":"event turn 1 1"})"),
              std::string::npos);
    EXPECT_NE(text.find(R"({"type":"result","outcome":")"), std::string::npos);
    EXPECT_EQ(text.back(), '\n');
}

TEST(Record, FilesRoundTrip) {
    const Record record = randomRecord(3, 11);
    const std::string path = (common::test::testDirectory() / "record.jsonl").string();
    ASSERT_TRUE(writeRecord(path, record).ok());
    auto read = readRecord(path);
    ASSERT_TRUE(read.ok()) << read.error();
    EXPECT_EQ(read.value(), record);
    std::filesystem::remove(path);
    EXPECT_FALSE(readRecord(path).ok());
    EXPECT_FALSE(writeRecord("/nonexistent-dir/x.jsonl", record).ok());
}

// A record is verified against the rules: any change to an event, an action or the result is
// caught by the replay.
TEST(Record, ReplayRejectsTamperedRecord) {
    const Record record = randomRecord(3, 21);
    ASSERT_TRUE(replayRecord(record).ok());

    std::size_t reveal = 0, action = 0, privateEvent = 0;
    for (std::size_t i = 0; i < record.entries.size(); ++i) {
        const RecordEntry& e = record.entries[i];
        if (!reveal && e.kind == RecordEntry::Kind::Event && e.event.kind == EventKind::Reveal &&
            e.event.value >= 0)
            reveal = i;
        if (!action && e.kind == RecordEntry::Kind::Action && e.action.kind == ActionKind::Move)
            action = i;
        if (!privateEvent && e.kind == RecordEntry::Kind::Event && e.event.kind == EventKind::Move)
            privateEvent = i;
    }
    ASSERT_TRUE(reveal && action && privateEvent) << "the game has no combat";

    Record stronger = record;  // a revealed strength that is not the true one
    ++stronger.entries[reveal].event.value;
    EXPECT_FALSE(replayRecord(stronger).ok());

    Record missing = record;  // an event left out
    missing.entries.erase(missing.entries.begin() + static_cast<std::ptrdiff_t>(reveal));
    EXPECT_FALSE(replayRecord(missing).ok());

    Record otherSeat = record;  // an action by the wrong seat
    otherSeat.entries[action].seat = (otherSeat.entries[action].seat + 1) % 3;
    EXPECT_FALSE(replayRecord(otherSeat).ok());

    Record leaked = record;  // a private event shown to everyone
    leaked.entries[privateEvent].event.audience = kPublic;
    EXPECT_FALSE(replayRecord(leaked).ok());

    Record result = record;  // another result
    result.outcome.seats ^= 3u;
    EXPECT_FALSE(replayRecord(result).ok());

    Record truncated = record;  // the last events cut off
    truncated.entries.pop_back();
    EXPECT_FALSE(replayRecord(truncated).ok());

    Record extra = record;  // an event the rules never gave
    extra.entries.push_back(record.entries[reveal]);
    EXPECT_FALSE(replayRecord(extra).ok());

    Record otherRules = record;  // the same game under other params
    otherRules.params.strengthTotal = 11;
    EXPECT_FALSE(replayRecord(otherRules).ok());
}

TEST(Record, TamperedTextIsCaught) {
    const Record record = randomRecord(2, 5);
    std::string text = formatRecord(record);
    const std::size_t reveal = text.find("event reveal 2 ");
    ASSERT_NE(reveal, std::string::npos);
    const std::size_t digit = reveal + std::string("event reveal 2 ").size();
    text[digit] = text[digit] == 'k' ? '1' : (text[digit] == '9' ? '0' : '9');
    if (text[digit + 1] == 'i') text.erase(digit + 1, 3);  // "king" became "1ing"
    auto parsed = parseRecord(text);
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    EXPECT_FALSE(replayRecord(parsed.value()).ok());
}

TEST(Record, ReadingRejectsMalformedLines) {
    const std::string good = formatRecord(randomRecord(2, 6));
    const std::size_t firstBreak = good.find('\n');
    const std::string header = good.substr(0, firstBreak + 1);
    EXPECT_TRUE(parseRecord(header).ok());  // a record without entries or result: ongoing
    EXPECT_FALSE(parseRecord("").ok());
    EXPECT_FALSE(parseRecord("not json\n").ok());
    EXPECT_FALSE(parseRecord(good.substr(firstBreak + 1)).ok());  // no header
    EXPECT_FALSE(parseRecord(header + "{\"type\":\"event\",\"to\":\"all\",\"text\":\"event move 1 "
                                      "a1 a2\"}\n")
                     .ok());  // a private event to all (D8)
    EXPECT_FALSE(
        parseRecord(header + "{\"type\":\"event\",\"to\":1,\"text\":\"event moved 1\"}\n").ok());
    EXPECT_FALSE(parseRecord(header + "{\"type\":\"action\",\"seat\":3,\"text\":\"pass\"}\n").ok());
    EXPECT_FALSE(parseRecord(header + "{\"type\":\"action\",\"seat\":1,\"text\":\"fly\"}\n").ok());
    EXPECT_FALSE(parseRecord(header + "{\"type\":\"result\",\"outcome\":\"win\",\"seats\":[1],"
                                      "\"round\":3}\n{\"type\":\"action\",\"seat\":1,\"text\":"
                                      "\"pass\"}\n")
                     .ok());  // nothing after the result
    std::string badSeed = header;
    badSeed.replace(badSeed.find("\"seed\":\"6\""), 10, "\"seed\":6");
    EXPECT_FALSE(parseRecord(badSeed).ok());
    std::string badParams = header;
    badParams.replace(badParams.find("\"seats\":2"), 9, "\"seats\":9");
    EXPECT_FALSE(parseRecord(badParams).ok());
}

// The record seen from one seat: its own actions and the events it saw (D8); not replayable.
TEST(Record, SeatRecordHoldsOnlyWhatTheSeatSawD8) {
    const Record record = randomRecord(4, 8);
    for (int seat = 0; seat < 4; ++seat) {
        const Record seen = seatRecord(record, seat);
        EXPECT_EQ(seen.viewSeat, seat);
        EXPECT_EQ(seen.outcome, record.outcome);
        std::size_t publicEvents = 0;
        for (const RecordEntry& e : record.entries)
            publicEvents += e.kind == RecordEntry::Kind::Event && e.event.audience == kPublic;
        std::size_t publicSeen = 0;
        for (const RecordEntry& e : seen.entries) {
            if (e.kind == RecordEntry::Kind::Action) {
                EXPECT_EQ(e.seat, seat);
            } else {
                EXPECT_TRUE(visibleTo(e.event, seat));
                publicSeen += e.event.audience == kPublic;
            }
        }
        EXPECT_EQ(publicSeen, publicEvents);
        auto parsed = parseRecord(formatRecord(seen));
        ASSERT_TRUE(parsed.ok()) << parsed.error();
        EXPECT_EQ(parsed.value(), seen);
        EXPECT_FALSE(replayRecord(seen).ok());
    }
}

// A game from a position: the start goes in the header, and the replay starts from it.
TEST(Record, StartPositionRoundTrip) {
    const Params params = defaultParams(2);
    const Geometry g(params);
    State state = position(
        params, {army(g, "a1", {"d4:5", "g1:3", "-:2"}), army(g, "e5", {"d4:4", "c5:3", "h7:3"})},
        /*turnSeat=*/0, /*round=*/12);
    play(state, 0, "combat d4");
    play(state, 0, "order e5");
    play(state, 0, "order d5");
    play(state, 0, "reward 2");
    const Record record = recordOf(state, 99);
    ASSERT_TRUE(record.start.has_value());
    auto parsed = parseRecord(formatRecord(record));
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    EXPECT_EQ(parsed.value(), record);
    auto summary = replayRecord(parsed.value());
    ASSERT_TRUE(summary.ok()) << summary.error();
    EXPECT_EQ(summary.value().decisions, 4u);
    // Seen from seat 1, seat 2's start pieces are hidden.
    const Record seen = seatRecord(record, 0);
    EXPECT_EQ(seen.start->pieces[1], OwnPieces{});
    EXPECT_EQ(seen.start->pieces[0], record.start->pieces[0]);
}

// The match's seed is kept in the header (a decimal string, optional: records of before it have
// none); a seat's record carries that seat's own seed instead of the game's, and no match seed,
// so that a record handed to a seat tells it nothing of the others' seeds.
TEST(Record, MatchSeedRoundTripsAndASeatsRecordHoldsOnlyItsOwnSeed) {
    Record record = randomRecord(3, 5);
    record.seed = 123456789012345678ull;
    record.matchSeed = 18446744073709551615ull;
    const std::string text = formatRecord(record);
    EXPECT_NE(text.find("\"matchSeed\":\"18446744073709551615\""), std::string::npos) << text;
    auto parsed = parseRecord(text);
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    EXPECT_EQ(parsed.value(), record);
    EXPECT_TRUE(replayRecord(parsed.value()).ok());

    Record older = record;
    older.matchSeed.reset();
    parsed = parseRecord(formatRecord(older));
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    EXPECT_FALSE(parsed.value().matchSeed.has_value());

    std::string bad = text;
    bad.replace(bad.find("\"matchSeed\":\"18446744073709551615\""), 34, "\"matchSeed\":\"-1\"");
    EXPECT_FALSE(parseRecord(bad).ok());

    for (int seat = 0; seat < 3; ++seat) {
        const Record seen = seatRecord(record, seat);
        EXPECT_EQ(seen.seed, seatSeed(record.seed, seat));
        EXPECT_FALSE(seen.matchSeed.has_value());
        EXPECT_EQ(formatRecord(seen).find(std::to_string(record.seed)), std::string::npos);
    }
}

}  // namespace
}  // namespace torneio
