// What lasca-web answers, without a socket: origins parsed, Host and Origin checked against the
// names it serves (the DNS-rebinding attack of issue 52), the page's files served from a table
// made at start (a property test of thousands of hostile targets: none reaches a file outside
// the folder), and the connection limits.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "test_directory.h"
#include "web/server/access.h"

namespace web::server {
namespace {

namespace fs = std::filesystem;
using common::test::testDirectory;
using common::test::writeText;

TEST(Access, OriginsAreParsedAsABrowserWritesThem) {
    const auto plain = parseOrigin("https://Lasca.Example.org");
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->scheme, "https");
    EXPECT_EQ(plain->host, "lasca.example.org");
    EXPECT_EQ(plain->port, 443);
    const auto ported = parseOrigin("http://127.0.0.1:8080");
    ASSERT_TRUE(ported);
    EXPECT_EQ(ported->port, 8080);
    const auto v6 = parseOrigin("http://[::1]:81");
    ASSERT_TRUE(v6);
    EXPECT_EQ(v6->host, "[::1]");
    for (const char* bad :
         {"", "lasca.example.org", "ftp://x.org", "https://", "https://x.org/", "https://x.org:0",
          "https://x.org:65536", "https://x.org:8a", "https://user@x.org", "https://x.org?q",
          "https://.x.org", "https://[zz]", "https://x.org:", "https://x y.org", "null"})
        EXPECT_FALSE(parseOrigin(bad)) << bad;
    // static_files_fuzz's finding (2026-12-06): a long bracketed host that is no IPv6 address
    // was taken, and once written back with its port no longer read.
    EXPECT_FALSE(parseOrigin("http://[:::7.280:9:::0081::::7.280:9:::00:1::::7.280:9:::00]"));
    EXPECT_FALSE(parseOrigin("http://[::1"));
    EXPECT_FALSE(parseOrigin(std::string("http://[c:81::\0\xab]", 17))) << "a NUL in the address";
    const std::string longest = "https://" + std::string(253, 'a');
    const auto named = parseOrigin(longest);
    ASSERT_TRUE(named);
    const auto again = parseOrigin(longest + ":443");
    ASSERT_TRUE(again);
    EXPECT_EQ(again->host, named->host);
    EXPECT_FALSE(parseOrigin("https://" + std::string(254, 'a')));
}

TEST(Access, OnlyTheLoopbackNamesAndTheListeningAddressAreServedByDefault) {
    const HostPolicy policy("127.0.0.1", 8080, {});
    for (const char* good : {"127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "[::1]:8080"})
        EXPECT_TRUE(policy.hostAllowed(good)) << good;
    for (const char* bad : {"", "attacker.test", "attacker.test:8080", "127.0.0.1:8081",
                            "127.0.0.1", "localhost.attacker.test:8080", "127.0.0.1:8080 "})
        EXPECT_FALSE(policy.hostAllowed(bad)) << bad;
    EXPECT_TRUE(policy.originAllowed("")) << "a program sends no Origin";
    EXPECT_TRUE(policy.originAllowed("http://127.0.0.1:8080"));
    EXPECT_TRUE(policy.originAllowed("http://localhost:8080"));
    for (const char* bad :
         {"http://attacker.test", "http://attacker.test:8080", "https://127.0.0.1:8080",
          "http://127.0.0.1:8081", "null", "http://127.0.0.1:8080/"})
        EXPECT_FALSE(policy.originAllowed(bad)) << bad;
}

TEST(Access, PublicOriginsAddTheirHostAndThemselves) {
    const HostPolicy policy(
        "0.0.0.0", 8080,
        {*parseOrigin("https://lasca.example.org"), *parseOrigin("http://club.example.org:8000")});
    EXPECT_TRUE(policy.hostAllowed("lasca.example.org"));
    EXPECT_TRUE(policy.hostAllowed("lasca.example.org:443"));
    EXPECT_TRUE(policy.hostAllowed("club.example.org:8000"));
    EXPECT_FALSE(policy.hostAllowed("club.example.org")) << "port 80 is not 8000";
    EXPECT_FALSE(policy.hostAllowed("0.0.0.0:8080")) << "the wildcard is no name";
    EXPECT_TRUE(policy.originAllowed("https://lasca.example.org"));
    EXPECT_TRUE(policy.originAllowed("http://club.example.org:8000"));
    EXPECT_FALSE(policy.originAllowed("http://lasca.example.org")) << "another scheme";
    const HostPolicy onAddress("192.168.1.5", 80, {});
    EXPECT_TRUE(onAddress.hostAllowed("192.168.1.5"));
    EXPECT_TRUE(onAddress.originAllowed("http://192.168.1.5"));
}

// A page folder with subfolders, hidden files, links in and out, and a secret beside it.
struct Folder {
    fs::path root, secret;
    std::set<std::string> bodies;  // of the files that may be served
};

Folder makeFolder() {
    Folder folder;
    const auto base = testDirectory();
    folder.root = base / "web";
    folder.secret = base / "secret.txt";
    fs::create_directories(folder.root / "images");
    fs::create_directories(folder.root / ".git");
    writeText(folder.secret, "SECRET beside the folder");
    const std::vector<std::pair<std::string, std::string>> own = {
        {"index.html", "<!doctype html>index"},
        {"torneio.html", "<!doctype html>torneio"},
        {"app.css", "body{}"},
        {"lasca.js", "// lasca"},
        {"images/board.svg", "<svg/>"}};
    for (const auto& [name, body] : own) {
        writeText(folder.root / name, body);
        folder.bodies.insert(body);
    }
    writeText(folder.root / ".env", "SECRET hidden file");
    writeText(folder.root / ".git" / "config", "SECRET in a hidden folder");
    writeText(folder.root / "notes~", "SECRET backup name");
    fs::create_symlink(folder.secret, folder.root / "out.txt");
    fs::create_symlink("/etc", folder.root / "etc");
    fs::create_symlink(folder.root / "lasca.js", folder.root / "alias.js");
    return folder;
}

TEST(Access, ThePageFilesAreTheFolderOwnFilesOnly) {
    const auto folder = makeFolder();
    const auto files = StaticFiles::load(folder.root.string());
    ASSERT_TRUE(files) << files.error();
    EXPECT_EQ(files.value().paths(),
              (std::vector<std::string>{"/alias.js", "/app.css", "/images/board.svg", "/index.html",
                                        "/lasca.js", "/torneio.html"}));
    ASSERT_TRUE(files.value().find("/"));
    EXPECT_EQ(files.value().find("/")->body, "<!doctype html>index");
    EXPECT_EQ(files.value().find("/torneio?table=1&token=2")->body, "<!doctype html>torneio");
    EXPECT_EQ(files.value().find("/app.css")->contentType, "text/css; charset=utf-8");
    EXPECT_FALSE(StaticFiles::load((folder.root / "index.html").string()));
    EXPECT_FALSE(StaticFiles::load((folder.root / "missing").string()));
}

// The property: whatever the target, what is found is one of the folder's own files, never the
// secret beside it, a hidden file, a link out or a file of the system.
TEST(Access, NoGeneratedTargetReachesAFileOutsideTheFolder) {
    const auto folder = makeFolder();
    const auto files = StaticFiles::load(folder.root.string());
    ASSERT_TRUE(files) << files.error();
    const std::vector<std::string> parts = {"",
                                            "/",
                                            "//",
                                            "///",
                                            ".",
                                            "..",
                                            "...",
                                            "%2e",
                                            "%2e%2e",
                                            "%2f",
                                            "%2F",
                                            "%5c",
                                            "\\",
                                            "etc",
                                            "passwd",
                                            "shadow",
                                            "proc",
                                            "self",
                                            "environ",
                                            "cmdline",
                                            "secret.txt",
                                            "web",
                                            "index.html",
                                            "lasca.js",
                                            "images",
                                            "board.svg",
                                            ".env",
                                            ".git",
                                            "config",
                                            "out.txt",
                                            "alias.js",
                                            "notes~",
                                            std::string(1, '\0'),
                                            "?",
                                            "#",
                                            "?x=/../..",
                                            ";",
                                            ":",
                                            "~",
                                            std::string(300, 'a'),
                                            std::string(5000, '/'),
                                            "\xc0\xae",
                                            "\xef\xbc\x8f",
                                            " ",
                                            "\t",
                                            "\r\n",
                                            folder.root.string(),
                                            folder.secret.string(),
                                            "torneio",
                                            "%00"};
    std::mt19937_64 random(20261206);
    std::size_t found = 0;
    const auto check = [&](const std::string& target) {
        const auto* file = files.value().find(target);
        if (!file) return;
        ++found;
        EXPECT_EQ(folder.bodies.count(file->body), 1u) << "target '" << target << "'";
        EXPECT_EQ(file->body.find("SECRET"), std::string::npos) << "target '" << target << "'";
    };
    for (const char* fixed : {"//etc/passwd", "//etc/shadow", "//proc/self/environ",
                              "///proc/self/cmdline", "/../secret.txt", "/etc/passwd", "/out.txt",
                              "/.env", "/.git/config", "/images/../../secret.txt"})
        EXPECT_EQ(files.value().find(fixed), nullptr) << fixed;
    for (int n = 0; n < 20000; ++n) {
        std::string target = random() % 8 ? "/" : "";
        const auto count = 1 + random() % 6;
        for (std::size_t i = 0; i < count; ++i) {
            target += parts[random() % parts.size()];
            if (random() % 2) target += "/";
        }
        check(target);
    }
    for (const auto& path : files.value().paths()) check(path);  // the property can hold
    EXPECT_GT(found, 5u);
}

// Each file carries its validators: a strong tag naming its bytes (the same bytes, the same
// tag), and its time when read, as an HTTP-date.
TEST(Access, EveryFileHasATagOfItsBytesAndItsTime) {
    const auto folder = makeFolder();
    // 2026-12-06 04:42:29 UTC, a Sunday.
    const std::chrono::sys_seconds written{std::chrono::seconds(1796532149)};
    fs::last_write_time(folder.root / "app.css", std::chrono::file_clock::from_sys(written));
    const auto files = StaticFiles::load(folder.root.string());
    ASSERT_TRUE(files) << files.error();
    const auto* css = files.value().find("/app.css");
    ASSERT_TRUE(css);
    EXPECT_EQ(css->lastModified, "Sun, 06 Dec 2026 04:42:29 GMT");
    EXPECT_EQ(css->modified, 1796532149);
    ASSERT_EQ(css->etag.size(), 66u) << css->etag;
    EXPECT_EQ(css->etag.front(), '"');
    EXPECT_EQ(css->etag.back(), '"');
    EXPECT_EQ(css->etag.find_first_not_of("0123456789abcdef", 1), 65u) << css->etag;
    EXPECT_EQ(files.value().find("/alias.js")->etag, files.value().find("/lasca.js")->etag);
    std::set<std::string> tags;
    for (const auto& path : files.value().paths()) tags.insert(files.value().find(path)->etag);
    EXPECT_EQ(tags.size(), files.value().paths().size() - 1) << "one tag per different body";
}

// RFC 9110, 13.1.2 and 13.1.3: If-None-Match decides when it is sent (its tags compared weakly),
// If-Modified-Since only without it; a date that is no IMF-fixdate counts as none.
TEST(Access, AFileTheBrowserHoldsIsNotModified) {
    StaticFiles::File file{"text/css; charset=utf-8", "body{}", "\"0123abcd\"", 1796532149,
                           "Sun, 06 Dec 2026 04:42:29 GMT"};
    EXPECT_FALSE(notModified(file, "", ""));
    for (const char* tags : {"\"0123abcd\"", "W/\"0123abcd\"", "*", "\"x\", \"0123abcd\"",
                             "\"x\",\"0123abcd\"", " \"0123abcd\" "})
        EXPECT_TRUE(notModified(file, tags, "")) << tags;
    for (const char* tags : {"\"0123abcd", "0123abcd", "\"0123abcde\"", "\"x\"", ",", "W/"})
        EXPECT_FALSE(notModified(file, tags, "")) << tags;
    for (const char* since : {"Sun, 06 Dec 2026 04:42:29 GMT", "Sun, 06 Dec 2026 04:42:30 GMT",
                              "Mon, 01 Jan 2035 00:00:00 GMT"})
        EXPECT_TRUE(notModified(file, "", since)) << since;
    for (const char* since : {"Sun, 06 Dec 2026 04:42:28 GMT", "Thu, 01 Jan 1970 00:00:00 GMT",
                              "Sunday, 06-Dec-26 04:42:29 GMT", "Sun Dec  6 04:42:29 2026",
                              "Sun, 31 Feb 2026 04:42:29 GMT", "Sun, 06 Dec 2026 24:42:29 GMT",
                              "Sun, 06 Xyz 2026 04:42:29 GMT", "Sun, 06 Dec 2026 04:42:29 UTC",
                              "Sun, -6 Dec 2026 04:42:29 GMT", "garbage"})
        EXPECT_FALSE(notModified(file, "", since)) << since;
    EXPECT_FALSE(notModified(file, "\"x\"", "Sun, 06 Dec 2026 04:42:29 GMT"))
        << "If-None-Match decides when it is sent";
}

TEST(Access, AnAddressIsKeyedByItselfOrItsIpv6Network) {
    using boost::asio::ip::make_address;
    EXPECT_EQ(addressKey(make_address("127.0.0.2")), "127.0.0.2");
    EXPECT_EQ(addressKey(make_address("::ffff:10.1.2.3")), "10.1.2.3");
    EXPECT_EQ(addressKey(make_address("2001:db8:1:2:aaaa::1")), "2001:db8:1:2::/64");
    EXPECT_EQ(addressKey(make_address("2001:db8:1:2:bbbb::9")), "2001:db8:1:2::/64");
    EXPECT_NE(addressKey(make_address("2001:db8:1:3::1")), "2001:db8:1:2::/64");
}

TEST(Access, TheProxyProtocolHeaderNamesTheClient) {
    const auto v4 = parseProxyLine("PROXY TCP4 203.0.113.7 192.0.2.1 56324 443\r\n");
    ASSERT_TRUE(v4) << v4.error();
    ASSERT_TRUE(v4.value());
    EXPECT_EQ(v4.value()->to_string(), "203.0.113.7");
    const auto v6 = parseProxyLine("PROXY TCP6 2001:db8::1 2001:db8::2 65535 0\r\n");
    ASSERT_TRUE(v6) << v6.error();
    EXPECT_EQ(addressKey(*v6.value()), "2001:db8::/64");
    const auto unknown = parseProxyLine("PROXY UNKNOWN\r\n");
    ASSERT_TRUE(unknown);
    EXPECT_FALSE(unknown.value());
    EXPECT_TRUE(parseProxyLine("PROXY UNKNOWN ffff:f...f:ffff ffff:f...f:ffff 65535 65535\r\n"));
    // Anything else is refused, the connection closed.
    for (const std::string& bad : std::vector<std::string>{
             "", "\r\n", "GET / HTTP/1.1\r\n", "PROXY TCP4 1.2.3.4 5.6.7.8 1 2",
             "PROXY TCP4 1.2.3.4 5.6.7.8 1 2\n", "PROXY TCP4 1.2.3.4 5.6.7.8 1\r\n",
             "PROXY TCP4 1.2.3.4 5.6.7.8 1 2 3\r\n", "PROXY TCP4 1.2.3.4  5.6.7.8 1 2\r\n",
             "PROXY TCP4 2001:db8::1 5.6.7.8 1 2\r\n", "PROXY TCP6 1.2.3.4 2001:db8::1 1 2\r\n",
             "PROXY TCP4 1.2.3.4 5.6.7.8 65536 2\r\n", "PROXY TCP4 1.2.3.4 5.6.7.8 -1 2\r\n",
             "PROXY TCP4 1.2.3.4 5.6.7.8 01 2\r\n", "PROXY TCP4 1.2.3.4 5.6.7.8 1 2x\r\n",
             "PROXY TCP4 1.2.3.256 5.6.7.8 1 2\r\n", "PROXY UDP4 1.2.3.4 5.6.7.8 1 2\r\n",
             "proxy TCP4 1.2.3.4 5.6.7.8 1 2\r\n",
             std::string("PROXY TCP4 1.2.3.4\0 5.6.7.8 1 2\r\n", 33),
             "PROXY UNKNOWN " + std::string(100, 'x') + "\r\n"})
        EXPECT_FALSE(parseProxyLine(bad)) << bad;
}

TEST(Access, ConnectionsAreLimitedInAllAndPerAddress) {
    auto limits = std::make_shared<ConnectionLimits>(5, 3);
    std::vector<std::unique_ptr<ConnectionLimits::Slot>> held;
    for (int i = 0; i < 3; ++i) held.push_back(limits->admit("10.0.0.1"));
    for (const auto& slot : held) ASSERT_TRUE(slot);
    EXPECT_FALSE(limits->admit("10.0.0.1")) << "a fourth from one address";
    held.push_back(limits->admit("10.0.0.2"));
    held.push_back(limits->admit("10.0.0.3"));
    ASSERT_TRUE(held.back());
    EXPECT_EQ(limits->inAll(), 5);
    EXPECT_FALSE(limits->admit("10.0.0.4")) << "a sixth in all";
    held.erase(held.begin());  // one of 10.0.0.1's closes
    EXPECT_EQ(limits->from("10.0.0.1"), 2);
    EXPECT_TRUE(limits->admit("10.0.0.4"));  // its slot goes at once
    held.clear();
    EXPECT_EQ(limits->inAll(), 0);
    EXPECT_EQ(limits->from("10.0.0.1"), 0);
}

}  // namespace
}  // namespace web::server
