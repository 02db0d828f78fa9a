// The player pages (include/web/pages/player_page.h) over a store in memory: the finished tables
// of an account come kPlayerGames a page, newest first, each page naming the older one (HTML and
// JSON alike), so that every game comes once and none is missing; a running table and another
// account's are on no page; a malformed page is a 400; a deleted opponent is named
// "deleted-<id>", as text (it has no page). An account's file of games keeps to its budget,
// leaving out the oldest games and saying so.
#include "web/pages/player_page.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "lasca/core/pdn.h"
#include "lasca/core/position.h"
#include "web/pages/account_games.h"

namespace web::pages {

using store::Store;
using store::StoredDuel;
using Json = nlohmann::json;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::int64_t account(Store& store, const std::string& name, const std::string& key) {
    auto made = store.createAccount(name, key, "hash", 1764700000000);
    EXPECT_TRUE(made.ok() && made.value().has_value());
    return made.ok() && made.value() ? made.value()->id : 0;
}

// A table of two accounts, over ("2-0" by resignation) or running ("*").
StoredDuel duel(const std::string& id, std::int64_t white, std::int64_t black,
                const std::string& result) {
    StoredDuel d;
    d.id = id;
    d.startLfen = lasca::Position::startPosition().toLfen();
    d.whiteHash = "w" + id;
    d.blackHash = "b" + id;
    d.watchHash = "v" + id;
    d.result = result;
    d.rule = result == "*" ? "" : "resign";
    d.created = d.updated = 1764700000000;
    d.whiteAccount = white;
    d.blackAccount = black;
    return d;
}

// The numbers of the games of every page of a player's JSON page, page by page, following
// "older" from `target`.
std::vector<std::vector<std::int64_t>> jsonPages(Store& store, std::string target) {
    std::vector<std::vector<std::int64_t>> pages;
    for (int guard = 0; guard < 100 && !target.empty(); ++guard) {
        const auto page = playerPage(store, target);
        EXPECT_TRUE(page && page->status == 200) << target;
        if (!page || page->status != 200) break;
        const Json json = Json::parse(page->body);
        std::vector<std::int64_t> numbers;
        for (const auto& g : json["games"]) numbers.push_back(g["game"].get<std::int64_t>());
        pages.push_back(numbers);
        target = json["older"].is_null() ? "" : json["older"].get<std::string>();
    }
    return pages;
}

TEST(PlayerPage, GamesComeFiftyAPageEachOnceNoneMissing) {
    auto store = Store::open("").value();
    const auto ana = account(*store, "Ana", "ana");
    const auto bo = account(*store, "Bo", "bo");
    const auto cy = account(*store, "Cy", "cy");
    std::set<std::int64_t> anas;  // the numbers of Ana's finished tables
    std::int64_t number = 0;
    for (int i = 0; i < 120; ++i) {
        const auto id = "t" + std::to_string(i);
        ASSERT_TRUE(store->saveDuel(duel(id, i % 2 ? ana : bo, i % 2 ? bo : ana, "2-0")).ok());
        anas.insert(++number);
        if (i % 40 == 0) {  // running tables, and other people's, among them
            ASSERT_TRUE(store->saveDuel(duel("r" + id, ana, bo, "*")).ok());
            ASSERT_TRUE(store->saveDuel(duel("o" + id, bo, cy, "2-0")).ok());
            number += 2;
        }
    }
    const auto pages = jsonPages(*store, "/api/@/ana");
    ASSERT_EQ(pages.size(), 3u);
    EXPECT_EQ(pages[0].size(), 50u);
    EXPECT_EQ(pages[1].size(), 50u);
    EXPECT_EQ(pages[2].size(), 20u);
    std::vector<std::int64_t> all;
    for (const auto& p : pages) all.insert(all.end(), p.begin(), p.end());
    EXPECT_TRUE(std::is_sorted(all.rbegin(), all.rend())) << "newest (highest number) first";
    EXPECT_EQ(std::set<std::int64_t>(all.begin(), all.end()), anas) << "each once, none missing";
    EXPECT_EQ(all.size(), anas.size());

    // The HTML pages: the same games, each page linking to the next.
    std::string target = "/@/ana";
    std::vector<std::int64_t> seen;
    for (int p = 0; p < 3; ++p) {
        const auto page = playerPage(*store, target);
        ASSERT_TRUE(page && page->status == 200) << target;
        for (auto at = page->body.find("/games/table/"); at != std::string::npos;
             at = page->body.find("/games/table/", at + 1))
            seen.push_back(std::stoll(page->body.substr(at + 13)));
        const auto link = page->body.find("<a href=\"/@/Ana?before=");
        if (p < 2) {
            ASSERT_NE(link, std::string::npos) << page->body;
            EXPECT_TRUE(contains(page->body, "\">Older games</a>"));
            target = page->body.substr(link + 9, page->body.find('"', link + 9) - link - 9);
            EXPECT_EQ(target,
                      "/@/Ana?before=" + std::to_string(pages[static_cast<std::size_t>(p)].back()));
        } else {
            EXPECT_EQ(link, std::string::npos) << "the last page names no older one";
        }
    }
    EXPECT_EQ(seen, all);

    // Exactly a page of games: no older page.
    for (int i = 0; i < 47; ++i)
        ASSERT_TRUE(store->saveDuel(duel("c" + std::to_string(i), cy, bo, "2-0")).ok());
    const auto cys = jsonPages(*store, "/api/@/Cy");
    ASSERT_EQ(cys.size(), 1u);
    EXPECT_EQ(cys[0].size(), 50u);

    // A page past the oldest game is empty; a malformed one is a 400.
    EXPECT_EQ(Json::parse(playerPage(*store, "/api/@/ana?before=1")->body)["games"].size(), 0u);
    for (const std::string bad : {"/@/ana?before=x", "/@/ana?before=0", "/@/ana?before=-3",
                                  "/api/@/ana?before=", "/api/@/ana?x=1&before=2y"})
        EXPECT_EQ(playerPage(*store, bad)->status, 400) << bad;
    EXPECT_EQ(playerPage(*store, "/@/ana?other=1")->status, 200) << "other fields are ignored";
}

TEST(PlayerPage, ADeletedOpponentIsNamedByItsNumberAsText) {
    auto store = Store::open("").value();
    const auto ana = account(*store, "Ana", "ana");
    const auto bo = account(*store, "Bo_9", "bo_9");
    ASSERT_TRUE(store->saveDuel(duel("t1", ana, bo, "2-0")).ok());
    ASSERT_TRUE(store->deleteAccount(bo).value());
    const std::string deleted = "deleted-" + std::to_string(bo);
    const auto html = playerPage(*store, "/@/Ana");
    ASSERT_EQ(html->status, 200);
    EXPECT_TRUE(contains(html->body, "<td>" + deleted + "</td>")) << html->body;
    EXPECT_FALSE(contains(html->body, "/@/deleted-")) << "a deleted account has no page";
    EXPECT_FALSE(contains(html->body, "Bo_9"));
    const auto json = Json::parse(playerPage(*store, "/api/@/Ana")->body);
    EXPECT_EQ(json["games"][0]["opponent"], deleted);
    for (const std::string& gone :
         std::vector<std::string>{"/@/Bo_9", "/api/@/bo_9", "/@/" + deleted})
        EXPECT_EQ(playerPage(*store, gone)->status, 404) << gone;
}

TEST(AccountGamesPdn, AFileKeepsToItsBudgetLeavingOutTheOldestGames) {
    auto store = Store::open("").value();
    const auto ana = account(*store, "Ana", "ana");
    for (int i = 0; i < 100; ++i)
        ASSERT_TRUE(
            store->saveDuel(duel("t" + std::to_string(i), ana, 0, i < 99 ? "2-0" : "*")).ok());
    const auto whole = accountGamesPdn(*store, store->findAccount("ana").value().value());
    ASSERT_EQ(whole.status, 200);
    ASSERT_EQ(whole.headers.size(), 1u);
    EXPECT_EQ(whole.headers[0].second, "attachment; filename=\"Ana-games.pdn\"");
    std::istringstream in(whole.body);
    const auto all = lasca::readPdn(in);
    ASSERT_TRUE(all.ok()) << all.error();
    ASSERT_EQ(all.value().size(), 100u) << "more than one batch of the store, every game";
    EXPECT_EQ(*all.value().front().tag("Round"), "1");
    EXPECT_EQ(*all.value().back().tag("Result"), "*");
    EXPECT_FALSE(contains(whole.body, "% the oldest"));

    const std::size_t budget = whole.body.size() / 4;
    const auto cut = accountGamesPdn(*store, store->findAccount("ana").value().value(), budget);
    EXPECT_TRUE(cut.body.starts_with("% the oldest games are left out")) << cut.body.substr(0, 99);
    EXPECT_LE(cut.body.size(), budget + 100);
    std::istringstream part(cut.body);
    const auto newest = lasca::readPdn(part);
    ASSERT_TRUE(newest.ok()) << newest.error();
    ASSERT_GT(newest.value().size(), 10u);
    EXPECT_LT(newest.value().size(), 30u);
    EXPECT_EQ(*newest.value().back().tag("Round"), "100") << "the newest games are kept";
    // A budget smaller than a game: the newest game alone.
    const auto one = accountGamesPdn(*store, store->findAccount("ana").value().value(), 1);
    std::istringstream single(one.body);
    EXPECT_EQ(lasca::readPdn(single).value().size(), 1u);
}

}  // namespace
}  // namespace web::pages
