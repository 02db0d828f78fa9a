#include "web/pages/account_games.h"

#include <algorithm>
#include <string>
#include <vector>

namespace web::pages {

GamesPage accountGamesPdn(store::Store& store, const store::StoredAccount& account,
                          std::size_t maxBytes) {
    // Read newest first, kBatch tables at a time, until the budget is spent; written oldest
    // first.
    constexpr int kBatch = 64;
    std::vector<std::string> games;
    std::size_t bytes = 0;
    bool cut = false;
    std::int64_t before = 0;
    for (bool more = true; more && !cut;) {
        const auto duels = store.duelsOf(account.id, before, kBatch, true);
        if (!duels)
            return GamesPage{500,
                             "text/plain; charset=utf-8",
                             "the games cannot be read: " + duels.error() + "\n",
                             {}};
        more = duels.value().size() == static_cast<std::size_t>(kBatch);
        for (const auto& [number, duel] : duels.value()) {
            auto text = duelPdn(duel, std::to_string(number));
            if (!games.empty() && bytes + text.size() > maxBytes) {
                cut = true;
                break;
            }
            bytes += text.size();
            games.push_back(std::move(text));
            before = number;
        }
    }
    std::string body;
    if (cut)
        body = "% the oldest games are left out: this file holds at most " +
               std::to_string(maxBytes) + " bytes of PDN\n\n";
    body.reserve(body.size() + bytes);
    std::for_each(games.rbegin(), games.rend(), [&](const std::string& game) { body += game; });
    // Names are letters, digits, '_' and '-' only: nothing to quote in the file name.
    return GamesPage{
        200,
        "text/plain; charset=utf-8",
        std::move(body),
        {{"Content-Disposition", "attachment; filename=\"" + account.name + "-games.pdn\""}}};
}

GamesPage accountTorneioRecords(store::Store& store, const store::StoredAccount& account,
                                std::size_t maxBytes) {
    constexpr int kMostTables = 10'000;
    const auto tables = store.finishedTorneioTablesOf(account.id, kMostTables);
    const auto failed = [](const std::string& error) {
        return GamesPage{
            500, "text/plain; charset=utf-8", "the games cannot be read: " + error + "\n", {}};
    };
    if (!tables) return failed(tables.error());
    // Newest first from the store: the budget keeps the newest.
    std::vector<std::string> records;
    std::size_t bytes = 0;
    bool cut = false;
    for (const auto& [number, summary] : tables.value()) {
        const auto table = store.loadTorneioTable(summary.id);
        if (!table) return failed(table.error());
        if (!table.value()) continue;
        auto text = "# table " + std::to_string(number) + ": " + table.value()->result + "\n" +
                    torneioTableText(*table.value()) + "\n";
        if (!records.empty() && bytes + text.size() > maxBytes) {
            cut = true;
            break;
        }
        bytes += text.size();
        records.push_back(std::move(text));
    }
    std::string body;
    if (cut)
        body = "# the oldest tables are left out: this file holds at most " +
               std::to_string(maxBytes) + " bytes\n\n";
    std::for_each(records.rbegin(), records.rend(), [&](const std::string& r) { body += r; });
    return GamesPage{
        200,
        "text/plain; charset=utf-8",
        std::move(body),
        {{"Content-Disposition", "attachment; filename=\"" + account.name + "-torneio.txt\""}}};
}

}  // namespace web::pages
