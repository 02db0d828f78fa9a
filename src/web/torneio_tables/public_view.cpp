// A Torneio table as a watcher sees it (public_view.h): the public events and what they say.
#include "web/torneio_tables/public_view.h"

#include <algorithm>
#include <string>

namespace web::torneio_tables {

using torneio::Event;
using torneio::EventKind;
using torneio::Square;

PublicBoard::PublicBoard(const torneio::Params& params) : geometry_(params) {
}

// What each public event says (the watcher's rules follow a seat's sightings, sightings.h, for
// every seat at once):
//   moved s          one more move of s: a piece of s seen before may have gone a step further
//   combat s q       a piece of s stands on q; unopposed s q: no other seat's piece stands on q
//   reveal s v|king  the piece of s on the combat square has strength v, or is the king
//   result           a seat that did not reveal has no piece on the combat square (D12.1)
//   refused s q      a piece of s stands on q (strength unknown)
//   retreat s q      the losing piece of s went from the combat square to q, as it was seen
//   withdrew s       the piece of s on the combat square stepped away in secret (G9)
//   removed s q      the piece of s on q left the game (D7)
//   eliminated s, disqualified s   s and all its pieces are out (G11)
common::Result<bool> PublicBoard::take(const Event& e) {
    if (e.audience != torneio::kPublic || torneio::isPrivateKind(e.kind))
        return common::makeError("a private event is not a watcher's");
    const int seats = geometry_.params().seats;
    const bool seatless = e.kind == EventKind::End || e.kind == EventKind::Result;
    if (!seatless && (e.seat < 0 || e.seat >= seats))
        return common::makeError("an event of no seat");
    const auto at = [](auto& perSeat, int seat) -> auto& {
        return perSeat[static_cast<std::size_t>(seat)];
    };
    switch (e.kind) {
        case EventKind::Turn:
            turnSeat_ = e.seat;
            round_ = e.value;
            combat_ = torneio::kNoSquare;
            break;
        case EventKind::Moved:
            ++at(moves_, e.seat);
            break;
        case EventKind::Pass:
            ++at(passes_, e.seat);
            break;
        case EventKind::Combat:
            combat_ = e.square;
            revealed_.clear();
            see(e.seat, e.square, kUnrevealed);
            break;
        case EventKind::Unopposed:
            std::erase_if(sightings_, [&](const PublicSighting& s) {
                return s.square == e.square && !s.withdrew && s.seat != e.seat;
            });
            break;
        case EventKind::Reveal:
            revealed_.push_back(e.seat);
            see(e.seat, combat_, e.value);
            break;
        case EventKind::Result:
            std::erase_if(sightings_, [&](const PublicSighting& s) {
                const bool revealed =
                    std::find(revealed_.begin(), revealed_.end(), s.seat) != revealed_.end();
                return s.square == combat_ && !s.withdrew && !revealed;
            });
            break;
        case EventKind::Eliminated:
        case EventKind::Disqualified:
            at(out_, e.seat) = true;
            std::erase_if(sightings_, [&](const PublicSighting& s) { return s.seat == e.seat; });
            break;
        case EventKind::Refused:
            see(e.seat, e.square, kUnrevealed);
            break;
        case EventKind::Retreat: {
            const auto it = std::find_if(sightings_.begin(), sightings_.end(), [&](const auto& s) {
                return s.seat == e.seat && s.square == combat_ && !s.withdrew;
            });
            const int strength = it == sightings_.end() ? kUnrevealed : it->strength;
            forget(e.seat, combat_);
            see(e.seat, e.square, strength);
            break;
        }
        case EventKind::Removed:
            forget(e.seat, e.square);
            break;
        case EventKind::Withdrew:
            for (auto& s : sightings_)
                if (s.seat == e.seat && s.square == combat_) {
                    s.withdrew = true;
                    s.round = round_;
                    s.movesAt = at(moves_, e.seat);
                }
            break;
        case EventKind::Gained:
            at(gained_, e.seat) += e.value;
            break;
        case EventKind::End:
            outcome_.kind = e.draw ? torneio::OutcomeKind::Draw : torneio::OutcomeKind::Win;
            outcome_.seats = static_cast<unsigned>(e.value);
            outcome_.round = round_;
            break;
        default:  // Forfeit: the points are lost, nothing seen
            break;
    }
    return true;
}

// A piece of `seat` seen on `square` now. A presence without a strength keeps the strength
// seen there before while the seat has not moved since (it is the same piece).
void PublicBoard::see(int seat, Square square, int strength) {
    if (square == torneio::kNoSquare) return;
    const int moves = moves_[static_cast<std::size_t>(seat)];
    const auto it = std::find_if(sightings_.begin(), sightings_.end(), [&](const auto& s) {
        return s.seat == seat && s.square == square;
    });
    if (it != sightings_.end()) {
        if (strength == kUnrevealed && !it->withdrew && it->movesAt == moves)
            strength = it->strength;
        sightings_.erase(it);
    }
    sightings_.push_back({seat, square, strength, round_, moves, false});
    const auto count = std::count_if(sightings_.begin(), sightings_.end(),
                                     [seat](const auto& s) { return s.seat == seat; });
    if (static_cast<std::size_t>(count) > kSightingsPerSeat)
        sightings_.erase(std::find_if(sightings_.begin(), sightings_.end(),
                                      [seat](const auto& s) { return s.seat == seat; }));
}

void PublicBoard::forget(int seat, Square square) {
    std::erase_if(sightings_,
                  [&](const PublicSighting& s) { return s.seat == seat && s.square == square; });
}

Json PublicBoard::json() const {
    const int seats = geometry_.params().seats;
    Json players = Json::array();
    for (int s = 0; s < seats; ++s) {
        const auto i = static_cast<std::size_t>(s);
        players.push_back({{"seat", s + 1},
                           {"out", out_[i]},
                           {"gained", gained_[i]},
                           {"moves", moves_[i]},
                           {"passes", passes_[i]},
                           {"side", torneio::sideName(torneio::sideOfSeat(seats, s))}});
    }
    Json sightings = Json::array();
    for (const auto& s : sightings_)
        sightings.push_back({{"seat", s.seat + 1},
                             {"square", geometry_.name(s.square)},
                             {"strength", s.strength},
                             {"round", s.round},
                             {"movesSince", moves_[static_cast<std::size_t>(s.seat)] - s.movesAt},
                             {"withdrew", s.withdrew}});
    const bool over = outcome_.kind != torneio::OutcomeKind::Ongoing;
    Json outcome = nullptr;
    if (over) {
        Json winners = Json::array();
        for (int s = 0; s < seats; ++s)
            if (outcome_.seats & (1u << s)) winners.push_back(s + 1);
        outcome = {{"draw", outcome_.kind == torneio::OutcomeKind::Draw}, {"seats", winners}};
    }
    return {
        {"round", round_},
        {"turnSeat", turnSeat_ < 0 ? Json(nullptr) : Json(turnSeat_ + 1)},
        {"players", players},
        {"sightings", sightings},
        {"combat", combat_ == torneio::kNoSquare ? Json(nullptr) : Json(geometry_.name(combat_))},
        {"over", over},
        {"outcome", outcome}};
}

std::vector<Event> publicEvents(const torneio::Record& record) {
    std::vector<Event> events;
    for (const auto& entry : record.entries)
        if (entry.kind == torneio::RecordEntry::Kind::Event &&
            entry.event.audience == torneio::kPublic)
            events.push_back(entry.event);
    return events;
}

common::Result<Json> publicViewJson(const torneio::Params& params, const Json& seats,
                                    std::span<const Event> events, std::size_t from) {
    PublicBoard board(params);
    const torneio::Geometry geometry(params);
    Json lines = Json::array();
    for (std::size_t i = 0; i < events.size(); ++i) {
        const auto taken = board.take(events[i]);
        if (!taken) return common::makeError(taken.error());
        if (i >= from) lines.push_back(torneio::formatEvent(events[i], geometry));
    }
    Json view = {{"seats", seats},
                 {"boardSize", params.boardSize},
                 {"strengthTotal", params.strengthTotal},
                 {"maxRounds", params.maxRounds},
                 {"eventsFrom", std::min(from, events.size())},
                 {"events", lines},
                 {"eventCount", events.size()}};
    view.update(board.json());
    return view;
}

PublicRecord::PublicRecord(const torneio::Params& params)
    : state_(torneio::State::create(params).value()) {
}

// The public events state_ made since last looked at.
void PublicRecord::takeNew() {
    const auto& all = state_.events();
    for (; taken_ < all.size(); ++taken_)
        if (all[taken_].audience == torneio::kPublic) events_.push_back(all[taken_]);
}

bool PublicRecord::decided(int seat, const torneio::Action& action) {
    std::lock_guard lock(mutex_);
    if (broken_) return false;
    const std::size_t before = events_.size();
    if (!state_.apply(seat, action)) {
        broken_ = true;
        return false;
    }
    takeNew();
    return events_.size() != before;
}

bool PublicRecord::disqualified(int seat, torneio::Fault fault) {
    std::lock_guard lock(mutex_);
    if (broken_ || !state_.disqualify(seat, fault)) return false;
    takeNew();
    return true;
}

bool PublicRecord::outOrOver(int seat) const {
    std::lock_guard lock(mutex_);
    return state_.over() || state_.eliminated(seat);
}

bool PublicRecord::ended(const torneio::Record& record) {
    auto events = publicEvents(record);
    std::lock_guard lock(mutex_);
    if (events == events_) return false;
    events_ = std::move(events);
    ++resets_;
    return true;
}

PublicRecord::Snapshot PublicRecord::snapshot() const {
    std::lock_guard lock(mutex_);
    return {events_, resets_};
}

}  // namespace web::torneio_tables
