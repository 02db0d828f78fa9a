// Accounts and their sessions in the store. A name is unique by its key among the living
// accounts (the UNIQUE name_key; a deleted account's is NULL); a session is found only by its
// token's hash, while it has not expired and its account lives.

#include <algorithm>

#include "store_internal.h"
#include "web/store/store.h"

namespace web::store {

namespace {

constexpr const char* kAccountColumns =
    "a.id, a.name, a.name_key, a.password_hash, a.created_at, a.lang";

StoredAccount readAccount(Statement& query) {
    StoredAccount account;
    account.id = query.getColumn(0).getInt64();
    account.name = query.getColumn(1).getString();
    account.nameKey = query.getColumn(2).getString();
    account.passwordHash = query.getColumn(3).getString();
    account.created = query.getColumn(4).getInt64();
    account.lang = query.getColumn(5).getString();
    return account;
}

}  // namespace

common::Result<std::optional<StoredAccount>> Store::createAccount(const std::string& name,
                                                                  const std::string& nameKey,
                                                                  const std::string& passwordHash,
                                                                  std::int64_t created) {
    std::lock_guard lock(mutex_);
    try {
        Transaction transaction(*db_);
        Statement insert(*db_,
                         "INSERT INTO accounts (name, name_key, password_hash, created_at) "
                         "VALUES (?, ?, ?, ?) ON CONFLICT (name_key) DO NOTHING "
                         "RETURNING id");
        insert.bind(1, name);
        insert.bind(2, nameKey);
        insert.bind(3, passwordHash);
        insert.bind(4, static_cast<std::int64_t>(created));
        if (!insert.executeStep()) return std::optional<StoredAccount>();
        StoredAccount account{
            insert.getColumn(0).getInt64(), name, nameKey, passwordHash, created, ""};
        insert.reset();
        transaction.commit();
        return std::optional<StoredAccount>(std::move(account));
    } catch (const DbError& e) {
        return makeError(failure("creating an account", e));
    }
}

common::Result<std::optional<StoredAccount>> Store::findAccount(const std::string& nameKey) {
    std::lock_guard lock(mutex_);
    try {
        Statement find(*db_, std::string("SELECT ") + kAccountColumns +
                                 " FROM accounts a WHERE a.name_key = ? AND a.deleted = 0");
        find.bind(1, nameKey);
        if (!find.executeStep()) return std::optional<StoredAccount>();
        return std::optional<StoredAccount>(readAccount(find));
    } catch (const DbError& e) {
        return makeError(failure("finding an account", e));
    }
}

common::Result<bool> Store::setPassword(std::int64_t accountId, const std::string& passwordHash,
                                        const std::string& keepTokenHash) {
    std::lock_guard lock(mutex_);
    try {
        Transaction transaction(*db_);
        Statement set(*db_, "UPDATE accounts SET password_hash = ? WHERE id = ? AND deleted = 0");
        set.bind(1, passwordHash);
        set.bind(2, static_cast<std::int64_t>(accountId));
        if (set.exec() == 0) return false;
        Statement others(*db_, "DELETE FROM sessions WHERE account_id = ? AND token_hash <> ?");
        others.bind(1, static_cast<std::int64_t>(accountId));
        others.bind(2, keepTokenHash);
        others.exec();
        transaction.commit();
        return true;
    } catch (const DbError& e) {
        return makeError(failure("changing a password", e));
    }
}

common::Result<bool> Store::deleteAccount(std::int64_t accountId) {
    std::lock_guard lock(mutex_);
    try {
        Transaction transaction(*db_);
        Statement mark(*db_,
                       "UPDATE accounts SET deleted = 1, name_key = NULL, "
                       "name = 'deleted-' || id, password_hash = '' "
                       "WHERE id = ? AND deleted = 0");
        mark.bind(1, static_cast<std::int64_t>(accountId));
        if (mark.exec() == 0) return false;
        Statement sessions(*db_, "DELETE FROM sessions WHERE account_id = ?");
        sessions.bind(1, static_cast<std::int64_t>(accountId));
        sessions.exec();
        transaction.commit();
        return true;
    } catch (const DbError& e) {
        return makeError(failure("deleting an account", e));
    }
}

common::Result<bool> Store::setAccountLanguage(std::int64_t accountId, const std::string& lang) {
    std::lock_guard lock(mutex_);
    try {
        Statement set(*db_, "UPDATE accounts SET lang = ? WHERE id = ? AND deleted = 0");
        set.bind(1, lang);
        set.bind(2, static_cast<std::int64_t>(accountId));
        return set.exec() > 0;
    } catch (const DbError& e) {
        return makeError(failure("setting an account's language", e));
    }
}

common::Result<std::vector<std::string>> Store::learnProgress(std::int64_t accountId) {
    std::lock_guard lock(mutex_);
    try {
        Statement find(*db_, "SELECT learn FROM accounts WHERE id = ? AND deleted = 0");
        find.bind(1, static_cast<std::int64_t>(accountId));
        std::vector<std::string> lessons;
        if (!find.executeStep()) return lessons;
        const std::string joined = find.getColumn(0).getString();
        std::size_t from = 0;
        while (from < joined.size()) {
            const auto comma = std::min(joined.find(',', from), joined.size());
            if (comma > from) lessons.push_back(joined.substr(from, comma - from));
            from = comma + 1;
        }
        return lessons;
    } catch (const DbError& e) {
        return makeError(failure("reading an account's lessons", e));
    }
}

common::Result<bool> Store::setLearnProgress(std::int64_t accountId,
                                             const std::vector<std::string>& lessons) {
    std::lock_guard lock(mutex_);
    try {
        std::string joined;
        for (const auto& lesson : lessons) joined += (joined.empty() ? "" : ",") + lesson;
        Statement set(*db_, "UPDATE accounts SET learn = ? WHERE id = ? AND deleted = 0");
        set.bind(1, joined);
        set.bind(2, static_cast<std::int64_t>(accountId));
        return set.exec() > 0;
    } catch (const DbError& e) {
        return makeError(failure("keeping an account's lessons", e));
    }
}

common::Result<bool> Store::createSession(const StoredSession& session) {
    std::lock_guard lock(mutex_);
    try {
        Transaction transaction(*db_);
        Statement expired(*db_, "DELETE FROM sessions WHERE expires_at <= ?");
        expired.bind(1, static_cast<std::int64_t>(session.created));
        expired.exec();
        Statement insert(*db_,
                         "INSERT INTO sessions (token_hash, account_id, created_at, "
                         "expires_at) VALUES (?, ?, ?, ?)");
        insert.bind(1, session.tokenHash);
        insert.bind(2, static_cast<std::int64_t>(session.accountId));
        insert.bind(3, static_cast<std::int64_t>(session.created));
        insert.bind(4, static_cast<std::int64_t>(session.expires));
        insert.exec();
        transaction.commit();
        return true;
    } catch (const DbError& e) {
        return makeError(failure("creating a session", e));
    }
}

common::Result<std::optional<StoredAccount>> Store::findSession(const std::string& tokenHash,
                                                                std::int64_t now) {
    std::lock_guard lock(mutex_);
    try {
        Statement find(*db_, std::string("SELECT ") + kAccountColumns +
                                 " FROM sessions s JOIN accounts a ON a.id = s.account_id "
                                 "WHERE s.token_hash = ? AND s.expires_at > ? "
                                 "AND a.deleted = 0");
        find.bind(1, tokenHash);
        find.bind(2, static_cast<std::int64_t>(now));
        if (!find.executeStep()) return std::optional<StoredAccount>();
        return std::optional<StoredAccount>(readAccount(find));
    } catch (const DbError& e) {
        return makeError(failure("finding a session", e));
    }
}

common::Result<bool> Store::deleteSession(const std::string& tokenHash) {
    std::lock_guard lock(mutex_);
    try {
        Statement remove(*db_, "DELETE FROM sessions WHERE token_hash = ?");
        remove.bind(1, tokenHash);
        remove.exec();
        return true;
    } catch (const DbError& e) {
        return makeError(failure("ending a session", e));
    }
}

}  // namespace web::store
