#include "web/pages/player_page.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/glicko2.h"
#include "common/text.h"
#include "page_words.h"
#include "web/accounts/accounts.h"
#include "web/ratings/ratings.h"

namespace web::pages {

using Json = nlohmann::json;
using store::NumberedDuel;
using store::StoredRating;

namespace {

constexpr std::string_view kHtmlPrefix = "/@/";
constexpr std::string_view kJsonPrefix = "/api/@/";
// The categories shown, in order: the Lasca speeds, then Torneio's one rating.
const char* const kCategories[] = {"bullet", "blitz", "rapid", "classical",
                                   store::kTorneioCategory};

bool provisional(const StoredRating& r) {
    return r.rating.deviation >= common::kLichessGlicko2.provisionalDeviation;
}

// "1662" or "1662?" (provisional): a rating as it is shown.
std::string ratingText(const StoredRating& r) {
    return std::to_string(std::lround(r.rating.rating)) + (provisional(r) ? "?" : "");
}

// A finished table as its player sees it.
struct Seen {
    std::string colour;    // "white" or "black"
    std::string opponent;  // "" for a guest
    std::string result;    // "win", "loss", "draw"
};
Seen seenBy(const store::StoredDuel& duel, std::int64_t accountId) {
    Seen seen;
    const bool white = duel.whiteAccount == accountId;
    seen.colour = white ? "white" : "black";
    seen.opponent = white ? duel.blackName : duel.whiteName;
    const std::string won = white ? "2-0" : "0-2";
    seen.result = duel.result == "1-1" ? "draw" : duel.result == won ? "win" : "loss";
    return seen;
}

// A finished Torneio table as one of its players sees it.
//   seat      the player's seat, 1..N
//   outcome   "win", "draw" or "loss" (the result names the seats that won or drew)
//   others    the other seats: {name, whether it is an account's name}: an account's name,
//             "guest", or the AI's kind ("ai 2", "random")
struct TorneioSeen {
    int seat = 0;
    std::string outcome;
    std::vector<std::pair<std::string, bool>> others;
};
TorneioSeen seenBy(const store::StoredTorneioTable& table, std::int64_t accountId) {
    TorneioSeen seen;
    for (std::size_t s = 0; s < table.seats.size(); ++s) {
        const auto& seat = table.seats[s];
        if (seat.account == accountId && seen.seat == 0) {
            seen.seat = static_cast<int>(s) + 1;
        } else if (seat.account != 0) {
            seen.others.emplace_back(seat.name, true);
        } else {
            seen.others.emplace_back(seat.kind == "person" ? std::string("guest")
                                     : seat.kind == "ai"   ? "ai " + std::to_string(seat.level + 1)
                                                           : seat.kind,
                                     false);  // the page writes these in its language
        }
    }
    const std::string mine = " " + std::to_string(seen.seat) + " ";
    const bool named = (table.result + " ").find(mine) != std::string::npos;
    seen.outcome = !named ? "loss" : table.result.starts_with("draw") ? "draw" : "win";
    return seen;
}

// "casual", or the speed a rated table is rated in.
std::string category(const store::StoredDuel& duel) {
    if (!duel.rated) return "casual";
    std::optional<ratings::Clock> clock;
    if (duel.clockTime > 0)
        clock = ratings::Clock{static_cast<std::uint32_t>(duel.clockTime / 1000),
                               static_cast<std::uint32_t>(duel.clockIncrement / 1000)};
    return std::string(ratings::categoryName(clock));
}

std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

// The page of games a query asks for: the n of `before=<n>` (n >= 1) among its fields, 0 (the
// newest) without one; nothing when its n is not such a number.
std::optional<std::int64_t> beforeIn(std::string_view query) {
    while (!query.empty()) {
        const auto amp = query.find('&');
        auto field = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        if (!field.starts_with("before=")) continue;
        field.remove_prefix(7);
        std::int64_t n = 0;
        const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), n);
        if (field.empty() || ec != std::errc() || end != field.data() + field.size() || n < 1)
            return std::nullopt;
        return n;
    }
    return std::int64_t{0};
}

GamesPage answer(int status, std::string contentType, std::string body) {
    return GamesPage{status, std::move(contentType), std::move(body), {}};
}

}  // namespace

std::string historySvg(const std::vector<store::RatingPoint>& history,
                       const std::string& category) {
    return historySvg(history, category, category + " rating history");
}

std::string historySvg(const std::vector<store::RatingPoint>& history, const std::string& category,
                       const std::string& label) {
    std::vector<double> points;
    for (const auto& p : history)
        if (p.category == category) points.push_back(p.rating);
    if (points.empty()) return "";
    constexpr double kWidth = 600, kHeight = 160, kPad = 10;
    const auto [lo, hi] = std::minmax_element(points.begin(), points.end());
    const double low = *lo - 50, high = *hi + 50;
    const auto x = [&](std::size_t i) {
        return points.size() == 1 ? kWidth / 2
                                  : kPad + (kWidth - 2 * kPad) * static_cast<double>(i) /
                                               static_cast<double>(points.size() - 1);
    };
    const auto y = [&](double r) {
        return kPad + (kHeight - 2 * kPad) * (high - r) / (high - low);
    };
    std::string line, dots;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const std::string at = fixed(x(i), 1) + "," + fixed(y(points[i]), 1);
        line += (i ? " " : "") + at;
        dots += "<circle cx=\"" + fixed(x(i), 1) + "\" cy=\"" + fixed(y(points[i]), 1) +
                "\" r=\"3\"><title>" + std::to_string(std::lround(points[i])) + "</title></circle>";
    }
    return "<svg class=\"rating-history\" role=\"img\" aria-label=\"" + common::xmlEscape(label) +
           "\" width=\"600\" height=\"160\" viewBox=\"0 0 600 160\" "
           "xmlns=\"http://www.w3.org/2000/svg\"><text x=\"4\" y=\"14\" font-size=\"12\">" +
           std::to_string(std::lround(high)) + "</text><text x=\"4\" y=\"156\" font-size=\"12\">" +
           std::to_string(std::lround(low)) +
           "</text><polyline fill=\"none\" "
           "stroke=\"currentColor\" stroke-width=\"2\" points=\"" +
           line + "\"/>" + dots + "</svg>";
}

namespace {

// The finished Torneio tables of a player's page, as JSON.
Json torneioJson(const PlayerFacts& facts) {
    Json tables = Json::array();
    for (const auto& [number, table] : facts.torneioTables) {
        const auto seen = seenBy(table, facts.account.id);
        Json seats = Json::array();
        for (std::size_t s = 0; s < table.seats.size(); ++s) {
            const auto& seat = table.seats[s];
            Json one = {{"seat", s + 1},
                        {"kind", seat.kind},
                        {"player", seat.account != 0 ? Json(seat.name) : Json(nullptr)}};
            if (seat.kind == "ai") one["level"] = seat.level;
            seats.push_back(one);
        }
        tables.push_back({{"table", number},
                          {"seat", seen.seat},
                          {"seats", seats},
                          {"result", table.result},
                          {"outcome", seen.outcome},
                          {"rated", table.rated},
                          {"date", table.updated},
                          {"record", "/games/torneio/" + std::to_string(number)}});
    }
    return tables;
}

// The finished Torneio tables of a player's page, as rows of its HTML table.
// A category's name in the page's language ("rapid", "rápida").
std::string categoryName(const i18n::Translator& words, std::string_view category) {
    if (category == "bullet") return words.tr("pages.player.category.bullet");
    if (category == "blitz") return words.tr("pages.player.category.blitz");
    if (category == "rapid") return words.tr("pages.player.category.rapid");
    if (category == "classical") return words.tr("pages.player.category.classical");
    if (category == store::kTorneioCategory) return words.tr("pages.player.category.torneio");
    if (category == "casual") return words.tr("pages.games.casual");
    return std::string(category);
}

// "win", "loss", "draw" in the page's language.
std::string outcomeName(const i18n::Translator& words, std::string_view outcome) {
    if (outcome == "win") return words.tr("pages.player.win");
    if (outcome == "draw") return words.tr("pages.player.draw");
    return words.tr("pages.player.loss");
}

std::string torneioRows(const PlayerFacts& facts, const i18n::Translator& words) {
    std::string rows;
    for (const auto& [number, table] : facts.torneioTables) {
        const auto seen = seenBy(table, facts.account.id);
        std::string others;
        for (const auto& [other, account] : seen.others) {
            // A deleted account's name ("deleted-<id>") has no page: it is shown as text.
            const bool linked = account && !other.starts_with(accounts::kDeletedNamePrefix);
            std::string text = common::xmlEscape(other);
            if (!account) {
                const auto level = other.starts_with("ai ") ? std::atoi(other.c_str() + 3) : 0;
                text = common::xmlEscape(
                    other == "guest"    ? words.tr("pages.games.guest")
                    : other == "random" ? words.tr("pages.games.random")
                    : level == 1
                        ? words.tr("pages.games.ai", {{"level", words.tr("pages.aiLevel.easy")}})
                    : level == 2
                        ? words.tr("pages.games.ai", {{"level", words.tr("pages.aiLevel.normal")}})
                    : level == 3
                        ? words.tr("pages.games.ai", {{"level", words.tr("pages.aiLevel.strong")}})
                        : other);
            }
            if (!others.empty()) others += ", ";
            if (linked)
                others += "<a href=\"/@/" + text + "\">" + text + "</a>";
            else
                others += text;
        }
        rows += "<tr><td>" + std::to_string(seen.seat) + "</td><td>" + others + "</td><td>" +
                common::xmlEscape(words.tr(
                    "pages.player.outcome",
                    {{"outcome", outcomeName(words, seen.outcome)}, {"result", table.result}})) +
                "</td><td>" +
                common::xmlEscape(table.rated ? words.tr("pages.games.rated")
                                              : words.tr("pages.games.casual")) +
                "</td><td>" + dayText(words, table.updated) + "</td><td><a href=\"/games/torneio/" +
                std::to_string(number) + "\">" + common::xmlEscape(words.tr("pages.games.record")) +
                "</a></td></tr>\n";
    }
    if (rows.empty())
        rows = "<tr><td colspan=\"6\">" +
               common::xmlEscape(words.tr("pages.player.noTorneioTables")) + "</td></tr>\n";
    return rows;
}

}  // namespace

Json playerJson(const PlayerFacts& facts) {
    Json ratings = Json::array();
    for (const auto& r : facts.ratings)
        ratings.push_back({{"category", r.category},
                           {"rating", r.rating.rating},
                           {"deviation", r.rating.deviation},
                           {"volatility", r.rating.volatility},
                           {"provisional", provisional(r)},
                           {"games", r.games},
                           {"lastGame", r.lastGame}});
    Json history = Json::array();
    for (const auto& p : facts.history)
        history.push_back({{"category", p.category},
                           {"game", p.number},
                           {"rating", p.rating},
                           {"deviation", p.deviation},
                           {"at", p.at}});
    Json games = Json::array();
    for (const auto& [number, duel] : facts.games) {
        const auto seen = seenBy(duel, facts.account.id);
        games.push_back({{"game", number},
                         {"colour", seen.colour},
                         {"opponent", seen.opponent.empty() ? Json(nullptr) : Json(seen.opponent)},
                         {"result", duel.result},
                         {"rule", duel.rule},
                         {"outcome", seen.result},
                         {"rated", duel.rated},
                         {"category", category(duel)},
                         {"date", duel.updated},
                         {"pdn", "/games/table/" + std::to_string(number) + ".pdn"}});
    }
    return {{"name", facts.account.name},
            {"memberSince", facts.account.created},
            {"ratings", ratings},
            {"history", history},
            {"games", games},
            {"torneioTables", torneioJson(facts)},
            {"older", facts.older > 0 ? Json("/api/@/" + facts.account.name +
                                             "?before=" + std::to_string(facts.older))
                                      : Json(nullptr)}};
}

std::string playerHtml(const PlayerFacts& facts) {
    return playerHtml(facts, builtInWords("en"));
}

std::string playerHtml(const PlayerFacts& facts, const i18n::Translator& words) {
    // Escaped, for the page (named tr: scripts/i18n_check.py finds its keys).
    const auto tr = [&](std::string_view key) { return common::xmlEscape(words.tr(key)); };
    const std::string name = common::xmlEscape(facts.account.name);
    std::string ratings;
    std::string graphs;
    for (const char* speed : kCategories) {
        const auto r = std::find_if(facts.ratings.begin(), facts.ratings.end(),
                                    [&](const StoredRating& s) { return s.category == speed; });
        if (r == facts.ratings.end()) continue;
        const std::string shown = categoryName(words, speed);
        ratings += "<tr><td>" + common::xmlEscape(shown) + "</td><td class=\"rating\">" +
                   ratingText(*r) + "</td><td>" + std::to_string(std::lround(r->rating.deviation)) +
                   "</td><td>" + std::to_string(r->games) + "</td></tr>\n";
        graphs += "<h3>" + common::xmlEscape(shown) + "</h3>\n" +
                  historySvg(facts.history, speed,
                             words.tr("pages.player.history", {{"category", shown}})) +
                  "\n";
    }
    if (ratings.empty())
        ratings = "<tr><td colspan=\"4\">" + tr("pages.player.noRatings") + "</td></tr>\n";
    std::string games;
    for (const auto& [number, duel] : facts.games) {
        const auto seen = seenBy(duel, facts.account.id);
        const std::string n = std::to_string(number);
        // A deleted account's name ("deleted-<id>") has no page: it is shown as text.
        std::string opponent = tr("pages.games.guest");
        if (seen.opponent.starts_with(accounts::kDeletedNamePrefix))
            opponent = common::xmlEscape(seen.opponent);
        else if (!seen.opponent.empty())
            opponent = "<a href=\"/@/" + common::xmlEscape(seen.opponent) + "\">" +
                       common::xmlEscape(seen.opponent) + "</a>";
        games += "<tr><td>" + opponent + "</td><td>" +
                 (seen.colour == "white" ? tr("pages.player.white") : tr("pages.player.black")) +
                 "</td><td>" +
                 common::xmlEscape(words.tr("pages.player.outcome",
                                            {{"outcome", outcomeName(words, seen.result)},
                                             {"result", duel.result + ", " + duel.rule}})) +
                 "</td><td>" + common::xmlEscape(categoryName(words, category(duel))) +
                 "</td><td>" + dayText(words, duel.updated) + "</td><td><a href=\"/games/table/" +
                 n + ".pdn\">" + tr("pages.games.pdn") + "</a></td></tr>\n";
    }
    if (games.empty())
        games = "<tr><td colspan=\"6\">" + tr("pages.player.noGames") + "</td></tr>\n";
    std::string older;
    if (facts.older > 0)
        older = "<p><a href=\"/@/" + name + "?before=" + std::to_string(facts.older) + "\">" +
                tr("pages.player.older") + "</a></p>\n";
    const auto th = [](const std::string& text) { return "<th scope=\"col\">" + text + "</th>"; };
    const std::string links = "<th scope=\"col\"><span class=\"visually-hidden\">" +
                              tr("pages.player.col.links") + "</span></th>";
    // The message holds the links' markup; its placeholders are paths made of the name.
    const std::string gamesLinks =
        words.tr("pages.player.gamesLinks",
                 {{"games", "/games?player=" + name}, {"json", "/api/@/" + name}});
    return pageStart(words, facts.account.name, "<h1 class=\"player-name\">" + name + "</h1>",
                     common::xmlEscape(words.tr("pages.player.memberSince",
                                                {{"date", dayText(words, facts.account.created)}})),
                     "") +
           "<main class=\"player-page\"><h2>" + tr("pages.player.ratings") +
           "</h2>\n<table class=\"ratings\"><thead><tr>" + th(tr("pages.player.col.game")) +
           th(tr("pages.player.col.rating")) + th(tr("pages.player.col.deviation")) +
           th(tr("pages.player.col.ratedGames")) + "</tr></thead><tbody>\n" + ratings +
           "</tbody></table>\n<p>" + tr("pages.player.provisional") + "</p>\n" + graphs + "<h2>" +
           tr("pages.player.games") + "</h2>\n<p>" + gamesLinks + "</p>\n" +
           "<table class=\"games\"><thead><tr>" + th(tr("pages.player.col.opponent")) +
           th(tr("pages.player.col.colour")) + th(tr("pages.player.col.result")) +
           th(tr("pages.player.col.speed")) + th(tr("pages.player.col.date")) + links +
           "</tr></thead><tbody>\n" + games + "</tbody></table>\n" + older + "<h2>" +
           tr("pages.player.torneioTables") +
           "</h2>\n<table class=\"games torneio-tables\"><thead><tr>" +
           th(tr("pages.player.col.seat")) + th(tr("pages.player.col.with")) +
           th(tr("pages.player.col.result")) + th(tr("pages.player.col.rated")) +
           th(tr("pages.player.col.date")) + links + "</tr></thead><tbody>\n" +
           torneioRows(facts, words) + "</tbody></table></main>" + pageEnd();
}

std::optional<GamesPage> playerPage(store::Store& store, std::string_view target) {
    return playerPage(store, target, builtInWords("en"));
}

std::optional<GamesPage> playerPage(store::Store& store, std::string_view target,
                                    const i18n::Translator& words) {
    std::string_view query;
    if (const auto mark = target.find('?'); mark != std::string_view::npos) {
        query = target.substr(mark + 1);
        target = target.substr(0, mark);
    }
    const bool json = target.starts_with(kJsonPrefix);
    if (!json && !target.starts_with(kHtmlPrefix)) return std::nullopt;
    const auto name = target.substr(json ? kJsonPrefix.size() : kHtmlPrefix.size());
    const auto notFound = [&] {
        return json ? answer(404, "application/json", "{\"error\":\"no such player\"}\n")
                    : answer(404, "text/plain; charset=utf-8", "no such player\n");
    };
    const auto failed = [&](const std::string& error) {
        return answer(500, "text/plain; charset=utf-8",
                      "the player cannot be read: " + error + "\n");
    };
    const auto key = accounts::nameKey(name);
    if (!key) return notFound();
    const auto before = beforeIn(query);
    if (!before)
        return json ? answer(400, "application/json", "{\"error\":\"no such page of games\"}\n")
                    : answer(400, "text/plain; charset=utf-8", "no such page of games\n");
    const auto account = store.findAccount(key.value());
    if (!account) return failed(account.error());
    if (!account.value()) return notFound();
    PlayerFacts facts;
    facts.account = *account.value();
    facts.account.passwordHash.clear();
    auto ratings = store.ratingsOf(facts.account.id);
    if (!ratings) return failed(ratings.error());
    facts.ratings = std::move(ratings).value();
    auto history = store.ratingHistory(facts.account.id);
    if (!history) return failed(history.error());
    facts.history = std::move(history).value();
    // One game more than a page: whether there is an older page.
    auto games = store.duelsOf(facts.account.id, *before, kPlayerGames + 1, false);
    if (!games) return failed(games.error());
    facts.games = std::move(games).value();
    auto tables = store.finishedTorneioTablesOf(facts.account.id, kPlayerGames);
    if (!tables) return failed(tables.error());
    facts.torneioTables = std::move(tables).value();
    if (facts.games.size() > static_cast<std::size_t>(kPlayerGames)) {
        facts.games.resize(static_cast<std::size_t>(kPlayerGames));
        facts.older = facts.games.back().number;
    }
    if (json) return answer(200, "application/json", playerJson(facts).dump() + "\n");
    auto page = answer(200, "text/html; charset=utf-8", playerHtml(facts, words));
    page.headers.emplace_back("Vary", "Cookie, Accept-Language");
    return page;
}

}  // namespace web::pages
