// Sightings: what one seat knows in public of its opponents' pieces, from the events it receives
// (D8): where each was last seen, with its strength when revealed. The heuristic player's memory
// (heuristic.h), the person's view of a seat (torneio/person/seat_view.h) and the ai's fleeing
// king hypothesis (ai/belief.h) all keep Sighting records; the first two keep them with a
// Sightings, each with its own SightingRules.
//
// What each public event says (torneio-rules.md; only opponents' pieces are recorded):
//   moved s          one more move of s: each may have taken a seen piece one step further
//   combat s q       a piece of s stands on q (strength unknown)
//   unopposed s q    D5: no other seat's piece stands on q
//   reveal s v|king  the piece of s on the combat square: strength v, or the king
//   result           D12.1: a seat that did not reveal has no piece on the combat square
//   refused s q      G9: a piece of s stands on q (strength unknown; maybe the king)
//   retreat s q      G9: the losing piece of s went from the combat square to q
//   withdrew s       G9: the piece of s on the combat square stepped away in secret
//   removed s q      D7: the piece of s on q left the game
//   eliminated s, disqualified s   G11: s and all its pieces are out
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "torneio/play/knowledge.h"
#include "torneio/rules/event.h"
#include "torneio/rules/geometry.h"

namespace torneio::play {

// Sighting::strength of a piece whose presence is known but not its strength (a combat call, a
// refused order; a refusal may even be the king). A revealed king is kKingReveal (event.h).
inline constexpr int kNotRevealed = -2;

// Sighting: what is publicly known of one opponent piece: where it was last seen.
//   seat      the opponent (0-based)
//   square    where it was seen: its combat call, its reveal, its ordered retreat, a refusal
//   strength  the revealed strength, kKingReveal, or kNotRevealed
//   round     the round it was seen in
//   movesAt   the opponent's move count (Sightings::moves) at that moment: each later move may
//             have taken this piece one step further (Sightings::movesSince)
//   gainedAt  the points the opponent had gained at that moment (G10: totals are public; a
//             point gained since may have gone onto this piece)
//   withdrew  the piece withdrew in secret from `square` after a combat without a winner (G9):
//             it now stands one step away (only with SightingRules::followWithdrawals)
// Size: 28 bytes.
struct Sighting {
    int seat = -1;
    Square square = kNoSquare;
    int strength = kNotRevealed;
    int round = 0;
    int movesAt = 0;
    int gainedAt = 0;
    bool withdrew = false;

    friend bool operator==(const Sighting&, const Sighting&) = default;
};

// SightingRules: how a Sightings keeps its records.
//   perSeat            at most this many sightings per opponent; one more drops the first of
//                      that opponent in the list
//   newestLast         a piece seen again on its square moves to the end of the list (the list
//                      is in the order last seen; the least recently seen is dropped first);
//                      false: it keeps its place (the first seen is dropped first)
//   followWithdrawals  the secret steps of G9: a withdrawal marks the sightings on the combat
//                      square `withdrew` and is not counted as a move; a retreat is a new
//                      sighting on its square with the strength seen on the combat square.
//                      false: a withdrawal counts as one more move of its seat, and a retreat
//                      carries the sighting to its square as it was
struct SightingRules {
    std::size_t perSeat = 6;
    bool newestLast = true;
    bool followWithdrawals = true;
};

// Sightings: one seat's sightings of its opponents' pieces.
//   list_      the sightings, at most one per (seat, square) unless a retreat carried one onto
//              another (followWithdrawals false), and rules_.perSeat per seat; dropped when
//              disproved (a combat on the square without that seat's reveal, D5, D12.1),
//              removed (D7) or out (G11)
//   moves_[s]  how many "moved" events of seat s came so far (and "withdrew" events unless
//              rules_.followWithdrawals)
//   revealed_  the seats that revealed in the combat being resolved (D12.1)
class Sightings {
  public:
    explicit Sightings(SightingRules rules) : rules_(rules) {}

    // Forgets everything: a new game.
    void clear();
    // Takes the next event the seat received, after its Knowledge took it (the combat square,
    // the round and the points gained are read from the knowledge).
    void observe(const Event& event, const Knowledge& knowledge);

    // Oldest first (SightingRules::newestLast says what "oldest" means).
    const std::vector<Sighting>& all() const { return list_; }
    int moves(int seat) const { return moves_[static_cast<std::size_t>(seat)]; }
    // The opponent's moves since the sighting: how far the piece may have gone.
    int movesSince(const Sighting& s) const { return moves(s.seat) - s.movesAt; }

  private:
    void see(int seat, Square square, int strength, const Knowledge& knowledge);
    void forget(int seat, Square square);
    void forgetSeat(int seat);
    void dropUnrevealed(Square square, int attacker);
    void retreat(int seat, Square from, Square to, const Knowledge& knowledge);
    void withdrew(int seat, Square from, const Knowledge& knowledge);

    SightingRules rules_;
    std::vector<Sighting> list_;
    std::array<int, kMaxSeats> moves_{};
    std::vector<int> revealed_;
};

}  // namespace torneio::play
