#include "torneio/rules/view.h"

namespace torneio {

View viewOf(const State& state, int seat) {
    View view;
    view.params = state.params();
    view.seat = seat;
    view.own = state.pieces(seat);
    view.events = visibleEvents(state, seat);
    if (!state.over() && state.request().seat == seat) view.request = state.request();
    for (int s = 0; s < state.seats(); ++s)
        view.eliminated[static_cast<std::size_t>(s)] = state.eliminated(s);
    view.round = state.round();
    view.outcome = state.outcome();
    return view;
}

std::vector<std::string> viewLines(const View& view, const Geometry& geometry) {
    std::vector<std::string> lines;
    lines.reserve(view.events.size() + 1);
    for (const Event& e : view.events) lines.push_back(formatEvent(e, geometry));
    if (view.request) lines.push_back(formatRequest(*view.request, geometry));
    return lines;
}

std::vector<Event> visibleEvents(const State& state, int seat, std::size_t from) {
    std::vector<Event> events;
    const std::vector<Event>& all = state.events();
    for (std::size_t i = from; i < all.size(); ++i)
        if (visibleTo(all[i], seat)) events.push_back(all[i]);
    return events;
}

}  // namespace torneio
