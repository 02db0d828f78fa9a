// The finishing places a finished Torneio game's record gives its seats (finishing_places.h):
// the winner or every survivor of a draw first; the others by when they left (eliminated, G11,
// or disqualified), the later the better, seats that left through the same decision together;
// and some seats (those rated) placed among themselves alone.
#include <gtest/gtest.h>

#include "torneio/rules/record.h"
#include "web/torneio_tables/finishing_places.h"

namespace web::torneio_tables {
namespace {

using torneio::EventKind;
using torneio::RecordEntry;

RecordEntry decision(int seat) {
    RecordEntry entry;
    entry.kind = RecordEntry::Kind::Action;
    entry.seat = seat;
    return entry;
}

RecordEntry left(EventKind kind, int seat) {
    RecordEntry entry;
    entry.kind = RecordEntry::Kind::Event;
    entry.event.kind = kind;
    entry.event.seat = seat;
    return entry;
}

TEST(TorneioFinishingPlaces, TheLaterASeatLeftTheBetterItIsPlaced) {
    torneio::Record record;
    record.params.seats = 4;
    record.entries = {
        decision(0), left(EventKind::Eliminated, 2),   decision(1),
        decision(3), left(EventKind::Disqualified, 3), left(EventKind::Eliminated, 1)};
    record.outcome = {torneio::OutcomeKind::Win, 1u << 0, 5};
    EXPECT_EQ(finishingPlaces(record), (std::vector<int>{1, 2, 4, 2}));
    // A draw of two survivors (D11): both first; the seat out earlier last.
    record.entries.resize(3);
    record.outcome = {torneio::OutcomeKind::Draw, (1u << 0) | (1u << 3), 30};
    record.entries.push_back(left(EventKind::Eliminated, 1));
    EXPECT_EQ(finishingPlaces(record), (std::vector<int>{1, 3, 4, 1}));
    // A seat never seen leaving and not named by the outcome is last.
    torneio::Record two;
    two.params.seats = 3;
    two.outcome = {torneio::OutcomeKind::Win, 1u << 1, 2};
    two.entries = {decision(0), left(EventKind::Eliminated, 0)};
    EXPECT_EQ(finishingPlaces(two), (std::vector<int>{2, 1, 3}));
}

TEST(TorneioFinishingPlaces, SomeSeatsArePlacedAmongThemselves) {
    // Seats 1 and 3 behind an AI's win: first and second among themselves; a tie stays a tie.
    const std::vector<int> places = {2, 1, 4, 2};
    EXPECT_EQ(placesAmong(places, {0, 2}), (std::vector<int>{1, 2}));
    EXPECT_EQ(placesAmong(places, {2, 0}), (std::vector<int>{2, 1}));
    EXPECT_EQ(placesAmong(places, {0, 3}), (std::vector<int>{1, 1}));
    EXPECT_EQ(placesAmong(places, {2, 3, 0}), (std::vector<int>{3, 1, 1}));
    EXPECT_EQ(placesAmong(places, {1, 9}), (std::vector<int>{1, 2})) << "out of range: last";
}

TEST(TorneioFinishingPlaces, AGameNotOverHasNoPlaces) {
    torneio::Record record;
    record.params.seats = 2;
    EXPECT_FALSE(finishingPlaces(record));
}

}  // namespace
}  // namespace web::torneio_tables
