#include "web/pages/games_page.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "common/text.h"
#include "torneio/play/ai/ai_options.h"
#include "torneio/rules/action.h"
#include "torneio/rules/event.h"
#include "torneio/rules/geometry.h"
#include "torneio/rules/record.h"
#include "torneio/rules/state.h"
#include "web/accounts/accounts.h"
#include "web/lasca_tables/lasca_table.h"

namespace web::pages {

using lasca_tables::kLevels;
using lasca_tables::storedGamePdn;
using lasca_tables::storedGamePdnGame;
using store::GameSummary;
using store::Store;
using store::StoredDuel;
using store::StoredLascaGame;
using store::StoredTorneioTable;

namespace {

constexpr int kListed = 100;  // games on /games

GamesPage page(int status, std::string contentType, std::string body) {
    return GamesPage{status, std::move(contentType), std::move(body), {}};
}
GamesPage notFound() {
    return page(404, "text/plain; charset=utf-8", "no such game\n");
}
GamesPage storeError(const std::string& error) {
    return page(500, "text/plain; charset=utf-8", "the games cannot be read: " + error + "\n");
}

// The number in "<prefix>N<suffix>", 1 or more, or nothing.
std::optional<std::int64_t> numberIn(std::string_view path, std::string_view prefix,
                                     std::string_view suffix) {
    if (!path.starts_with(prefix) || !path.ends_with(suffix)) return std::nullopt;
    if (path.size() <= prefix.size() + suffix.size()) return std::nullopt;
    const auto digits = path.substr(prefix.size(), path.size() - prefix.size() - suffix.size());
    std::int64_t number = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (ec != std::errc() || end != digits.data() + digits.size() || number < 1)
        return std::nullopt;
    return number;
}

// Who plays a Lasca game: "person v engine (Novice)", "people, both sides".
std::string lascaPlayers(const GameSummary& game) {
    const auto level =
        static_cast<std::size_t>(std::clamp(game.level, 0, static_cast<int>(kLevels.size()) - 1));
    const std::string engine = std::string("engine (") + kLevels[level].name + ")";
    if (game.players == "white") return engine + " v person";
    if (game.players == "black") return "person v " + engine;
    return "people, both sides";
}

// "12 plies", "1 ply": a Lasca game's length (a ply is one side's move).
std::string pliesText(std::int64_t plies) {
    return std::to_string(plies) + (plies == 1 ? " ply" : " plies");
}

// The seats of a Torneio table as the store lists them ("person, ai 2"), each AI seat by its
// level's name ("person, ai (normal)").
std::string torneioPlayers(const std::string& seats) {
    std::string out;
    std::size_t from = 0;
    while (from <= seats.size()) {
        auto to = seats.find(", ", from);
        if (to == std::string::npos) to = seats.size();
        std::string seat = seats.substr(from, to - from);
        const auto level = numberIn(seat, "ai ", "");  // 1 for kAiLevels[0]
        if (level && *level <= static_cast<std::int64_t>(std::size(torneio::play::kAiLevels)))
            seat = std::string("ai (") +
                   torneio::play::kAiLevels[static_cast<std::size_t>(*level - 1)].name + ")";
        out += (out.empty() ? "" : ", ") + seat;
        from = to + 2;
    }
    return out;
}

// The clock of a duel as people say it: "3 min + 2 s", "no clock".
std::string clockText(const std::string& clock) {
    const auto slash = clock.find('/');
    const long long time = std::atoll(clock.substr(0, slash).c_str());
    const long long increment =
        slash == std::string::npos ? 0 : std::atoll(clock.substr(slash + 1).c_str());
    if (time <= 0) return "no clock";
    std::string text = time % 60000 == 0 ? std::to_string(time / 60000) + " min"
                                         : std::to_string(time / 1000) + " s";
    if (increment > 0) text += " + " + std::to_string(increment / 1000) + " s";
    return text;
}

// A Lasca table for two people: opened on the analysis board once it is over (its moves while it
// runs are for its players and watchers).
std::string duelRow(const GameSummary& g) {
    const bool running = g.result == "*";
    const std::string number = std::to_string(g.number);
    std::string result = running ? "running" : g.result + " (" + g.rule + ")";
    return "<tr><td>Lasca table " + number + "</td><td>two people, " +
           common::xmlEscape(clockText(g.players)) + "</td><td>" + pliesText(g.plies) +
           "</td><td>" + common::xmlEscape(result) + "</td><td>" +
           common::utcTime(g.updated, "%Y-%m-%d %H:%M UTC") + "</td><td>" +
           (running ? std::string()
                    : "<a href=\"/?view=table-" + number +
                          "\">analyse</a> <a href=\"/games/table/" + number + ".pdn\">PDN</a>") +
           "</td></tr>\n";
}

// A seat's player on a page: a link to the account's page; a deleted account's name
// ("deleted-<id>", which has no page) as text; "guest" for a seat without an account.
std::string playerLink(const std::string& name) {
    if (name.empty()) return "guest";
    const std::string text = common::xmlEscape(name);
    if (name.starts_with(accounts::kDeletedNamePrefix)) return text;
    return "<a href=\"/@/" + text + "\">" + text + "</a>";
}

// A running public table: its players and clock, and the link that watches it (the form of a
// table link the Lasca page reads: /?table=<id>&token=<token>).
std::string watchRow(const store::NumberedDuel& d) {
    const auto& duel = d.duel;
    const std::string clock =
        std::to_string(duel.clockTime) + "/" + std::to_string(duel.clockIncrement);
    return "<tr><td>Lasca table " + std::to_string(d.number) + "</td><td>" +
           playerLink(duel.whiteName) + " v " + playerLink(duel.blackName) + "</td><td>" +
           common::xmlEscape(clockText(clock)) + "</td><td>" +
           std::string(duel.rated ? "rated" : "casual") + "</td><td>" +
           common::utcTime(duel.updated, "%Y-%m-%d %H:%M UTC") +
           "</td><td><a href=\"/?table=" + common::xmlEscape(duel.id) +
           "&amp;token=" + common::xmlEscape(duel.publicWatch) + "\">watch</a></td></tr>\n";
}

// Where a page of /games.pdn starts: after Lasca game `after` (tables false), or after table
// `after` (tables true).
struct PdnPageStart {
    bool tables = false;
    std::int64_t after = 0;
};

// The query of /games.pdn: "" (the first page), "lasca=N" or "table=N" with N >= 0; nothing for
// any other.
std::optional<PdnPageStart> pdnPageQuery(std::string_view query) {
    if (query.empty()) return PdnPageStart{};
    PdnPageStart start;
    if (query.starts_with("lasca=")) {
        query.remove_prefix(6);
    } else if (query.starts_with("table=")) {
        query.remove_prefix(6);
        start.tables = true;
    } else {
        return std::nullopt;
    }
    const auto [end, ec] = std::from_chars(query.data(), query.data() + query.size(), start.after);
    if (query.empty() || ec != std::errc() || end != query.data() + query.size() || start.after < 0)
        return std::nullopt;
    return start;
}

// One page of /games.pdn (games_page.h): the games after `after` of their kind, oldest first,
// read from the store kBatch at a time, until the next one would take the page past `budget`
// bytes (the first game always goes in). The Link header names where the next page starts, and
// so does a PDN escape line at the end (a line starting with '%', which PDN readers skip), for
// a person reading the page in a browser.
GamesPage pdnPage(Store& store, bool tables, std::int64_t after, std::size_t budget) {
    constexpr int kBatch = 16;
    std::string pdn;
    bool any = false;
    // Adds one game's text, or says the page is full (false).
    const auto add = [&](std::int64_t number, const std::string& text) {
        if (any && pdn.size() + text.size() > budget) return false;
        pdn += text;
        any = true;
        after = number;
        return true;
    };
    const auto full = [&] {
        const std::string next =
            "/games.pdn?" + std::string(tables ? "table" : "lasca") + "=" + std::to_string(after);
        pdn += "\n% the next page: " + next + "\n";
        GamesPage out = page(200, "text/plain; charset=utf-8", std::move(pdn));
        out.headers.emplace_back("Link", "<" + next + ">; rel=\"next\"");
        return out;
    };
    for (;;) {
        std::size_t read = 0;
        if (!tables) {
            const auto games = store.lascaGamesAfter(after, kBatch);
            if (!games) return storeError(games.error());
            read = games.value().size();
            for (const auto& g : games.value())
                if (!add(g.number, storedGamePdn(g.game))) return full();
        } else {
            const auto duels = store.finishedDuelsAfter(after, kBatch);
            if (!duels) return storeError(duels.error());
            read = duels.value().size();
            for (const auto& d : duels.value())
                if (!add(d.number, duelPdn(d.duel, "-"))) return full();
        }
        if (read == static_cast<std::size_t>(kBatch)) continue;
        if (tables) return page(200, "text/plain; charset=utf-8", std::move(pdn));
        tables = true;  // every Lasca game is in: the tables follow
        after = 0;
    }
}

// /games?player=NAME: the finished two-person tables of one account, newest (highest number)
// first (a 404 page
// for a name of no account).
GamesPage playerGames(Store& store, std::string_view name) {
    const auto key = accounts::nameKey(name);
    if (!key) return page(404, "text/plain; charset=utf-8", "no such player\n");
    const auto account = store.findAccount(key.value());
    if (!account) return storeError(account.error());
    if (!account.value()) return page(404, "text/plain; charset=utf-8", "no such player\n");
    const auto duels = store.duelsOf(account.value()->id, 0, kListed, false);
    if (!duels) return storeError(duels.error());
    std::vector<GameSummary> games;
    for (const auto& [number, duel] : duels.value())
        games.push_back({"duel", number,
                         std::to_string(duel.clockTime) + "/" + std::to_string(duel.clockIncrement),
                         0, static_cast<std::int64_t>(duel.moves.size()), duel.result, duel.rule,
                         duel.updated});
    return page(200, "text/html; charset=utf-8", gamesListHtml(games, account.value()->name));
}

}  // namespace

std::string duelPdn(const StoredDuel& duel, const std::string& round) {
    StoredLascaGame game;
    game.startLfen = duel.startLfen;
    game.moves = duel.moves;
    game.engine = "none";
    game.result = duel.result;
    game.rule = duel.rule;
    // The day of its last change: the store's `updated` is wall-clock time, while a table's
    // `created` comes from the tables' steady clock (milliseconds since an arbitrary start).
    game.created = duel.updated;
    auto pdn = storedGamePdnGame(game, round);
    for (auto& [name, value] : pdn.tags) {
        // A seat's account by its name (names are letters, digits, '_' and '-' only).
        if (name == "White") value = duel.whiteName.empty() ? "white player" : duel.whiteName;
        if (name == "Black") value = duel.blackName.empty() ? "black player" : duel.blackName;
        if (name == "Event") value = "lasca-web table";
        if (name == "Termination" &&
            (duel.rule == "time" || duel.rule == "resign" || duel.rule == "agreement"))
            value = duel.rule == "time" ? "time forfeit" : duel.rule;
    }
    if (duel.clockTime > 0)
        pdn.tags.emplace_back("TimeControl", std::to_string(duel.clockTime / 1000) + "+" +
                                                 std::to_string(duel.clockIncrement / 1000));
    return lasca::writePdn(pdn);
}

std::string gamesListHtml(const std::vector<GameSummary>& games, const std::string& player,
                          const std::vector<store::NumberedDuel>& watchable) {
    std::string watch;
    for (const auto& d : watchable) watch += watchRow(d);
    if (!watch.empty())
        watch =
            "<h2>Tables to watch</h2>\n<p>Tables for two people made in the lobby, while "
            "they run; anyone may watch them.</p>\n<table class=\"games watch\"><thead><tr>"
            "<th>Table</th><th>Players (White v Black)</th><th>Clock</th><th>Kind</th>"
            "<th>Last change</th><th></th></tr></thead><tbody>\n" +
            watch + "</tbody></table>\n";
    std::string rows;
    for (const auto& g : games) {
        if (g.kind == "duel") {
            rows += duelRow(g);
            continue;
        }
        const bool lasca = g.kind == "lasca";
        const bool running = lasca ? g.result == "*" : g.result.empty();
        const std::string number = std::to_string(g.number);
        const std::string open = lasca ? "/?view=" + number : "/games/torneio/" + number;
        std::string result = running ? "running" : g.result;
        if (!running && !g.rule.empty()) result += " (" + g.rule + ")";
        rows +=
            "<tr><td>" + std::string(lasca ? "Lasca" : "Torneio") + " " + number + "</td><td>" +
            common::xmlEscape(lasca ? lascaPlayers(g) : torneioPlayers(g.players)) + "</td><td>" +
            (lasca ? pliesText(g.plies)
                   : std::to_string(g.plies) + (g.plies == 1 ? " decision" : " decisions")) +
            "</td><td>" + common::xmlEscape(result) + "</td><td>" +
            common::utcTime(g.updated, "%Y-%m-%d %H:%M UTC") + "</td><td><a href=\"" + open +
            "\">" + (lasca ? "analyse" : "record") + "</a>" +
            (lasca ? " <a href=\"/games/lasca/" + number + ".pdn\">PDN</a>" : "") + "</td></tr>\n";
    }
    if (rows.empty()) rows = "<tr><td colspan=\"6\">No games yet.</td></tr>\n";
    return "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
           "<title>Games — lasca-web</title><link rel=\"stylesheet\" href=\"/app.css\">"
           "<link rel=\"icon\" href=\"/favicon.svg\"></head>\n<body>"
           "<header class=\"top\"><h1>Games</h1><span class=\"subtitle\">kept by this server"
           "</span><nav><a href=\"/\">Lasca</a><a href=\"/torneio\">Torneio</a>"
           "<a href=\"/games\" class=\"current\">Games</a></nav></header>\n"
           "<main class=\"games-page\">" +
           (player.empty() ? std::string()
                           : "<h2>The finished two-person tables of <a href=\"/@/" +
                                 common::xmlEscape(player) + "\">" + common::xmlEscape(player) +
                                 "</a></h2>\n") +
           watch +
           "<p>The most recent games kept by this server, newest first. A Lasca game opens in "
           "the analysis board as a copy; a Torneio table shows its whole record once it is "
           "over, and only what every seat saw while it runs. "
           "<a href=\"/games.pdn\">Every kept game as PDN</a>, in pages (the end of each "
           "names the next).</p>\n"
           "<table class=\"games\"><thead><tr><th>Game</th><th>Players</th><th>Length</th>"
           "<th>Result</th><th>Last change</th><th></th></tr></thead><tbody>\n" +
           rows + "</tbody></table></main></body></html>\n";
}

std::string torneioTableText(const StoredTorneioTable& table) {
    if (!table.record.empty()) {
        const auto record = torneio::parseRecord(table.record);
        if (record) return torneio::recordListing(record.value());
    }
    // Running: what every seat saw, and nothing else (public events only, no seed).
    std::string out = "torneio table (running): " + table.params + "\nseats:";
    for (std::size_t s = 0; s < table.seats.size(); ++s) {
        const auto& seat = table.seats[s];
        out += " " + std::to_string(s + 1) + "=" + seat.kind +
               (seat.kind == "ai" ? " " + std::to_string(seat.level + 1) : "");
    }
    out += "\npublic events so far:\n";
    const auto params = torneio::parseParams(table.params);
    if (!params) return out + "  (parameters not readable)\n";
    auto state = torneio::State::create(params.value());
    if (!state) return out + "  (" + state.error() + ")\n";
    const torneio::Geometry geometry(params.value());
    for (const auto& decision : table.decisions) {
        const auto action = torneio::parseAction(decision.action, geometry);
        if (!action || !state.value().apply(decision.seat, action.value())) break;
    }
    for (const auto& event : state.value().events())
        if (event.audience == torneio::kPublic)
            out += "  " + torneio::formatEvent(event, geometry) + "\n";
    return out;
}

std::optional<GamesPage> gamesPage(Store& store, std::string_view target,
                                   std::size_t pdnPageBytes) {
    const std::string_view whole = target;
    const auto query = target.find('?');
    if (query != std::string_view::npos) target = target.substr(0, query);
    if (target == "/games" || target == "/games/") {
        const std::string_view q =
            query == std::string_view::npos ? std::string_view() : whole.substr(query + 1);
        if (q.starts_with("player=")) return playerGames(store, q.substr(7));
        const auto games = store.recentGames(kListed);
        if (!games) return storeError(games.error());
        const auto watchable = store.publicRunningDuels(kWatchListed);
        if (!watchable) return storeError(watchable.error());
        return page(200, "text/html; charset=utf-8",
                    gamesListHtml(games.value(), "", watchable.value()));
    }
    if (target == "/games.pdn") {
        const auto from = pdnPageQuery(query == std::string_view::npos ? std::string_view()
                                                                       : whole.substr(query + 1));
        if (!from) return page(400, "text/plain; charset=utf-8", "no such page of games\n");
        return pdnPage(store, from->tables, from->after, pdnPageBytes);
    }
    if (const auto n = numberIn(target, "/games/lasca/", ".pdn")) {
        const auto game = store.lascaGameByNumber(*n);
        if (!game) return storeError(game.error());
        if (!game.value()) return notFound();
        return page(200, "text/plain; charset=utf-8",
                    storedGamePdn(*game.value(), std::to_string(*n)));
    }
    if (const auto n = numberIn(target, "/games/table/", ".pdn")) {
        const auto duel = store.duelByNumber(*n);
        if (!duel) return storeError(duel.error());
        if (!duel.value() || duel.value()->result == "*") return notFound();  // not while it runs
        return page(200, "text/plain; charset=utf-8", duelPdn(*duel.value(), std::to_string(*n)));
    }
    if (const auto n = numberIn(target, "/games/torneio/", "")) {
        const auto table = store.torneioTableByNumber(*n);
        if (!table) return storeError(table.error());
        if (!table.value()) return notFound();
        return page(200, "text/plain; charset=utf-8", torneioTableText(*table.value()));
    }
    if (target.starts_with("/games")) return notFound();
    return std::nullopt;
}

}  // namespace web::pages
