// The engine's name and version, as reported by `--version` and `id name`.
#pragma once

namespace lasca {
inline constexpr const char* kEngineName = "Lasca";
inline constexpr const char* kVersion = "0.1.0";
inline constexpr const char* kAuthor = "the lasca developers";
}  // namespace lasca
