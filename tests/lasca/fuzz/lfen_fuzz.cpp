// libFuzzer harness: the LFEN reader on arbitrary bytes.
// Properties: it never crashes or throws; a position it accepts satisfies every invariant and
// its LFEN reads back to the same position and writes the same text.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "lasca/core/position.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto parsed = lasca::Position::fromLfen(text);
    if (!parsed) {
        if (parsed.error().empty()) std::abort();
        return 0;
    }
    const lasca::Position& pos = parsed.value();
    if (!pos.validate().empty()) std::abort();
    const std::string written = pos.toLfen();
    const auto reread = lasca::Position::fromLfen(written);
    if (!reread || !(reread.value() == pos) || reread.value().toLfen() != written) std::abort();
    return 0;
}
