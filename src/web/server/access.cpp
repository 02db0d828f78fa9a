#include "web/server/access.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include <boost/asio/ip/address_v6.hpp>

#include "common/seed.h"
#include "common/text.h"

namespace web::server {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool hostNameChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.';
}

std::uint16_t defaultPort(std::string_view scheme) {
    return scheme == "https" ? 443 : 80;
}

// "host" with its port, and "host" alone too when the port is the scheme's default: the Host
// values a browser sends for it.
void addHost(std::vector<std::string>& hosts, const std::string& host, std::uint16_t port,
             std::uint16_t schemeDefault) {
    hosts.push_back(host + ":" + std::to_string(port));
    if (port == schemeDefault) hosts.push_back(host);
}

void addOrigin(std::vector<std::string>& origins, const std::string& scheme,
               const std::string& host, std::uint16_t port) {
    origins.push_back(scheme + "://" + host +
                      (port == defaultPort(scheme) ? "" : ":" + std::to_string(port)));
}

std::string contentType(const fs::path& path) {
    const auto ext = lower(path.extension().string());
    if (ext == ".html") return "text/html; charset=utf-8";
    if (ext == ".css") return "text/css; charset=utf-8";
    if (ext == ".js") return "text/javascript; charset=utf-8";
    if (ext == ".json") return "application/json";
    if (ext == ".svg") return "image/svg+xml";
    if (ext == ".png") return "image/png";
    if (ext == ".ico") return "image/x-icon";
    if (ext == ".txt") return "text/plain; charset=utf-8";
    return "application/octet-stream";
}

// A part of a served path: letters, digits, '-', '_', '.', not starting with '.'.
bool servablePart(const std::string& part) {
    if (part.empty() || part.front() == '.') return false;
    return std::all_of(part.begin(), part.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    });
}

// True when `path` is `root` or inside it (both canonical).
bool inside(const fs::path& root, const fs::path& path) {
    const auto mismatch = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
    return mismatch.first == root.end();
}

// An IMF-fixdate (RFC 9110, 5.6.7), as Last-Modified is written: the C library's month names
// (lasca-web keeps the "C" locale).
constexpr const char* kHttpDateFormat = "%a, %d %b %Y %H:%M:%S GMT";

// The time an IMF-fixdate ("Sun, 06 Dec 2026 04:42:29 GMT") names, in seconds since the epoch,
// or nothing when `text` is not one.
std::optional<std::int64_t> parseHttpDate(std::string_view text) {
    constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    if (text.size() != 29 || text.substr(3, 2) != ", " || text[7] != ' ' || text[11] != ' ' ||
        text[16] != ' ' || text[19] != ':' || text[22] != ':' || text.substr(25) != " GMT")
        return std::nullopt;
    const auto month = std::find(std::begin(kMonths), std::end(kMonths), text.substr(8, 3));
    const auto day = common::parseBoundedInteger(text.substr(5, 2), 1, 31);
    const auto year = common::parseBoundedInteger(text.substr(12, 4), 1970, 9999);
    const auto hour = common::parseBoundedInteger(text.substr(17, 2), 0, 23);
    const auto minute = common::parseBoundedInteger(text.substr(20, 2), 0, 59);
    const auto second = common::parseBoundedInteger(text.substr(23, 2), 0, 60);
    if (month == std::end(kMonths) || !day || !year || !hour || !minute || !second)
        return std::nullopt;
    const std::chrono::year_month_day date{
        std::chrono::year(static_cast<int>(*year)),
        std::chrono::month(static_cast<unsigned>(month - std::begin(kMonths) + 1)),
        std::chrono::day(static_cast<unsigned>(*day))};
    if (!date.ok()) return std::nullopt;
    const std::int64_t days = std::chrono::sys_days(date).time_since_epoch().count();
    return days * 86400 + *hour * 3600 + *minute * 60 + *second;
}

}  // namespace

std::optional<Origin> parseOrigin(std::string_view text) {
    Origin origin;
    const auto separator = text.find("://");
    if (separator == std::string_view::npos) return std::nullopt;
    origin.scheme = lower(text.substr(0, separator));
    if (origin.scheme != "http" && origin.scheme != "https") return std::nullopt;
    std::string_view rest = text.substr(separator + 3);
    if (rest.empty() || rest.size() > 300) return std::nullopt;
    std::string_view host;
    if (rest.front() == '[') {
        // An IPv6 address, as the address parser reads it.
        const auto close = rest.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        host = rest.substr(0, close + 1);
        const auto inner = host.substr(1, host.size() - 2);
        if (!std::all_of(inner.begin(), inner.end(), [](char c) {
                return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.';
            }))
            return std::nullopt;
        boost::system::error_code error;
        boost::asio::ip::make_address_v6(std::string(inner), error);
        if (error) return std::nullopt;
        rest = rest.substr(close + 1);
    } else {
        const auto colon = rest.find(':');
        host = rest.substr(0, colon);
        if (host.empty() || host.size() > 253 ||
            !std::all_of(host.begin(), host.end(), hostNameChar) || host.front() == '.' ||
            host.front() == '-')
            return std::nullopt;
        rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon);
    }
    origin.host = lower(host);
    origin.port = defaultPort(origin.scheme);
    if (!rest.empty()) {
        if (rest.front() != ':' || rest.size() < 2 || rest.size() > 6) return std::nullopt;
        const auto digits = rest.substr(1);
        unsigned port = 0;
        const auto [end, error] =
            std::from_chars(digits.data(), digits.data() + digits.size(), port);
        if (error != std::errc() || end != digits.data() + digits.size() || port < 1 ||
            port > 65535)
            return std::nullopt;
        origin.port = static_cast<std::uint16_t>(port);
    }
    return origin;
}

HostPolicy::HostPolicy(const std::string& listenAddress, std::uint16_t port,
                       const std::vector<Origin>& publicOrigins) {
    std::vector<std::string> names = {"localhost", "127.0.0.1", "[::1]"};
    const std::string listening = lower(listenAddress);
    if (listening != "0.0.0.0" && listening != "::" && !listening.empty())
        names.push_back(listening.find(':') != std::string::npos ? "[" + listening + "]"
                                                                 : listening);
    for (const auto& name : names) {
        addHost(hosts_, name, port, 80);
        addOrigin(origins_, "http", name, port);
    }
    for (const auto& origin : publicOrigins) {
        addHost(hosts_, origin.host, origin.port, defaultPort(origin.scheme));
        addOrigin(origins_, origin.scheme, origin.host, origin.port);
    }
}

bool HostPolicy::hostAllowed(std::string_view host) const {
    if (host.empty() || host.size() > 300) return false;
    return std::any_of(hosts_.begin(), hosts_.end(), [&](const std::string& own) {
        return common::equalsIgnoringCase(own, host);
    });
}

bool HostPolicy::originAllowed(std::string_view origin) const {
    if (origin.empty()) return true;
    if (origin.size() > 300) return false;
    return std::any_of(origins_.begin(), origins_.end(), [&](const std::string& own) {
        return common::equalsIgnoringCase(own, origin);
    });
}

common::Result<StaticFiles> StaticFiles::load(const std::string& folder) {
    std::error_code error;
    const fs::path root = fs::canonical(folder, error);
    if (error || !fs::is_directory(root, error))
        return common::makeError("the page's folder '" + folder + "' is not a folder");
    StaticFiles files;
    std::size_t total = 0;
    fs::recursive_directory_iterator it(root, fs::directory_options::none, error), end;
    if (error) return common::makeError("cannot read '" + folder + "': " + error.message());
    for (; it != end; it.increment(error)) {
        if (error) return common::makeError("cannot read '" + folder + "': " + error.message());
        const fs::path relative = it->path().lexically_relative(root);
        const bool servable = std::all_of(relative.begin(), relative.end(), [](const fs::path& p) {
            return servablePart(p.string());
        });
        if (!servable) {
            if (it->is_directory(error)) it.disable_recursion_pending();
            continue;
        }
        // A link is followed only when what it names stays inside the folder.
        const fs::path real = fs::canonical(it->path(), error);
        if (error || !inside(root, real)) {
            error.clear();
            if (it->is_directory(error)) it.disable_recursion_pending();
            error.clear();
            continue;
        }
        if (!fs::is_regular_file(real, error)) {
            error.clear();
            continue;
        }
        const auto size = fs::file_size(real, error);
        if (error || size > kMaxFileBytes || total + size > kMaxTotalBytes ||
            files.files_.size() >= kMaxFiles) {
            error.clear();
            continue;
        }
        const auto written = fs::last_write_time(real, error);
        if (error) {
            error.clear();
            continue;
        }
        std::ifstream in(real, std::ios::binary);
        File file{
            contentType(real), std::string(std::istreambuf_iterator<char>(in), {}), {}, 0, {}};
        if (!in.good() && !in.eof()) continue;
        // The tag names the bytes (a content hash: common::hashSecret's BLAKE2b-256, nothing
        // secret here); the time is the file's when it was read.
        file.etag = '"' + common::hashSecret(file.body) + '"';
        file.modified =
            std::chrono::floor<std::chrono::seconds>(std::chrono::file_clock::to_sys(written))
                .time_since_epoch()
                .count();
        file.lastModified = common::utcTime(file.modified * 1000, kHttpDateFormat);
        total += file.body.size();
        files.files_.emplace("/" + relative.generic_string(), std::move(file));
    }
    return files;
}

const StaticFiles::File* StaticFiles::find(std::string_view target) const {
    target = target.substr(0, target.find_first_of("?#"));
    if (target == "/") target = "/index.html";
    if (target == "/torneio") target = "/torneio.html";
    if (target == "/lobby") target = "/lobby.html";
    if (target == "/rules/lasca") target = "/rules-lasca.html";
    if (target == "/rules/torneio") target = "/rules-torneio.html";
    if (target == "/learn") target = "/learn.html";
    const auto it = files_.find(target);
    return it == files_.end() ? nullptr : &it->second;
}

std::vector<std::string> StaticFiles::paths() const {
    std::vector<std::string> out;
    for (const auto& [path, file] : files_) out.push_back(path);
    return out;
}

std::vector<std::pair<std::string, std::string>> StaticFiles::under(std::string_view prefix) const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [path, file] : files_)
        if (path.starts_with(prefix)) out.emplace_back(path, file.body);
    return out;
}

bool notModified(const StaticFiles::File& file, std::string_view ifNoneMatch,
                 std::string_view ifModifiedSince) {
    return notModified(file.etag, file.modified, ifNoneMatch, ifModifiedSince);
}

bool notModified(std::string_view etag, std::optional<std::int64_t> modified,
                 std::string_view ifNoneMatch, std::string_view ifModifiedSince) {
    if (!ifNoneMatch.empty()) {
        // "*" or a list of entity tags ([W/]"..."), separated by commas and blanks.
        std::size_t at = 0;
        while (at < ifNoneMatch.size()) {
            const auto start = ifNoneMatch.find_first_not_of(", \t", at);
            if (start == std::string_view::npos) break;
            at = std::min(ifNoneMatch.find_first_of(", \t", start), ifNoneMatch.size());
            std::string_view tag = ifNoneMatch.substr(start, at - start);
            if (tag.starts_with("W/")) tag.remove_prefix(2);
            if (tag == "*" || tag == etag) return true;
        }
        return false;
    }
    if (!modified) return false;
    const auto since = parseHttpDate(ifModifiedSince);
    return since && *modified <= *since;
}

std::string addressKey(const boost::asio::ip::address& address) {
    if (address.is_v6()) {
        const auto v6 = address.to_v6();
        if (v6.is_v4_mapped())
            return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, v6).to_string();
        auto bytes = v6.to_bytes();
        for (std::size_t i = 8; i < bytes.size(); ++i) bytes[i] = 0;
        return boost::asio::ip::address_v6(bytes).to_string() + "/64";
    }
    return address.to_string();
}

common::Result<std::optional<boost::asio::ip::address>> parseProxyLine(std::string_view line) {
    const auto refused = [](const std::string& why) {
        return common::makeError("not a PROXY protocol header: " + why);
    };
    if (line.size() > kMaxProxyLine) return refused("longer than 107 bytes");
    if (line.size() < 2 || line.substr(line.size() - 2) != "\r\n") return refused("no CR LF");
    line.remove_suffix(2);
    if (!std::all_of(line.begin(), line.end(), [](char c) { return c >= 0x20 && c < 0x7f; }))
        return refused("a byte that is not printable ASCII");
    std::vector<std::string_view> fields;
    while (!line.empty()) {
        const auto space = line.find(' ');
        fields.push_back(line.substr(0, space));
        if (space == std::string_view::npos) break;
        line.remove_prefix(space + 1);
    }
    if (fields.size() < 2 || fields[0] != "PROXY") return refused("no PROXY word");
    if (fields[1] == "UNKNOWN") return std::optional<boost::asio::ip::address>{};
    if ((fields[1] != "TCP4" && fields[1] != "TCP6") || fields.size() != 6)
        return refused("neither TCP4, TCP6 with four fields, nor UNKNOWN");
    for (const std::size_t port : {std::size_t{4}, std::size_t{5}}) {
        unsigned value = 0;
        const auto* end = fields[port].data() + fields[port].size();
        const auto read = std::from_chars(fields[port].data(), end, value);
        if (fields[port].empty() || read.ec != std::errc{} || read.ptr != end || value > 65535 ||
            (fields[port].size() > 1 && fields[port][0] == '0'))
            return refused("a port that is not 0..65535");
    }
    std::optional<boost::asio::ip::address> addresses[2];
    for (std::size_t i = 0; i < 2; ++i) {
        boost::system::error_code error;
        const auto address = boost::asio::ip::make_address(std::string(fields[2 + i]), error);
        if (error || address.is_v4() != (fields[1] == "TCP4"))
            return refused("an address that is not " + std::string(fields[1]));
        addresses[i] = address;
    }
    return addresses[0];
}

std::unique_ptr<ConnectionLimits::Slot> ConnectionLimits::admit(const std::string& address) {
    int& count = perAddress_[address];
    if (inAll_ >= maxInAll_ || count >= maxPerAddress_) {
        if (count == 0) perAddress_.erase(address);
        return nullptr;
    }
    ++count;
    ++inAll_;
    return std::make_unique<Slot>(shared_from_this(), address);
}

int ConnectionLimits::from(const std::string& address) const {
    const auto it = perAddress_.find(address);
    return it == perAddress_.end() ? 0 : it->second;
}

void ConnectionLimits::release(const std::string& address) {
    --inAll_;
    const auto it = perAddress_.find(address);
    if (it != perAddress_.end() && --it->second <= 0) perAddress_.erase(it);
}

}  // namespace web::server
