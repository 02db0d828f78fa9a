// What one seat may know of a game (D8, OpenSpiel's information state): its own pieces, the
// events it may see, and the request it must answer. Derived from the true State in this one
// place, so that a leak is a bug here, and testable.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "torneio/rules/action.h"
#include "torneio/rules/event.h"
#include "torneio/rules/params.h"
#include "torneio/rules/state.h"

namespace torneio {

// View: one seat's information.
//   params      the game's rules (public)
//   seat        whose view this is
//   own         its own pieces (true squares and strengths)
//   events      every event visible to it (public or private to it), in order
//   request     what it is asked now, when it is the seat to decide
//   eliminated  public (G11): which seats are out
//   round       public: the current round
//   outcome     public: the result once the game is over
struct View {
    Params params;
    int seat = -1;
    OwnPieces own;
    std::vector<Event> events;
    std::optional<Request> request;
    std::array<bool, kMaxSeats> eliminated{};
    int round = 0;
    Outcome outcome;

    friend bool operator==(const View&, const View&) = default;
};

View viewOf(const State& state, int seat);

// The view as text: each visible event line (formatEvent), then the request line
// (formatRequest) when there is one. Two games that differ only in facts hidden from the seat
// give the same lines.
std::vector<std::string> viewLines(const View& view, const Geometry& geometry);

// The events of state.events() from index `from` on that `seat` may see (what a referee sends
// it after a decision).
std::vector<Event> visibleEvents(const State& state, int seat, std::size_t from = 0);

}  // namespace torneio
