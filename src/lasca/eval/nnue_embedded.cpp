// The default network, embedded in the binary (a new user needs no file). The
// assembler's .incbin copies the network file named by LASCA_NNUE_DEFAULT_FILE (set by
// CMakeLists.txt: src/lasca/eval/default.nnue) into read-only data at build time; this file is
// compiled without link-time optimisation, which does not see top-level assembly symbols.
#include <span>

#include "lasca/eval/nnue.h"

asm(".section .rodata\n"
    ".balign 64\n"
    ".globl lascaNnueDefaultBegin\n"
    "lascaNnueDefaultBegin:\n"
    ".incbin \"" LASCA_NNUE_DEFAULT_FILE
    "\"\n"
    ".globl lascaNnueDefaultEnd\n"
    "lascaNnueDefaultEnd:\n"
    ".previous\n");

extern "C" const unsigned char lascaNnueDefaultBegin[];
extern "C" const unsigned char lascaNnueDefaultEnd[];

namespace lasca::eval::nnue {

std::span<const unsigned char> embeddedNetworkBytes() {
    return {lascaNnueDefaultBegin,
            static_cast<std::size_t>(lascaNnueDefaultEnd - lascaNnueDefaultBegin)};
}

std::shared_ptr<const Network> defaultNetwork() {
    static const std::shared_ptr<const Network> net = [] {
        auto parsed = parseNetwork(embeddedNetworkBytes());
        // The build embeds a checked file (tests/lasca/eval/nnue_test.cpp parses it); a zero
        // network keeps the promise of never returning null should it ever not parse.
        return parsed ? parsed.value() : std::make_shared<const Network>();
    }();
    return net;
}

}  // namespace lasca::eval::nnue
