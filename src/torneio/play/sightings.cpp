#include "torneio/play/sightings.h"

#include <algorithm>

namespace torneio::play {

void Sightings::clear() {
    list_.clear();
    moves_ = {};
    revealed_.clear();
}

// The sightings an event gives or takes away (D8: every fact used here is public).
void Sightings::observe(const Event& e, const Knowledge& k) {
    const Square combat = k.combatSquare();
    const bool other = e.seat >= 0 && e.seat != k.seat() && !isPrivateKind(e.kind);
    switch (e.kind) {
        case EventKind::Moved:
            ++moves_[static_cast<std::size_t>(e.seat)];
            break;
        case EventKind::Combat:
            revealed_.clear();
            if (other) see(e.seat, e.square, kNotRevealed, k);
            break;
        case EventKind::Unopposed:
            dropUnrevealed(e.square, e.seat);  // nobody else stands there (D5)
            break;
        case EventKind::Reveal:
            revealed_.push_back(e.seat);
            if (other) see(e.seat, combat, e.value, k);
            break;
        case EventKind::Result:
            dropUnrevealed(combat, -1);  // every piece there has revealed (D12.1)
            break;
        case EventKind::Refused:
            if (other) see(e.seat, e.square, kNotRevealed, k);
            break;
        case EventKind::Retreat:
            if (other) retreat(e.seat, combat, e.square, k);
            break;
        case EventKind::Removed:
            if (other) forget(e.seat, e.square);
            break;
        case EventKind::Withdrew:
            if (other) withdrew(e.seat, combat, k);
            break;
        case EventKind::Eliminated:
        case EventKind::Disqualified:
            forgetSeat(e.seat);
            break;
        default:
            break;
    }
}

// A sighting of (seat, square) now: a new one, or the old one brought up to date. A presence
// without a strength keeps the strength seen there before while the seat has not moved since
// (it is the same piece); after a move it may be another piece.
void Sightings::see(int seat, Square square, int strength, const Knowledge& k) {
    for (auto it = list_.begin(); it != list_.end(); ++it) {
        if (it->seat != seat || it->square != square) continue;
        Sighting& s = *it;
        if (strength != kNotRevealed || s.withdrew || movesSince(s) > 0) {
            s.strength = strength;
            s.gainedAt = k.pointsGained(seat);
        }
        s.round = k.round();
        s.movesAt = moves(seat);
        s.withdrew = false;
        if (rules_.newestLast) std::rotate(it, it + 1, list_.end());  // the newest last
        return;
    }
    list_.push_back(
        Sighting{seat, square, strength, k.round(), moves(seat), k.pointsGained(seat), false});
    const auto count = std::count_if(list_.begin(), list_.end(),
                                     [seat](const Sighting& s) { return s.seat == seat; });
    if (static_cast<std::size_t>(count) <= rules_.perSeat) return;
    list_.erase(std::find_if(list_.begin(), list_.end(),
                             [seat](const Sighting& s) { return s.seat == seat; }));
}

void Sightings::forget(int seat, Square square) {
    std::erase_if(list_, [&](const Sighting& s) { return s.seat == seat && s.square == square; });
}

void Sightings::forgetSeat(int seat) {
    std::erase_if(list_, [seat](const Sighting& s) { return s.seat == seat; });
}

// A combat on `square` showed every opponent piece standing there: the sightings there of
// seats that did not reveal (nor called it) are out of date. Withdrawn ones are elsewhere.
void Sightings::dropUnrevealed(Square square, int attacker) {
    std::erase_if(list_, [&](const Sighting& s) {
        const bool revealed =
            std::find(revealed_.begin(), revealed_.end(), s.seat) != revealed_.end();
        return s.square == square && !s.withdrew && s.seat != attacker && !revealed;
    });
}

// The losing piece of `seat` went from the combat square `from` to `to` (G9).
void Sightings::retreat(int seat, Square from, Square to, const Knowledge& k) {
    if (!rules_.followWithdrawals) {
        for (Sighting& s : list_)
            if (s.seat == seat && s.square == from) s.square = to;
        return;
    }
    const auto it = std::find_if(list_.begin(), list_.end(), [&](const Sighting& s) {
        return s.seat == seat && s.square == from && !s.withdrew;
    });
    const int strength = it == list_.end() ? kNotRevealed : it->strength;
    forget(seat, from);
    see(seat, to, strength, k);
}

// The piece of `seat` on the combat square `from` stepped away in secret (G9).
void Sightings::withdrew(int seat, Square from, const Knowledge& k) {
    if (!rules_.followWithdrawals) {
        ++moves_[static_cast<std::size_t>(seat)];
        return;
    }
    for (Sighting& s : list_)
        if (s.seat == seat && s.square == from) {
            s.withdrew = true;
            s.round = k.round();
            s.movesAt = moves(seat);
        }
}

}  // namespace torneio::play
