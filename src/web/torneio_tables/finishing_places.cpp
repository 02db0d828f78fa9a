#include "web/torneio_tables/finishing_places.h"

#include <cstddef>
#include <limits>

namespace web::torneio_tables {

std::optional<std::vector<int>> finishingPlaces(const torneio::Record& record) {
    if (record.outcome.kind == torneio::OutcomeKind::Ongoing) return std::nullopt;
    const auto seats = static_cast<std::size_t>(record.params.seats);
    // When each seat left the game: the number of decisions up to the one that put it out (0
    // for an event before the first decision); -1 for a seat never seen leaving; the seats the
    // outcome names stayed to the end.
    constexpr long kStayed = std::numeric_limits<long>::max();
    std::vector<long> left(seats, -1);
    for (std::size_t s = 0; s < seats; ++s)
        if (record.outcome.seats & (1u << s)) left[s] = kStayed;
    long decisions = 0;
    for (const auto& entry : record.entries) {
        if (entry.kind == torneio::RecordEntry::Kind::Action) {
            ++decisions;
            continue;
        }
        const auto kind = entry.event.kind;
        if (kind != torneio::EventKind::Eliminated && kind != torneio::EventKind::Disqualified)
            continue;
        const auto seat = static_cast<std::size_t>(entry.event.seat);
        if (seat < seats && left[seat] == -1) left[seat] = decisions;
    }
    std::vector<int> places(seats, 1);
    for (std::size_t s = 0; s < seats; ++s)
        for (std::size_t o = 0; o < seats; ++o)
            if (left[o] > left[s]) ++places[s];
    return places;
}

std::vector<int> placesAmong(const std::vector<int>& places, const std::vector<int>& seats) {
    const auto placeOf = [&](int seat) {
        const bool in = seat >= 0 && static_cast<std::size_t>(seat) < places.size();
        return in ? places[static_cast<std::size_t>(seat)] : std::numeric_limits<int>::max();
    };
    std::vector<int> among;
    for (const int seat : seats) {
        int place = 1;
        for (const int other : seats) place += placeOf(other) < placeOf(seat) ? 1 : 0;
        among.push_back(place);
    }
    return among;
}

}  // namespace web::torneio_tables
