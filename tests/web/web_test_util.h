// Helpers of the web tests: a fake engine that records what a table writes to it, and the check
// of a text the server says in both languages; the catalogues as the source tree has them.
#pragma once

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "web/i18n/i18n.h"
#include "web/lasca_tables/lasca_table.h"

namespace web::test {

using lasca_tables::EngineChannel;
using lasca_tables::EngineFactory;
using lasca_tables::Json;

// FakeEngine: an EngineChannel that keeps every request a table makes and writes the protocol
// lines a pool's worker would be sent for them (positionCommand, goCommand, `setoption name
// MultiPV` when it changes, `stop`) to a shared list the test reads; `started` counts the
// engines a table made.
struct FakeEngineLog {
    std::vector<std::string> lines;
    std::vector<lasca_tables::EngineRequest> requests;
    int started = 0;
    bool refuse = false;  // the factory fails (too many engines)
};

class FakeEngine : public EngineChannel {
  public:
    explicit FakeEngine(std::shared_ptr<FakeEngineLog> log) : log_(std::move(log)) {}
    bool search(const lasca_tables::EngineRequest& request) override {
        if (request.multiPv != multiPv_)
            log_->lines.push_back("setoption name MultiPV value " +
                                  std::to_string(request.multiPv));
        multiPv_ = request.multiPv;
        log_->requests.push_back(request);
        log_->lines.push_back(lasca_tables::positionCommand(request));
        log_->lines.push_back(lasca_tables::goCommand(request));
        return true;
    }
    void stop() override { log_->lines.emplace_back("stop"); }

  private:
    std::shared_ptr<FakeEngineLog> log_;
    int multiPv_ = 1;
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

// web/i18n/<lang>/<area>.json of the source tree as JSON (discarded when it is not JSON).
inline Json catalogue(const std::string& lang, const std::string& area) {
    const auto path = std::filesystem::path(__FILE__).parent_path() / ".." / ".." / "web" / "i18n" /
                      lang / (area + ".json");
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return Json::parse(text.str(), nullptr, false);
}

// `key` with `params` said in both languages: a message of both catalogues (Catalogues::text
// gives the key back for an unknown one), every placeholder filled, the Portuguese not the
// English. `where` names the case in a failure.
inline void expectSaidInBothLanguages(const std::string& key, const Json& params,
                                      const std::string& where) {
    const auto& catalogues = i18n::builtIn();
    const std::string en = catalogues.text("en", key, params);
    const std::string pt = catalogues.text("pt-BR", key, params);
    EXPECT_NE(en, key) << where << ": " << key << " is not in web/i18n/en";
    EXPECT_NE(pt, key) << where << ": " << key << " is not in web/i18n/pt-BR";
    EXPECT_EQ(en.find('{'), std::string::npos) << where << ": " << en;
    EXPECT_EQ(pt.find('{'), std::string::npos) << where << ": " << pt;
    EXPECT_NE(en, pt) << where << ": " << key << " is not Portuguese";
}

}  // namespace web::test
