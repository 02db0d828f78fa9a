// Helpers shared by the Torneio tests: positions from square names, playing actions from text,
// and a game's events as "audience: line" strings for exact comparisons.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <string_view>
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

inline std::string requestLine(const State& state) {
    return seatText(state.request().seat) + ": " + formatRequest(state.request(), state.geometry());
}

}  // namespace torneio::test
