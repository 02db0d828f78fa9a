// libFuzzer harness: the whole protocol loop fed arbitrary command lines (including `go` with
// tiny limits and `stop`). Lines that would run long on purpose (`bench`, `go perft`, `go`
// without a small limit) are tamed first: the harness checks robustness, not patience.
// Properties: no crash, hang or sanitizer report; after the input, the engine's position
// satisfies every invariant (its key equals a from-scratch key).
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "common/logging.h"
#include "common/text.h"
#include "lasca/core/position.h"
#include "lasca/engine/protocol.h"

namespace {

// Rewrites a line so that it cannot start a long computation.
std::string tame(std::string line) {
    const auto tokens = common::splitWhitespace(line);
    if (tokens.empty()) return line;
    if (tokens[0] == "bench") return "bench 2";
    if (tokens[0] == "go") return "go nodes 300";
    if (tokens[0] == "setoption" && line.find("Hash") != std::string::npos) return "isready";
    if (tokens[0] == "setoption" && line.find("Threads") != std::string::npos)
        return "setoption name Threads value 2";
    if (tokens[0] == "setoption" && line.find("Debug") != std::string::npos) return "isready";
    return line;
}

}  // namespace

// One protocol session serves every input (as one long-running engine would): building an
// engine with its hash table for each input would make the harness a hundred times slower.
struct Session {
    Session() { (void)common::initLogging("off", ""); }
    std::ostringstream sink;
    lasca::engine::Output output{sink};
    lasca::engine::Protocol protocol{output};
};

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static Session session;
    session.sink.str("");  // no search runs between inputs: nothing writes to it now
    lasca::engine::Protocol& protocol = session.protocol;
    const std::string input(reinterpret_cast<const char*>(data), size);
    std::size_t start = 0;
    while (start <= input.size()) {
        std::size_t end = input.find('\n', start);
        if (end == std::string::npos) end = input.size();
        if (!protocol.handle(tame(input.substr(start, end - start)))) break;
        start = end + 1;
    }
    protocol.finish();
    const lasca::Position& pos = protocol.engine().game().current();
    if (!pos.validate().empty() || pos.key() != pos.computeKey()) std::abort();
    return 0;
}
