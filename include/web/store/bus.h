// Bus: what instances of the server sharing one PostgreSQL database tell each other, over the
// database's own LISTEN/NOTIFY (docs/design.md, "Spreading the server over several machines").
// A message is a short text (ids only; what it names is read from the tables). Sent with
// Store::notify, which every listener of the channel receives, the sender's own Bus included,
// once the sending transaction commits (a notify outside a transaction: at once). Nothing on
// SQLite: one server alone has no one to tell.
//
// A Bus is its own connection, which only listens: the caller's event loop waits until
// socket() is readable, then calls drain(), which never blocks. A lost link is an error from
// drain(); the caller opens a new Bus (messages sent meanwhile are lost: a listener reads what
// it missed from the tables).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/result.h"

namespace web::store {

class Bus {
  public:
    // Listens on `channel` (letters, digits and '_', at most 63) of the PostgreSQL database of
    // `url` (connect_timeout 10 s unless the URL sets one).
    static common::Result<std::unique_ptr<Bus>> open(const std::string& url,
                                                     const std::string& channel);
    ~Bus();
    Bus(const Bus&) = delete;
    Bus& operator=(const Bus&) = delete;
    // The connection's socket, for the caller's loop to wait on.
    int socket() const;
    // What has arrived, in order, without blocking; an error once the link is lost.
    common::Result<std::vector<std::string>> drain();

  private:
    struct Link;
    explicit Bus(std::unique_ptr<Link> link);
    std::unique_ptr<Link> link_;
};

}  // namespace web::store
