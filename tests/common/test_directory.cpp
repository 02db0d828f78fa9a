#include "test_directory.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <system_error>

namespace common::test {
namespace {

// The directories made during the current test; removed at its end.
struct Made {
    std::mutex mutex;
    std::set<std::filesystem::path> directories;
};

Made& made() {
    static Made instance;
    return instance;
}

std::string safeName(std::string name) {
    for (char& c : name)
        if (c == '/' || c == ' ') c = '_';
    return name;
}

// Removes the test's directory when the test ends, whatever its result.
class RemoveTestDirectories : public ::testing::EmptyTestEventListener {
    void OnTestEnd(const ::testing::TestInfo&) override { removeTestDirectories(); }
};

// Registered once, before main runs the tests (GoogleTest owns and deletes the listener).
const bool kRegistered = [] {
    ::testing::UnitTest::GetInstance()->listeners().Append(new RemoveTestDirectories);
    return true;
}();

}  // namespace

std::filesystem::path testDirectory() {
    (void)kRegistered;
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::string test =
        info ? safeName(std::string(info->test_suite_name()) + "." + info->name()) : "no-test";
    const auto dir = std::filesystem::temp_directory_path() /
                     ("lasca-test-" + std::to_string(::getpid()) + "-" + test);
    std::filesystem::create_directories(dir);
    std::lock_guard lock(made().mutex);
    made().directories.insert(dir);
    return dir;
}

void removeTestDirectories() {
    std::lock_guard lock(made().mutex);
    for (const auto& dir : made().directories) {
        std::error_code ignored;
        std::filesystem::remove_all(dir, ignored);
    }
    made().directories.clear();
}

std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void writeText(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path) << text;
}

}  // namespace common::test
