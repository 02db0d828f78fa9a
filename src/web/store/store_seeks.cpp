// The lobby in the store (web/lobby/lobby.h, web/server/lobby_room.h), shared by every instance
// on the database: its offers and a Torneio offer's sitters, the signed-in people with a tab
// open, the public games listed. An offer is taken by deleting its row: of two takers at once,
// the one whose DELETE removed it has it.

#include "store_internal.h"
#include "web/store/store.h"

namespace web::store {

namespace {

void bindAccount(Statement& row, int index, std::int64_t account) {
    if (account > 0)
        row.bind(index, account);
    else
        row.bindNull(index);
}

constexpr const char* kSeekColumns =
    "SELECT id, kind, COALESCE(maker_account, 0), maker_name, params, created, home, tab, "
    "maker_rating, address, token_hash, COALESCE(target, 0), target_name FROM seeks ";

StoredSeek readSeekRow(Statement& rows) {
    StoredSeek seek;
    seek.id = rows.getColumn(0).getString();
    seek.kind = rows.getColumn(1).getString();
    seek.makerAccount = rows.getColumn(2).getInt64();
    seek.makerName = rows.getColumn(3).getString();
    seek.params = rows.getColumn(4).getString();
    seek.created = rows.getColumn(5).getInt64();
    seek.home = rows.getColumn(6).getString();
    seek.tab = rows.getColumn(7).getInt64();
    seek.makerRating = rows.getColumn(8).getString();
    seek.address = rows.getColumn(9).getString();
    seek.tokenHash = rows.getColumn(10).getString();
    seek.target = rows.getColumn(11).getInt64();
    seek.targetName = rows.getColumn(12).getString();
    return seek;
}

std::vector<StoredSitter> readSitters(Connection& db, const std::string& offer) {
    Statement rows(db,
                   "SELECT place, home, tab, COALESCE(account, 0), name, token_hash "
                   "FROM lobby_sitters WHERE offer = ? ORDER BY place");
    rows.bind(1, offer);
    std::vector<StoredSitter> out;
    while (rows.executeStep())
        out.push_back({rows.getColumn(0).getInt(), rows.getColumn(1).getString(),
                       rows.getColumn(2).getInt64(), rows.getColumn(3).getInt64(),
                       rows.getColumn(4).getString(), rows.getColumn(5).getString()});
    return out;
}

std::optional<StoredSeek> readOneSeek(Connection& db, const std::string& id) {
    Statement row(db, std::string(kSeekColumns) + "WHERE id = ?");
    row.bind(1, id);
    if (!row.executeStep()) return std::nullopt;
    StoredSeek seek = readSeekRow(row);
    seek.sitters = readSitters(db, id);
    return seek;
}

void addSitter(Connection& db, const std::string& offer, const StoredSitter& sitter) {
    Statement row(db,
                  "INSERT INTO lobby_sitters (offer, place, home, tab, account, name, token_hash) "
                  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    row.bind(1, offer);
    row.bind(2, sitter.place);
    row.bind(3, sitter.home);
    row.bind(4, sitter.tab);
    bindAccount(row, 5, sitter.account);
    row.bind(6, sitter.name);
    row.bind(7, sitter.tokenHash);
    row.exec();
}

// Removes what the tabs of instance `home` had in the lobby (inside the caller's transaction):
// their offers with the offers' sitters, their places at others' offers, their presence. True
// when a row went.
bool clearLobbyOf(Connection& db, const std::string& home) {
    Statement sitters(db,
                      "DELETE FROM lobby_sitters WHERE home = ?1 OR offer IN "
                      "(SELECT id FROM seeks WHERE home = ?1)");
    sitters.bind(1, home);
    Statement seeks(db, "DELETE FROM seeks WHERE home = ?");
    seeks.bind(1, home);
    Statement people(db, "DELETE FROM lobby_people WHERE home = ?");
    people.bind(1, home);
    const auto changed = sitters.exec() + seeks.exec() + people.exec();
    return changed > 0;
}

}  // namespace

common::Result<bool> Store::addSeek(const StoredSeek& seek) {
    std::lock_guard lock(mutex_);
    try {
        Transaction transaction(*db_);
        Statement row(*db_,
                      "INSERT INTO seeks (id, kind, maker_account, maker_name, params, created, "
                      "home, tab, maker_rating, address, token_hash, target, target_name) "
                      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
        row.bind(1, seek.id);
        row.bind(2, seek.kind);
        bindAccount(row, 3, seek.makerAccount);
        row.bind(4, seek.makerName);
        row.bind(5, seek.params);
        row.bind(6, seek.created);
        row.bind(7, home_);
        row.bind(8, seek.tab);
        row.bind(9, seek.makerRating);
        row.bind(10, seek.address);
        row.bind(11, seek.tokenHash);
        bindAccount(row, 12, seek.target);
        row.bind(13, seek.targetName);
        row.exec();
        for (auto sitter : seek.sitters) {
            sitter.home = home_;
            addSitter(*db_, seek.id, sitter);
        }
        transaction.commit();
        return true;
    } catch (const DbError& e) {
        return makeError(failure("saving seek " + seek.id, e));
    }
}

common::Result<std::optional<StoredSeek>> Store::seek(const std::string& id) {
    std::lock_guard lock(mutex_);
    try {
        return readOneSeek(*db_, id);
    } catch (const DbError& e) {
        return makeError(failure("reading seek " + id, e));
    }
}

common::Result<std::optional<StoredSeek>> Store::takeSeek(const std::string& id) {
    std::lock_guard lock(mutex_);
    try {
        Transaction transaction(*db_);
        auto seek = readOneSeek(*db_, id);
        Statement take(*db_, "DELETE FROM seeks WHERE id = ?");
        take.bind(1, id);
        if (take.exec() != 1) return std::optional<StoredSeek>();
        Statement sitters(*db_, "DELETE FROM lobby_sitters WHERE offer = ?");
        sitters.bind(1, id);
        sitters.exec();
        transaction.commit();
        return seek;
    } catch (const DbError& e) {
        return makeError(failure("taking seek " + id, e));
    }
}

common::Result<std::vector<StoredSeek>> Store::seeks() {
    std::lock_guard lock(mutex_);
    try {
        Statement rows(*db_, std::string(kSeekColumns) + "ORDER BY created, id");
        std::vector<StoredSeek> out;
        while (rows.executeStep()) out.push_back(readSeekRow(rows));
        for (auto& seek : out) seek.sitters = readSitters(*db_, seek.id);
        return out;
    } catch (const DbError& e) {
        return makeError(failure("reading the seeks", e));
    }
}

common::Result<bool> Store::clearSeeks() {
    std::lock_guard lock(mutex_);
    try {
        Transaction transaction(*db_);
        clearLobbyOf(*db_, home_);
        // One server alone: no table listed to watch is running yet (a restored table plays
        // on unlisted).
        if (home_.empty()) db_->exec("DELETE FROM lobby_games");
        transaction.commit();
        return true;
    } catch (const DbError& e) {
        return makeError(failure("emptying the seeks", e));
    }
}

common::Result<bool> Store::dropLostLobbies() {
    std::lock_guard lock(mutex_);
    if (home_.empty()) return false;
    try {
        Transaction transaction(*db_);
        std::vector<std::string> lost;
        Statement rows(*db_, dialect(db_->kind(),
                                     "SELECT name FROM instances WHERE name <> ? AND "
                                     "{now_ms} - renewed_at >= ?"));
        rows.bind(1, home_);
        rows.bind(2, ttlMs_);
        while (rows.executeStep()) lost.push_back(rows.getColumn(0).getString());
        bool dropped = false;
        for (const auto& home : lost) dropped = clearLobbyOf(*db_, home) || dropped;
        transaction.commit();
        return dropped;
    } catch (const DbError& e) {
        return makeError(failure("dropping lost instances' offers", e));
    }
}

common::Result<SatDown> Store::sitDown(const std::string& id, const StoredSitter& sitter,
                                       int people) {
    std::lock_guard lock(mutex_);
    try {
        // The offer's row locked first: two sitting at once are ordered by it.
        Transaction transaction(*db_, TransactionLock::Immediate);
        Statement offer(*db_, dialect(db_->kind(),
                                      "SELECT 1 FROM seeks WHERE id = ? AND kind = "
                                      "'torneio'{for_update}"));
        offer.bind(1, id);
        if (!offer.executeStep()) return SatDown{};
        Statement count(*db_,
                        "SELECT COUNT(*), COALESCE(MAX(place), 0) FROM lobby_sitters "
                        "WHERE offer = ?");
        count.bind(1, id);
        count.executeStep();
        const int sitting = count.getColumn(0).getInt();
        if (sitting >= people) return SatDown{};
        StoredSitter seated = sitter;
        seated.place = count.getColumn(1).getInt() + 1;
        seated.home = home_;
        addSitter(*db_, id, seated);
        transaction.commit();
        return SatDown{seated.place, sitting + 1};
    } catch (const DbError& e) {
        return makeError(failure("sitting at offer " + id, e));
    }
}

common::Result<bool> Store::standUp(const std::string& id, std::int64_t tab) {
    std::lock_guard lock(mutex_);
    try {
        Statement row(*db_, "DELETE FROM lobby_sitters WHERE offer = ? AND home = ? AND tab = ?");
        row.bind(1, id);
        row.bind(2, home_);
        row.bind(3, tab);
        return row.exec() > 0;
    } catch (const DbError& e) {
        return makeError(failure("standing up from offer " + id, e));
    }
}

common::Result<bool> Store::enterLobby(std::int64_t tab, std::int64_t account,
                                       const std::string& name, const std::string& nameKey) {
    std::lock_guard lock(mutex_);
    try {
        Statement row(*db_,
                      "INSERT INTO lobby_people (home, tab, account, name, name_key) "
                      "VALUES (?, ?, ?, ?, ?)");
        row.bind(1, home_);
        row.bind(2, tab);
        row.bind(3, account);
        row.bind(4, name);
        row.bind(5, nameKey);
        row.exec();
        return true;
    } catch (const DbError& e) {
        return makeError(failure("entering the lobby", e));
    }
}

common::Result<bool> Store::leaveLobby(std::int64_t tab) {
    std::lock_guard lock(mutex_);
    try {
        Statement row(*db_, "DELETE FROM lobby_people WHERE home = ? AND tab = ?");
        row.bind(1, home_);
        row.bind(2, tab);
        return row.exec() > 0;
    } catch (const DbError& e) {
        return makeError(failure("leaving the lobby", e));
    }
}

common::Result<std::optional<LobbyPerson>> Store::lobbyPerson(const std::string& nameKey) {
    std::lock_guard lock(mutex_);
    try {
        Statement row(*db_, "SELECT account, name FROM lobby_people WHERE name_key = ? LIMIT 1");
        row.bind(1, nameKey);
        if (!row.executeStep()) return std::optional<LobbyPerson>();
        return std::optional<LobbyPerson>(
            LobbyPerson{row.getColumn(0).getInt64(), row.getColumn(1).getString()});
    } catch (const DbError& e) {
        return makeError(failure("finding a person in the lobby", e));
    }
}

common::Result<bool> Store::inLobby(std::int64_t account) {
    std::lock_guard lock(mutex_);
    try {
        Statement row(*db_, "SELECT 1 FROM lobby_people WHERE account = ? LIMIT 1");
        row.bind(1, account);
        return row.executeStep();
    } catch (const DbError& e) {
        return makeError(failure("finding an account in the lobby", e));
    }
}

common::Result<std::int64_t> Store::countLobby(std::int64_t mine) {
    std::lock_guard lock(mutex_);
    if (home_.empty()) return mine;
    try {
        Statement keep(*db_, "UPDATE instances SET lobby_tabs = ? WHERE name = ?");
        keep.bind(1, mine);
        keep.bind(2, home_);
        keep.exec();
        Statement all(*db_, dialect(db_->kind(),
                                    "SELECT COALESCE(SUM(lobby_tabs), 0) FROM instances WHERE "
                                    "name = ? OR {now_ms} - renewed_at < ?"));
        all.bind(1, home_);
        all.bind(2, ttlMs_);
        all.executeStep();
        return all.getColumn(0).getInt64();
    } catch (const DbError& e) {
        return makeError(failure("counting the lobby's tabs", e));
    }
}

common::Result<bool> Store::addLobbyGame(const StoredLobbyGame& game, std::size_t most) {
    std::lock_guard lock(mutex_);
    try {
        Transaction transaction(*db_, TransactionLock::Immediate);
        Statement count(*db_, "SELECT COUNT(*) FROM lobby_games");
        count.executeStep();
        if (count.getColumn(0).getInt64() >= static_cast<std::int64_t>(most)) return false;
        Statement row(*db_, dialect(db_->kind(),
                                    "INSERT INTO lobby_games (tbl, game, at) VALUES (?, ?, "
                                    "{now_ms})"));
        row.bind(1, game.table);
        row.bind(2, game.game);
        row.exec();
        transaction.commit();
        return true;
    } catch (const DbError& e) {
        return makeError(failure("listing game " + game.table, e));
    }
}

common::Result<bool> Store::removeLobbyGame(const std::string& table) {
    std::lock_guard lock(mutex_);
    try {
        Statement row(*db_, "DELETE FROM lobby_games WHERE tbl = ?");
        row.bind(1, table);
        return row.exec() > 0;
    } catch (const DbError& e) {
        return makeError(failure("unlisting game " + table, e));
    }
}

common::Result<std::optional<StoredLobbyGame>> Store::lobbyGame(const std::string& table) {
    std::lock_guard lock(mutex_);
    try {
        Statement row(*db_, "SELECT tbl, game FROM lobby_games WHERE tbl = ?");
        row.bind(1, table);
        if (!row.executeStep()) return std::optional<StoredLobbyGame>();
        return std::optional<StoredLobbyGame>(
            StoredLobbyGame{row.getColumn(0).getString(), row.getColumn(1).getString()});
    } catch (const DbError& e) {
        return makeError(failure("reading listed game " + table, e));
    }
}

common::Result<std::vector<StoredLobbyGame>> Store::lobbyGames() {
    std::lock_guard lock(mutex_);
    try {
        Statement rows(*db_, "SELECT tbl, game FROM lobby_games ORDER BY at, tbl");
        std::vector<StoredLobbyGame> out;
        while (rows.executeStep())
            out.push_back({rows.getColumn(0).getString(), rows.getColumn(1).getString()});
        return out;
    } catch (const DbError& e) {
        return makeError(failure("reading the listed games", e));
    }
}

}  // namespace web::store
