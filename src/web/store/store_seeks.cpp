// The lobby's open seeks in the store (web/lobby/lobby.h). A seek is taken by deleting its row:
// of two takers at once, the one whose DELETE removed it has it.

#include "store_internal.h"
#include "web/store/store.h"

namespace web::store {

common::Result<bool> Store::addSeek(const StoredSeek& seek) {
    std::lock_guard lock(mutex_);
    try {
        Statement row(*db_,
                      "INSERT INTO seeks (id, kind, maker_account, maker_name, params, "
                      "created, home) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
        row.bind(1, seek.id);
        row.bind(2, seek.kind);
        if (seek.makerAccount > 0)
            row.bind(3, static_cast<std::int64_t>(seek.makerAccount));
        else
            row.bindNull(3);
        row.bind(4, seek.makerName);
        row.bind(5, seek.params);
        row.bind(6, static_cast<std::int64_t>(seek.created));
        row.bind(7, home_);
        row.exec();
        return true;
    } catch (const DbError& e) {
        return makeError(failure("saving seek " + seek.id, e));
    }
}

common::Result<bool> Store::takeSeek(const std::string& id) {
    std::lock_guard lock(mutex_);
    try {
        Statement row(*db_, "DELETE FROM seeks WHERE id = ?");
        row.bind(1, id);
        return row.exec() == 1;
    } catch (const DbError& e) {
        return makeError(failure("taking seek " + id, e));
    }
}

common::Result<std::vector<StoredSeek>> Store::seeks() {
    std::lock_guard lock(mutex_);
    try {
        Statement rows(*db_,
                       "SELECT id, kind, COALESCE(maker_account, 0), maker_name, params, "
                       "created FROM seeks ORDER BY created, id");
        std::vector<StoredSeek> out;
        while (rows.executeStep()) {
            StoredSeek seek;
            seek.id = rows.getColumn(0).getString();
            seek.kind = rows.getColumn(1).getString();
            seek.makerAccount = rows.getColumn(2).getInt64();
            seek.makerName = rows.getColumn(3).getString();
            seek.params = rows.getColumn(4).getString();
            seek.created = rows.getColumn(5).getInt64();
            out.push_back(std::move(seek));
        }
        return out;
    } catch (const DbError& e) {
        return makeError(failure("reading the seeks", e));
    }
}

common::Result<bool> Store::clearSeeks() {
    std::lock_guard lock(mutex_);
    try {
        Statement clear(*db_, "DELETE FROM seeks WHERE home = ?");
        clear.bind(1, home_);
        clear.exec();
        return true;
    } catch (const DbError& e) {
        return makeError(failure("emptying the seeks", e));
    }
}

}  // namespace web::store
