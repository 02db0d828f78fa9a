// The project's version (CMake's project(VERSION), passed as LASCA_VERSION), and the
// `--version` every program answers: "<program> <version>" on stdout (the stream main passes),
// exit 0.
#pragma once

#include <ostream>
#include <string_view>

#ifndef LASCA_VERSION
#define LASCA_VERSION "0.0.0"
#endif

namespace common {

inline constexpr const char* kProjectVersion = LASCA_VERSION;

// True (after writing "<program> <version>" to out) when the first argument is --version or
// -V; main returns 0 then.
inline bool printVersionIfAsked(int argc, char** argv, std::string_view program,
                                std::ostream& out) {
    if (argc < 2) return false;
    const std::string_view first = argv[1];
    if (first != "--version" && first != "-V") return false;
    out << program << ' ' << kProjectVersion << std::endl;
    return true;
}

}  // namespace common
