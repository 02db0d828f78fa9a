// /games/torneio/<n> (games_page.h): one Torneio table as a page in the request's language. Every
// word comes from the catalogues (torneio.record.*, the seats' kinds and levels, the nav); what
// the protocol writes (the parameters, the public event lines, the record) is shown as it writes
// it, and /games/torneio/<n>.txt serves the same text as a file (torneioTableText).
#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/text.h"
#include "page_words.h"
#include "torneio/play/ai/ai_options.h"
#include "torneio/rules/action.h"
#include "torneio/rules/event.h"
#include "torneio/rules/geometry.h"
#include "torneio/rules/record.h"
#include "torneio/rules/state.h"
#include "web/accounts/accounts.h"
#include "web/pages/games_page.h"

namespace web::pages {

namespace {

using common::xmlEscape;
using store::StoredTorneioSeat;
using store::StoredTorneioTable;

// The seats named in a result ("win 2", "draw 1 3"), or nothing when it does not read so.
std::optional<std::vector<int>> resultSeats(std::string_view result, std::string_view word) {
    if (!result.starts_with(word)) return std::nullopt;
    std::vector<int> seats;
    for (const auto token : common::splitWhitespace(result.substr(word.size()))) {
        int seat = 0;
        const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), seat);
        if (ec != std::errc() || end != token.data() + token.size() || seat < 1)
            return std::nullopt;
        seats.push_back(seat);
    }
    if (seats.empty()) return std::nullopt;
    return seats;
}

// How the game ended, as HTML (the messages link the rules they cite; their values are numbers).
std::string resultHtml(const i18n::Translator& words, const std::string& result) {
    if (const auto win = resultSeats(result, "win "); win && win->size() == 1)
        return words.tr("torneio.record.win", {{"seat", win->front()}});
    if (const auto draw = resultSeats(result, "draw ")) {
        std::string seats;
        for (const int s : *draw) seats += (seats.empty() ? "" : ", ") + std::to_string(s);
        return words.tr("torneio.record.draw", {{"seats", seats}});
    }
    return xmlEscape(words.tr("torneio.record.result", {{"result", result}}));
}

// An AI level (an index into torneio::play::kAiLevels) by its name in the page's language.
std::string levelName(const i18n::Translator& words, int level) {
    static_assert(std::size(torneio::play::kAiLevels) == 3, "every AI level is named");
    switch (level) {
        case 0:
            return words.tr("torneio.level.easy");
        case 1:
            return words.tr("torneio.level.normal");
        default:
            return words.tr("torneio.level.strong");
    }
}

// Who plays a seat, as HTML: an account's name links to its page (a deleted account's name,
// which has none, is text).
std::string seatWho(const i18n::Translator& words, const StoredTorneioSeat& seat) {
    if (seat.kind == "person") {
        if (seat.name.empty()) return xmlEscape(words.tr("torneio.record.guest"));
        const std::string name = xmlEscape(seat.name);
        if (seat.name.starts_with(accounts::kDeletedNamePrefix)) return name;
        return "<a href=\"/@/" + name + "\">" + name + "</a>";
    }
    if (seat.kind == "ai")
        return xmlEscape(
            words.tr("torneio.record.aiSeat", {{"level", levelName(words, seat.level)}}));
    if (seat.kind == "random") return xmlEscape(words.tr("torneio.record.randomSeat"));
    if (seat.kind == "heuristic") return xmlEscape(words.tr("torneio.record.heuristicSeat"));
    return xmlEscape(seat.kind);
}

}  // namespace

std::optional<std::vector<std::string>> publicEventLines(const StoredTorneioTable& table) {
    const auto params = torneio::parseParams(table.params);
    if (!params) return std::nullopt;
    auto state = torneio::State::create(params.value());
    if (!state) return std::nullopt;
    const torneio::Geometry geometry(params.value());
    for (const auto& decision : table.decisions) {
        const auto action = torneio::parseAction(decision.action, geometry);
        if (!action || !state.value().apply(decision.seat, action.value())) break;
    }
    std::vector<std::string> lines;
    for (const auto& event : state.value().events())
        if (event.audience == torneio::kPublic)
            lines.push_back(torneio::formatEvent(event, geometry));
    return lines;
}

std::string torneioTableHtml(const StoredTorneioTable& table, std::int64_t number,
                             const i18n::Translator& words) {
    // Escaped, for the page (named tr: scripts/i18n_check.py finds its keys).
    const auto tr = [&](std::string_view key) { return xmlEscape(words.tr(key)); };
    const std::string title =
        words.tr("torneio.record.title", {{"number", std::to_string(number)}});
    std::optional<torneio::Record> record;
    if (!table.record.empty())
        if (auto read = torneio::parseRecord(table.record)) record = std::move(read).value();

    std::string body =
        "<p class=\"result\">" +
        (record ? resultHtml(words, table.result) : tr("torneio.record.running")) + "</p>\n<p>" +
        (table.rated ? tr("torneio.record.rated") : tr("torneio.record.casual")) + " " +
        xmlEscape(
            words.tr("torneio.record.lastChange", {{"time", timeText(words, table.updated)}})) +
        "</p>\n<h2>" + tr("torneio.record.seatsHeading") + "</h2>\n<ul>\n";
    for (std::size_t s = 0; s < table.seats.size(); ++s) {
        // {who} may be a link (markup): put in after the message is escaped.
        std::string seat = xmlEscape(
            words.tr("torneio.record.seat", {{"seat", std::to_string(s + 1)}, {"who", "\x01"}}));
        seat.replace(seat.find('\x01'), 1, seatWho(words, table.seats[s]));
        body += "<li>" + seat + "</li>\n";
    }
    body += "</ul>\n<h2>" + tr("torneio.record.paramsHeading") + "</h2>\n<p>" +
            tr("torneio.record.paramsAbout") + " <code>" + xmlEscape(table.params) +
            "</code></p>\n";
    const std::string text = "/games/torneio/" + std::to_string(number) + ".txt";
    if (record) {
        body += "<h2>" + tr("torneio.record.recordHeading") + "</h2>\n<p>" +
                tr("torneio.record.recordAbout") + "</p>\n<pre class=\"record\">" +
                xmlEscape(torneio::recordListing(*record)) + "</pre>\n";
    } else {
        body += "<h2>" + tr("torneio.record.eventsHeading") + "</h2>\n<p>" +
                tr("torneio.record.eventsAbout") + "</p>\n";
        const auto lines = publicEventLines(table);
        if (!lines) {
            body += "<p>" + tr("torneio.record.unreadable") + "</p>\n";
        } else if (lines->empty()) {
            body += "<p>" + tr("torneio.record.noEvents") + "</p>\n";
        } else {
            body += "<pre class=\"record\">";
            for (const auto& line : *lines) body += xmlEscape(line) + "\n";
            body += "</pre>\n";
        }
    }
    body += "<p><a href=\"" + text + "\" download>" + tr("torneio.record.download") +
            "</a> · <a href=\"/games\">" + tr("torneio.record.allGames") + "</a></p>\n";
    return pageStart(words, title, "<h1>" + xmlEscape(title) + "</h1>",
                     tr("torneio.record.subtitle"), "") +
           "<main class=\"games-page torneio-record\">" + body + "</main>" + pageEnd();
}

}  // namespace web::pages
