// The engine's name and version, as reported by `--version` and `id name`.
#pragma once

#include "common/version.h"

namespace lasca {
inline constexpr const char* kEngineName = "Lasca";
inline constexpr const char* kVersion = common::kProjectVersion;  // CMake's project(VERSION)
inline constexpr const char* kAuthor = "the lasca developers";
}  // namespace lasca
