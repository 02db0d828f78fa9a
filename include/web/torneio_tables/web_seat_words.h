// What a person's Torneio seat says on the page, as catalogue keys with the values of their
// placeholders (messages::Say), so that the page says it in the person's language: each event of
// the seat's log (torneio.log.* keys of web/i18n/<lang>/torneio.json) and why a decision the
// person sent is refused (server.torneio.refused.* keys of web/i18n/<lang>/server.json).
// Both are read from what the seat itself knows (its log entries, built from its own protocol
// lines; its pending request and own pieces): nothing a seat may not see (D8) goes in. The
// rules core keeps its English (the terminal seat's log, checkAction's reasons); these are the
// web's words for the same facts.
#pragma once

#include "torneio/person/seat_view.h"
#include "torneio/rules/action.h"
#include "torneio/rules/geometry.h"
#include "web/messages/messages.h"

namespace web::torneio_tables {

// One entry of the seat's log (SeatView::log) as seat `seat` (0-based) is told it: a
// torneio.log.* key and its params (seats 1-based, squares by name). Seats are "you" when they
// are `seat`.
messages::Say logSay(const torneio::person::LogEntry& entry, int seat,
                     const torneio::Geometry& geometry);

// The entry as the page's view sends it: {"round","key","params","text"} (`text`: the English
// of the terminal seat, SeatView's own words).
messages::Json logEntryJson(const torneio::person::LogEntry& entry, int seat,
                            const torneio::Geometry& geometry);

// Why `action` is not a legal reply to `request` for a seat holding `own`: the rule it breaks,
// found by the same checks as torneio::checkAction, in the order it makes them. Called only for
// an action checkAction refused (for a legal one the answer is server.torneio.refused.illegal).
messages::Say refusalSay(const torneio::Request& request, const torneio::OwnPieces& own,
                         const torneio::Geometry& geometry, const torneio::Action& action);

}  // namespace web::torneio_tables
