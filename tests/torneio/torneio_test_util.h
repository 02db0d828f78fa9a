// Helpers shared by the Torneio tests: positions from square names, playing actions from text,
// and a game's events as "audience: line" strings for exact comparisons.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "torneio/rules/action.h"
#include "torneio/rules/event.h"
#include "torneio/rules/geometry.h"
#include "torneio/rules/state.h"

namespace torneio::test {

inline Square sq(const Geometry& geometry, std::string_view name) {
    auto square = geometry.parse(name);
    EXPECT_TRUE(square.ok()) << name;
    return square.ok() ? square.value() : kNoSquare;
}

// One seat's pieces: the king's square and the warriors as "e5:3"; "-" for a dead piece (a dead
// warrior may keep a strength: "-:2").
inline OwnPieces army(const Geometry& geometry, std::string_view king,
                      std::array<std::string_view, kWarriors> warriors) {
    OwnPieces own;
    if (king != "-") own[kKing] = Piece{sq(geometry, king), 0, true};
    for (std::size_t i = 0; i < kWarriors; ++i) {
        const std::string_view text = warriors[i];
        const std::size_t colon = text.find(':');
        const std::string_view square = text.substr(0, colon);
        const int strength =
            colon == std::string_view::npos ? 0 : std::stoi(std::string(text.substr(colon + 1)));
        Piece& piece = own.pieces[i + 1];
        piece.strength = strength;
        if (square != "-") {
            piece.square = sq(geometry, square);
            piece.alive = true;
        }
    }
    return own;
}

inline State position(const Params& params, const std::vector<OwnPieces>& seats, int turnSeat = 0,
                      int round = 1) {
    StartPosition start;
    for (std::size_t i = 0; i < seats.size(); ++i) start.pieces[i] = seats[i];
    start.turnSeat = turnSeat;
    start.round = round;
    auto state = State::fromPosition(params, start);
    EXPECT_TRUE(state.ok()) << (state.ok() ? "" : state.error());
    return std::move(state).value();
}

// Applies an action given as text; a failure is reported, not fatal.
inline void play(State& state, int seat, std::string_view text) {
    auto action = parseAction(text, state.geometry());
    ASSERT_TRUE(action.ok()) << text << ": " << action.error();
    auto applied = state.apply(seat, action.value());
    ASSERT_TRUE(applied.ok()) << text << ": " << applied.error();
    auto invariants = checkInvariants(state);
    ASSERT_TRUE(invariants.ok()) << text << ": " << invariants.error();
}

// The events from index `from` on, as "all: <line>" or "<seat 1..N>: <line>".
inline std::vector<std::string> eventLines(const State& state, std::size_t from = 0) {
    std::vector<std::string> lines;
    for (std::size_t i = from; i < state.events().size(); ++i) {
        const Event& e = state.events()[i];
        lines.push_back((e.audience == kPublic ? std::string("all") : seatText(e.audience)) + ": " +
                        formatEvent(e, state.geometry()));
    }
    return lines;
}

// Two games of 3 seats that differ only in facts hidden from seat 1 (index 0): seat 2's pieces
// beyond what combats revealed (squares, indices, the strength of a piece never revealed),
// where its withdrawal and its moves went, which warrior its reward went to, and where seat
// 3's moves went. Both end at seat 2's turn of round 3 ("event turn 3 2").
inline std::pair<State, State> gamesDifferingInHiddenFacts() {
    const Params params = defaultParams(3);
    const Geometry g(params);
    const OwnPieces mine = army(g, "c1", {"e5:2", "e1:4", "g1:4"});
    const OwnPieces third = army(g, "c10", {"e5:5", "h8:1", "g10:4"});
    State a = position(params, {mine, army(g, "a3", {"e5:5", "h8:4", "b7:1"}), third});
    State b = position(params, {mine, army(g, "a7", {"h8:4", "e5:5", "j6:1"}), third});
    // Seat 1 calls a combat nobody wins; seat 2 withdraws to different squares.
    play(a, 0, "combat e5");
    play(b, 0, "combat e5");
    play(a, 1, "withdraw e6");
    play(b, 1, "withdraw f6");
    for (State* s : {&a, &b}) {
        play(*s, 2, "withdraw d6");
        play(*s, 0, "withdraw f4");
        play(*s, 1, "combat h8");  // seat 2 beats seat 3's warrior
        play(*s, 1, "order h7");
    }
    play(a, 1, "reward 1");  // different warriors
    play(b, 1, "reward 3");
    play(a, 2, "move 0 c9");  // seat 3's moves differ too
    play(b, 2, "move 3 g9");
    play(a, 0, "move 2 e2");
    play(b, 0, "move 2 e2");
    play(a, 1, "move 0 a4");  // and seat 2's
    play(b, 1, "move 3 j5");
    return {std::move(a), std::move(b)};
}

inline std::string requestLine(const State& state) {
    return seatText(state.request().seat) + ": " + formatRequest(state.request(), state.geometry());
}

}  // namespace torneio::test
