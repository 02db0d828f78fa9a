// The Bus over libpq (bus.h): a connection that has run LISTEN, read with PQconsumeInput and
// PQnotifies when its socket is readable.
#include "web/store/bus.h"

#include <libpq-fe.h>

#include <algorithm>
#include <cctype>

#include "store_internal.h"
#include "web/store/connection.h"

namespace web::store {

struct Bus::Link {
    PGconn* conn = nullptr;
    ~Link() { PQfinish(conn); }
};

Bus::Bus(std::unique_ptr<Link> link) : link_(std::move(link)) {
}

Bus::~Bus() = default;

common::Result<std::unique_ptr<Bus>> Bus::open(const std::string& url, const std::string& channel) {
    if (channel.empty() || channel.size() > 63 || !std::ranges::all_of(channel, [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        }))
        return common::makeError("'" + channel + "' is not a channel name");
    if (!isPostgreSQLUrl(url)) return common::makeError("a bus needs a PostgreSQL database");
    auto link = std::make_unique<Link>();
    link->conn = connectPostgreSQL(url, "lasca-web bus");
    const std::string where = withoutPassword(url);
    if (!link->conn || PQstatus(link->conn) != CONNECTION_OK)
        return common::makeError("the bus cannot reach " + where + ": " +
                                 firstLine(link->conn ? PQerrorMessage(link->conn) : nullptr));
    PQsetNoticeProcessor(
        link->conn, [](void*, const char*) {}, nullptr);
    PGresult* listened = PQexec(link->conn, ("LISTEN " + channel).c_str());
    const bool ok = PQresultStatus(listened) == PGRES_COMMAND_OK;
    PQclear(listened);
    if (!ok)
        return common::makeError("the bus cannot listen on " + where + ": " +
                                 firstLine(PQerrorMessage(link->conn)));
    if (PQsetnonblocking(link->conn, 1) != 0)
        return common::makeError("the bus cannot read " + where + " without blocking");
    return std::unique_ptr<Bus>(new Bus(std::move(link)));
}

int Bus::socket() const {
    return PQsocket(link_->conn);
}

common::Result<std::vector<std::string>> Bus::drain() {
    if (PQconsumeInput(link_->conn) == 0 || PQstatus(link_->conn) != CONNECTION_OK)
        return common::makeError("the bus's link was lost: " +
                                 firstLine(PQerrorMessage(link_->conn)));
    std::vector<std::string> out;
    while (PGnotify* note = PQnotifies(link_->conn)) {
        out.emplace_back(note->extra ? note->extra : "");
        PQfreemem(note);
    }
    return out;
}

}  // namespace web::store
