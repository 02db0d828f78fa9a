// Logging through spdlog, to stderr and optionally a file: never to stdout, which carries the
// protocol. At debug level every protocol line received and sent is logged.
#pragma once

#include <spdlog/spdlog.h>

#include <string>

#include "common/result.h"

namespace common {

// Sets up the "lasca" logger: stderr at `level` (trace, debug, info, warn, error, off), plus
// `file` at debug level when not empty. Errors name a bad level or an unwritable file.
Result<bool> initLogging(const std::string& level, const std::string& file);

// Replaces the debug log file (empty: none). Used by the `Debug Log File` option.
Result<bool> setDebugLogFile(const std::string& file);

spdlog::logger& logger();

}  // namespace common
