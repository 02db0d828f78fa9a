// Who and what lasca-web answers: the page's own files (a table made at start, never a path
// built from a request), the names and origins it serves (DNS rebinding turns a loopback
// server into any website's), and the connections it holds at once, in all and per address.
// Pure: no sockets, no clock; the HTTP session and the listener ask them.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/ip/address.hpp>

#include "common/result.h"

namespace web::server {

// Origin: "scheme://host[:port]" as a browser sends it in an Origin header. `host` is lower
// case (an IPv6 address in brackets); `port` is the scheme's default (80, 443) when none is
// written.
struct Origin {
    std::string scheme;  // "http" or "https"
    std::string host;
    std::uint16_t port = 0;
};

// The origin `text` names, or nothing when it is not one: only http and https, a host of
// letters, digits, '-', '.' (or a bracketed IPv6 address), an optional port 1..65535, nothing
// after (no path, no user, no query).
std::optional<Origin> parseOrigin(std::string_view text);

// HostPolicy: the Host names and the Origins the server answers for.
//   hosts_     allowed Host header values, lower case: "name:port", and "name" alone where the
//              port is the scheme's default
//   origins_   allowed Origin header values, lower case, as a browser writes them
// The loopback names (localhost, 127.0.0.1, [::1]) and the listening address (unless it is
// 0.0.0.0 or ::) on the listening port are always allowed; each public origin adds its host and
// itself.
class HostPolicy {
  public:
    HostPolicy(const std::string& listenAddress, std::uint16_t port,
               const std::vector<Origin>& publicOrigins);
    // A request's Host header (empty: none was sent, refused).
    bool hostAllowed(std::string_view host) const;
    // A WebSocket upgrade's Origin header (empty: none was sent, as from a program rather than a
    // page: allowed, since no browser page can leave it out).
    bool originAllowed(std::string_view origin) const;

  private:
    std::vector<std::string> hosts_;
    std::vector<std::string> origins_;
};

// StaticFiles: the page's files, read once at start from one folder (and its subfolders),
// served by exact request path only.
//   files_   by request path ("/index.html", "/images/board.svg"): the content type, the bytes
//            and their validators; "/" names /index.html and "/torneio" /torneio.html
// Only regular files whose every path part is made of letters, digits, '-', '_' and '.' and does
// not start with '.' are taken; a symbolic link is followed only when its target stays inside
// the folder; a file over kMaxFileBytes, or files beyond kMaxTotalBytes in all, are left out.
class StaticFiles {
  public:
    static constexpr std::size_t kMaxFileBytes = std::size_t{16} << 20;
    static constexpr std::size_t kMaxTotalBytes = std::size_t{64} << 20;
    static constexpr std::size_t kMaxFiles = 4096;

    // File: one served file.
    //   etag          a strong entity tag: the BLAKE2b-256 of the body in hex, quoted
    //   modified      the file's modification time when it was read, seconds since the epoch
    //   lastModified  the same time as an HTTP-date ("Sun, 06 Dec 2026 04:42:29 GMT")
    struct File {
        std::string contentType;
        std::string body;
        std::string etag;
        std::int64_t modified = 0;
        std::string lastModified;
    };

    // Reads the folder. Errors: it is not a folder, or cannot be read.
    static common::Result<StaticFiles> load(const std::string& folder);

    // The file a request target names (its query and fragment ignored), or nullptr.
    const File* find(std::string_view target) const;
    // Every served path, sorted (for tests and the log).
    std::vector<std::string> paths() const;
    // The paths and bodies of the files under `prefix` ("/i18n/"), sorted by path.
    std::vector<std::pair<std::string, std::string>> under(std::string_view prefix) const;

  private:
    std::map<std::string, File, std::less<>> files_;
};

// Whether a GET or HEAD of `file` may be answered 304 Not Modified (RFC 9110, 13.1.2 and
// 13.1.3), given the request's If-None-Match and If-Modified-Since ("" when not sent). With
// If-None-Match: when it is "*" or lists the file's tag (compared weakly: a "W/" is ignored);
// If-Modified-Since then does not count. Without it: when If-Modified-Since is an HTTP-date
// (IMF-fixdate, as Last-Modified is written) not earlier than the file's time; any other text
// counts as none.
bool notModified(const StaticFiles::File& file, std::string_view ifNoneMatch,
                 std::string_view ifModifiedSince);
// The same for a tag and a time given apart; without a time (a page whose words vary with the
// language) only If-None-Match counts.
bool notModified(std::string_view etag, std::optional<std::int64_t> modified,
                 std::string_view ifNoneMatch, std::string_view ifModifiedSince);

// The key of a connection's address under the limits per address: an IPv4 address itself (an
// IPv4-mapped IPv6 one too), an IPv6 one by its /64 network (one host commonly holds a whole
// /64).
std::string addressKey(const boost::asio::ip::address& address);

// The PROXY protocol's header (version 1, the text line HAProxy's `send-proxy` writes) that a
// trusted front sends before a connection's first byte, so that the limits per address see the
// person, not the front: "PROXY TCP4 <source> <destination> <source port> <destination port>\r\n"
// (TCP6 likewise), at most kMaxProxyLine bytes with its CR LF. The client's address; nothing for
// "PROXY UNKNOWN..." (the front does not know it: the front's own address counts); an error for
// anything else (the connection is closed).
inline constexpr std::size_t kMaxProxyLine = 107;
common::Result<std::optional<boost::asio::ip::address>> parseProxyLine(std::string_view line);

// ConnectionLimits: the connections held now, in all and per address. admit() gives a Slot
// while both counts are under their limits; the slot gives its place back when it goes. Used on
// the server's one thread.
class ConnectionLimits : public std::enable_shared_from_this<ConnectionLimits> {
  public:
    class Slot {
      public:
        Slot(std::shared_ptr<ConnectionLimits> limits, std::string address)
            : limits_(std::move(limits)), address_(std::move(address)) {}
        Slot(const Slot&) = delete;
        Slot& operator=(const Slot&) = delete;
        ~Slot() { limits_->release(address_); }
        const std::string& address() const { return address_; }

      private:
        std::shared_ptr<ConnectionLimits> limits_;
        std::string address_;
    };

    ConnectionLimits(int maxInAll, int maxPerAddress)
        : maxInAll_(maxInAll), maxPerAddress_(maxPerAddress) {}
    // A slot for one more connection from `address`, or nullptr when either limit is reached.
    std::unique_ptr<Slot> admit(const std::string& address);
    int inAll() const { return inAll_; }
    int from(const std::string& address) const;

  private:
    void release(const std::string& address);

    int maxInAll_;
    int maxPerAddress_;
    int inAll_ = 0;
    std::map<std::string, int> perAddress_;
};

}  // namespace web::server
