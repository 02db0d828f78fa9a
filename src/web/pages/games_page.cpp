#include "web/pages/games_page.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "common/text.h"
#include "page_words.h"
#include "torneio/play/ai/ai_options.h"
#include "torneio/rules/record.h"
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
// An HTML page in the request's language: caches between keep one per language.
GamesPage withVary(GamesPage page) {
    page.headers.emplace_back("Vary", "Cookie, Accept-Language");
    return page;
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

// The name of an engine level (lasca_tables::kLevels) in the page's language.
std::string levelName(const i18n::Translator& words, int level) {
    switch (level) {
        case 0:
            return words.tr("pages.level.starter");
        case 1:
            return words.tr("pages.level.beginner");
        case 2:
            return words.tr("pages.level.novice");
        case 3:
            return words.tr("pages.level.casual");
        case 4:
            return words.tr("pages.level.club");
        case 5:
            return words.tr("pages.level.strong");
        default:
            return words.tr("pages.level.master");
    }
}
static_assert(std::size(kLevels) == 7, "levelName names every level");

// Who plays a Lasca game: "person v engine (Novice)", "people, both sides".
std::string lascaPlayers(const i18n::Translator& words, const GameSummary& game) {
    const int level = std::clamp(game.level, 0, static_cast<int>(kLevels.size()) - 1);
    const std::string engine = words.tr("pages.games.engine", {{"level", levelName(words, level)}});
    if (game.players == "white") return words.tr("pages.games.engineWhite", {{"engine", engine}});
    if (game.players == "black") return words.tr("pages.games.engineBlack", {{"engine", engine}});
    return words.tr("pages.games.peopleBoth");
}

// The seats of a Torneio table as the store lists them ("person, ai 2"), each in the page's
// language, an AI seat by its level's name ("person, AI (normal)").
std::string torneioPlayers(const i18n::Translator& words, const std::string& seats) {
    std::string out;
    std::size_t from = 0;
    while (from <= seats.size()) {
        auto to = seats.find(", ", from);
        if (to == std::string::npos) to = seats.size();
        std::string seat = seats.substr(from, to - from);
        const auto level = numberIn(seat, "ai ", "");  // 1 for kAiLevels[0]
        static_assert(std::size(torneio::play::kAiLevels) == 3, "every AI level is named");
        if (level && *level >= 1 && *level <= 3) {
            const std::string name = *level == 1   ? words.tr("pages.aiLevel.easy")
                                     : *level == 2 ? words.tr("pages.aiLevel.normal")
                                                   : words.tr("pages.aiLevel.strong");
            seat = words.tr("pages.games.ai", {{"level", name}});
        } else if (seat == "person") {
            seat = words.tr("pages.games.person");
        } else if (seat == "random") {
            seat = words.tr("pages.games.random");
        }
        out += (out.empty() ? "" : ", ") + seat;
        from = to + 2;
    }
    return out;
}

// The clock of a duel as people say it: "3 min + 2 s", "no clock".
std::string clockText(const i18n::Translator& words, const std::string& clock) {
    const auto slash = clock.find('/');
    const long long time = std::atoll(clock.substr(0, slash).c_str());
    const long long increment =
        slash == std::string::npos ? 0 : std::atoll(clock.substr(slash + 1).c_str());
    if (time <= 0) return words.tr("pages.clock.none");
    const std::string text = time % 60000 == 0
                                 ? words.tr("pages.clock.minutes", {{"count", time / 60000}})
                                 : words.tr("pages.clock.seconds", {{"count", time / 1000}});
    if (increment > 0)
        return words.tr("pages.clock.increment", {{"time", text}, {"increment", increment / 1000}});
    return text;
}

// A Lasca table for two people: opened on the analysis board once it is over (its moves while it
// runs are for its players and watchers).
std::string duelRow(const i18n::Translator& words, const GameSummary& g) {
    const bool running = g.result == "*";
    const std::string number = std::to_string(g.number);
    std::string result = running ? words.tr("pages.games.running") : g.result + " (" + g.rule + ")";
    return "<tr><td>" +
           common::xmlEscape(words.tr("pages.games.lascaTable", {{"number", number}})) +
           "</td><td>" +
           common::xmlEscape(
               words.tr("pages.games.twoPeople", {{"clock", clockText(words, g.players)}})) +
           "</td><td>" + common::xmlEscape(words.tr("pages.games.plies", {{"count", g.plies}})) +
           "</td><td>" + common::xmlEscape(result) + "</td><td>" + timeText(words, g.updated) +
           "</td><td>" +
           (running ? std::string()
                    : "<a href=\"/?view=table-" + number + "\">" +
                          common::xmlEscape(words.tr("pages.games.analyse")) +
                          "</a> <a href=\"/games/table/" + number + ".pdn\">" +
                          common::xmlEscape(words.tr("pages.games.pdn")) + "</a>") +
           "</td></tr>\n";
}

// A seat's player on a page: a link to the account's page; a deleted account's name
// ("deleted-<id>", which has no page) as text; "guest" for a seat without an account.
std::string playerLink(const i18n::Translator& words, const std::string& name) {
    if (name.empty()) return common::xmlEscape(words.tr("pages.games.guest"));
    const std::string text = common::xmlEscape(name);
    if (name.starts_with(accounts::kDeletedNamePrefix)) return text;
    return "<a href=\"/@/" + text + "\">" + text + "</a>";
}

// A running public table: its players and clock, and the link that watches it (the form of a
// table link the Lasca page reads: /?table=<id>&token=<token>).
std::string watchRow(const i18n::Translator& words, const store::NumberedDuel& d) {
    const auto& duel = d.duel;
    const std::string clock =
        std::to_string(duel.clockTime) + "/" + std::to_string(duel.clockIncrement);
    // The names are links (markup): the message is escaped first, then they go in.
    std::string players =
        common::xmlEscape(words.tr("pages.games.versus", {{"white", "\x01"}, {"black", "\x02"}}));
    players.replace(players.find('\x01'), 1, playerLink(words, duel.whiteName));
    players.replace(players.find('\x02'), 1, playerLink(words, duel.blackName));
    return "<tr><td>" +
           common::xmlEscape(
               words.tr("pages.games.lascaTable", {{"number", std::to_string(d.number)}})) +
           "</td><td>" + players + "</td><td>" + common::xmlEscape(clockText(words, clock)) +
           "</td><td>" +
           common::xmlEscape(duel.rated ? words.tr("pages.games.rated")
                                        : words.tr("pages.games.casual")) +
           "</td><td>" + timeText(words, duel.updated) +
           "</td><td><a href=\"/?table=" + common::xmlEscape(duel.id) +
           "&amp;token=" + common::xmlEscape(duel.publicWatch) + "\">" +
           common::xmlEscape(words.tr("pages.games.watch")) + "</a></td></tr>\n";
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
GamesPage playerGames(Store& store, std::string_view name, const i18n::Translator& words) {
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
    return page(200, "text/html; charset=utf-8",
                gamesListHtml(games, words, account.value()->name));
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

namespace {

// The running public Torneio tables: each a link that watches it, named by who sits where.
std::string torneioWatchHtml(const i18n::Translator& words,
                             const std::vector<WatchableTorneio>& tables) {
    if (tables.empty()) return "";
    std::string items;
    for (std::size_t i = 0; i < tables.size() && i < static_cast<std::size_t>(kWatchListed); ++i) {
        const auto& table = tables[i];
        std::string names;
        for (const auto& seat : table.seats) {
            std::string name = seat.player;
            if (seat.kind == "ai") {
                const std::string level = seat.level == 0   ? words.tr("pages.aiLevel.easy")
                                          : seat.level == 1 ? words.tr("pages.aiLevel.normal")
                                                            : words.tr("pages.aiLevel.strong");
                name = words.tr("torneio.watch.aiSeat", {{"level", level}});
            } else if (seat.kind == "person" && name.empty()) {
                name = words.tr("torneio.watch.guest");
            } else if (seat.kind != "person") {
                name = seat.kind;
            }
            names += (names.empty() ? "" : ", ") + name;
        }
        items += "<li><a href=\"/torneio?watch=" + common::xmlEscape(table.id) + "\">" +
                 common::xmlEscape(words.tr("torneio.watch.lobbyGame", {{"names", names}})) +
                 "</a> (" +
                 common::xmlEscape(table.rated ? words.tr("pages.games.rated")
                                               : words.tr("pages.games.casual")) +
                 ")</li>\n";
    }
    return "<h2>" + common::xmlEscape(words.tr("torneio.watch.gamesHeading")) + "</h2>\n<p>" +
           common::xmlEscape(words.tr("torneio.watch.gamesIntro")) +
           "</p>\n<ul class=\"games watch-torneio\">\n" + items + "</ul>\n";
}

}  // namespace

std::string gamesListHtml(const std::vector<GameSummary>& games, const i18n::Translator& words,
                          const std::string& player,
                          const std::vector<store::NumberedDuel>& watchable,
                          const std::vector<WatchableTorneio>& torneio) {
    // Escaped, for the page (named tr: scripts/i18n_check.py finds its keys).
    const auto tr = [&](std::string_view key) { return common::xmlEscape(words.tr(key)); };
    std::string watch;
    for (const auto& d : watchable) watch += watchRow(words, d);
    if (!watch.empty())
        watch =
            "<h2>" + tr("pages.games.watchHeading") + "</h2>\n<p>" + tr("pages.games.watchIntro") +
            "</p>\n<table class=\"games watch\"><thead><tr><th scope=\"col\">" +
            tr("pages.games.col.table") + "</th><th scope=\"col\">" +
            tr("pages.games.col.playersWhiteBlack") + "</th><th scope=\"col\">" +
            tr("pages.games.col.clock") + "</th><th scope=\"col\">" + tr("pages.games.col.kind") +
            "</th><th scope=\"col\">" + tr("pages.games.col.lastChange") +
            "</th><th scope=\"col\"><span class=\"visually-hidden\">" +
            tr("pages.games.col.links") + "</span></th></tr></thead><tbody>\n" + watch +
            "</tbody></table>\n";
    watch += torneioWatchHtml(words, torneio);
    std::string rows;
    for (const auto& g : games) {
        if (g.kind == "duel") {
            rows += duelRow(words, g);
            continue;
        }
        const bool lasca = g.kind == "lasca";
        const bool running = lasca ? g.result == "*" : g.result.empty();
        const std::string number = std::to_string(g.number);
        const std::string open = lasca ? "/?view=" + number : "/games/torneio/" + number;
        std::string result = running ? words.tr("pages.games.running") : g.result;
        if (!running && !g.rule.empty()) result += " (" + g.rule + ")";
        rows +=
            "<tr><td>" +
            common::xmlEscape(lasca ? words.tr("pages.games.lascaGame", {{"number", number}})
                                    : words.tr("pages.games.torneioTable", {{"number", number}})) +
            "</td><td>" +
            common::xmlEscape(lasca ? lascaPlayers(words, g) : torneioPlayers(words, g.players)) +
            "</td><td>" +
            common::xmlEscape(lasca ? words.tr("pages.games.plies", {{"count", g.plies}})
                                    : words.tr("pages.games.decisions", {{"count", g.plies}})) +
            "</td><td>" + common::xmlEscape(result) + "</td><td>" + timeText(words, g.updated) +
            "</td><td><a href=\"" + open + "\">" +
            (lasca ? tr("pages.games.analyse") : tr("pages.games.record")) + "</a>" +
            (lasca
                 ? " <a href=\"/games/lasca/" + number + ".pdn\">" + tr("pages.games.pdn") + "</a>"
                 : "") +
            "</td></tr>\n";
    }
    if (rows.empty()) rows = "<tr><td colspan=\"6\">" + tr("pages.games.none") + "</td></tr>\n";
    std::string playerHeading;
    if (!player.empty()) {
        const std::string name = common::xmlEscape(player);
        // {player} is a link (markup): put in after the message is escaped.
        playerHeading =
            common::xmlEscape(words.tr("pages.games.playerHeading", {{"player", "\x01"}}));
        playerHeading.replace(playerHeading.find('\x01'), 1,
                              "<a href=\"/@/" + name + "\">" + name + "</a>");
        playerHeading = "<h2>" + playerHeading + "</h2>\n";
    }
    return pageStart(words, words.tr("pages.games.heading"),
                     "<h1>" + tr("pages.games.heading") + "</h1>", tr("pages.games.subtitle"),
                     "/games") +
           "<main class=\"games-page\">" + playerHeading + watch + "<p>" + tr("pages.games.intro") +
           " <a href=\"/games.pdn\">" + tr("pages.games.allPdn") +
           "</a></p>\n<table class=\"games\"><thead><tr><th scope=\"col\">" +
           tr("pages.games.col.game") + "</th><th scope=\"col\">" + tr("pages.games.col.players") +
           "</th><th scope=\"col\">" + tr("pages.games.col.length") + "</th><th scope=\"col\">" +
           tr("pages.games.col.result") + "</th><th scope=\"col\">" +
           tr("pages.games.col.lastChange") +
           "</th><th scope=\"col\"><span class=\"visually-hidden\">" + tr("pages.games.col.links") +
           "</span></th></tr></thead><tbody>\n" + rows + "</tbody></table></main>" + pageEnd();
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
    const auto lines = publicEventLines(table);
    if (!lines) return out + "  (parameters not readable)\n";
    for (const auto& line : *lines) out += "  " + line + "\n";
    return out;
}

std::optional<GamesPage> gamesPage(Store& store, std::string_view target,
                                   std::size_t pdnPageBytes) {
    return gamesPage(store, target, builtInWords("en"), pdnPageBytes);
}

std::string gamesListHtml(const std::vector<GameSummary>& games, const std::string& player,
                          const std::vector<store::NumberedDuel>& watchable) {
    return gamesListHtml(games, builtInWords("en"), player, watchable);
}

std::optional<GamesPage> gamesPage(Store& store, std::string_view target,
                                   const i18n::Translator& words, std::size_t pdnPageBytes) {
    return gamesPage(store, target, words, {}, pdnPageBytes);
}

std::optional<GamesPage> gamesPage(Store& store, std::string_view target,
                                   const i18n::Translator& words,
                                   const std::vector<WatchableTorneio>& torneio,
                                   std::size_t pdnPageBytes) {
    const std::string_view whole = target;
    const auto query = target.find('?');
    if (query != std::string_view::npos) target = target.substr(0, query);
    if (target == "/games" || target == "/games/") {
        const std::string_view q =
            query == std::string_view::npos ? std::string_view() : whole.substr(query + 1);
        if (q.starts_with("player=")) return withVary(playerGames(store, q.substr(7), words));
        const auto games = store.recentGames(kListed);
        if (!games) return storeError(games.error());
        const auto watchable = store.publicRunningDuels(kWatchListed);
        if (!watchable) return storeError(watchable.error());
        return withVary(page(200, "text/html; charset=utf-8",
                             gamesListHtml(games.value(), words, "", watchable.value(), torneio)));
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
    if (const auto n = numberIn(target, "/games/torneio/", ".txt")) {
        const auto table = store.torneioTableByNumber(*n);
        if (!table) return storeError(table.error());
        if (!table.value()) return notFound();
        return page(200, "text/plain; charset=utf-8", torneioTableText(*table.value()));
    }
    if (const auto n = numberIn(target, "/games/torneio/", "")) {
        const auto table = store.torneioTableByNumber(*n);
        if (!table) return storeError(table.error());
        if (!table.value()) return notFound();
        return withVary(
            page(200, "text/html; charset=utf-8", torneioTableHtml(*table.value(), *n, words)));
    }
    if (target.starts_with("/games")) return notFound();
    return std::nullopt;
}

}  // namespace web::pages
