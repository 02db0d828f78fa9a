// libFuzzer harness of what lasca-web makes of a request's target and names (web/server/
// access.h): the target as a path to one of the page's files, and the bytes as a Host and an
// Origin. Properties: a found file is one of the folder's own (never the secret beside the
// folder, a hidden file or a link out); an origin parsed is written back and parsed again alike;
// a Host or Origin that is not one of the server's own names is refused.
#include <unistd.h>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <string_view>

#include "web/server/access.h"

namespace {

namespace fs = std::filesystem;

struct Fixture {
    web::server::StaticFiles files;
    std::set<std::string> bodies;
};

void write(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// A page folder in a fresh temporary folder: its own files, a hidden one, links in and out,
// and a secret beside it.
Fixture makeFixture() {
    const fs::path base =
        fs::temp_directory_path() / ("static-files-fuzz-" + std::to_string(getpid()));
    fs::remove_all(base);
    fs::create_directories(base / "web" / "images");
    write(base / "secret.txt", "SECRET");
    Fixture fixture;
    for (const auto& [name, body] : {std::pair<std::string, std::string>{"index.html", "index"},
                                     {"torneio.html", "torneio"},
                                     {"lasca.js", "lasca"},
                                     {"images/a.svg", "svg"}}) {
        write(base / "web" / name, body);
        fixture.bodies.insert(body);
    }
    write(base / "web" / ".env", "SECRET hidden");
    fs::create_symlink(base / "secret.txt", base / "web" / "out.txt");
    fs::create_symlink("/etc", base / "web" / "etc");
    auto loaded = web::server::StaticFiles::load((base / "web").string());
    if (!loaded) std::abort();
    fixture.files = std::move(loaded).value();
    fs::remove_all(base);  // the files are in memory now
    return fixture;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const Fixture fixture = makeFixture();
    static const web::server::HostPolicy policy(
        "127.0.0.1", 8080, {*web::server::parseOrigin("https://lasca.example.org")});
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    if (const auto* file = fixture.files.find(text)) {
        if (fixture.bodies.count(file->body) != 1) std::abort();
    }

    if (const auto origin = web::server::parseOrigin(text)) {
        const std::string written =
            origin->scheme + "://" + origin->host + ":" + std::to_string(origin->port);
        const auto again = web::server::parseOrigin(written);
        if (!again || again->scheme != origin->scheme || again->host != origin->host ||
            again->port != origin->port)
            std::abort();
    }

    // Only the server's own names pass; anything containing another name is refused.
    if (policy.hostAllowed(text)) {
        static const std::set<std::string> own = {"localhost:8080", "127.0.0.1:8080", "[::1]:8080",
                                                  "lasca.example.org", "lasca.example.org:443"};
        std::string lower(text);
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (own.count(lower) != 1) std::abort();
    }
    if (!text.empty() && policy.originAllowed(text)) {
        static const std::set<std::string> own = {"http://localhost:8080", "http://127.0.0.1:8080",
                                                  "http://[::1]:8080", "https://lasca.example.org"};
        std::string lower(text);
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (own.count(lower) != 1) std::abort();
    }
    return 0;
}
