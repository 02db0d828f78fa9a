// The `--version` every program answers (common/version.h).
#include "common/version.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace common {
namespace {

bool asked(std::vector<std::string> args, std::ostream& out) {
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    return printVersionIfAsked(static_cast<int>(argv.size()), argv.data(), "prog", out);
}

TEST(Version, TheFirstArgumentVersionOrVWritesProgramAndVersion) {
    for (const char* flag : {"--version", "-V"}) {
        std::ostringstream out;
        EXPECT_TRUE(asked({"prog", flag}, out)) << flag;
        EXPECT_EQ(out.str(), std::string("prog ") + kProjectVersion + "\n") << flag;
    }
}

TEST(Version, AnythingElseWritesNothing) {
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"prog"},
                                               {"prog", "--help"},
                                               {"prog", "-v"},
                                               {"prog", "x", "--version"},
                                               {"prog", "--versions"}}) {
        std::ostringstream out;
        EXPECT_FALSE(asked(args, out)) << args.size();
        EXPECT_EQ(out.str(), "");
    }
}

}  // namespace
}  // namespace common
