// Helpers of the web tests: a fake engine that records what a table writes to it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "web/lasca_tables/lasca_table.h"

namespace web::test {

using lasca_tables::EngineChannel;
using lasca_tables::EngineFactory;
using lasca_tables::Json;

// FakeEngine: an EngineChannel whose lines go to a shared list the test reads; `started`
// counts the engines a table made.
struct FakeEngineLog {
    std::vector<std::string> lines;
    int started = 0;
    bool refuse = false;  // the factory fails (too many engines)
};

class FakeEngine : public EngineChannel {
  public:
    explicit FakeEngine(std::shared_ptr<FakeEngineLog> log) : log_(std::move(log)) {}
    bool send(std::string_view line) override {
        log_->lines.emplace_back(line);
        return true;
    }

  private:
    std::shared_ptr<FakeEngineLog> log_;
};

inline EngineFactory fakeFactory(const std::shared_ptr<FakeEngineLog>& log) {
    return [log]() -> common::Result<std::unique_ptr<EngineChannel>> {
        if (log->refuse) return common::makeError("too many engines running");
        ++log->started;
        return std::unique_ptr<EngineChannel>(std::make_unique<FakeEngine>(log));
    };
}

// The last message of the given type in replies, or null.
inline Json lastOfType(const std::vector<Json>& replies, const std::string& type) {
    Json found;
    for (const auto& r : replies)
        if (r.value("type", "") == type) found = r;
    return found;
}

}  // namespace web::test
