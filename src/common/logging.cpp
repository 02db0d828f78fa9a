#include "common/logging.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/dist_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <memory>
#include <mutex>

namespace common {

namespace {

// The logger writes to a distributing sink holding the stderr sink and at most one file sink.
struct LogSinks {
    std::shared_ptr<spdlog::sinks::dist_sink_mt> all =
        std::make_shared<spdlog::sinks::dist_sink_mt>();
    std::shared_ptr<spdlog::sinks::stderr_sink_mt> console =
        std::make_shared<spdlog::sinks::stderr_sink_mt>();
    std::shared_ptr<spdlog::sinks::sink> file;
    std::shared_ptr<spdlog::logger> logger;
    std::mutex mutex;

    LogSinks() {
        console->set_level(spdlog::level::warn);
        all->add_sink(console);
        logger = std::make_shared<spdlog::logger>("lasca", all);
        logger->set_level(spdlog::level::trace);
        logger->set_pattern("[%H:%M:%S.%e] [%l] %v");
        logger->flush_on(spdlog::level::trace);
        spdlog::set_default_logger(logger);  // replaces the stdout default
    }
};

LogSinks& sinks() {
    static LogSinks instance;
    return instance;
}

}  // namespace

spdlog::logger& logger() {
    return *sinks().logger;
}

Result<bool> setDebugLogFile(const std::string& file) {
    LogSinks& s = sinks();
    std::lock_guard lock(s.mutex);
    std::shared_ptr<spdlog::sinks::sink> fresh;
    if (!file.empty()) {
        try {
            fresh = std::make_shared<spdlog::sinks::basic_file_sink_mt>(file, false);
        } catch (const spdlog::spdlog_ex& e) {
            return makeError("cannot open log file '" + file + "': " + e.what());
        }
        fresh->set_level(spdlog::level::debug);
    }
    if (s.file) s.all->remove_sink(s.file);
    s.file = fresh;
    if (s.file) s.all->add_sink(s.file);
    return true;
}

Result<bool> initLogging(const std::string& level, const std::string& file) {
    const auto parsed = spdlog::level::from_str(level);
    if (parsed == spdlog::level::off && level != "off")
        return makeError("unknown log level '" + level +
                         "' (trace, debug, info, warn, error, critical, off)");
    sinks().console->set_level(parsed);
    return setDebugLogFile(file);
}

}  // namespace common
