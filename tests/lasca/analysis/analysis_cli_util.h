// Helpers of the scripted analysis tests: running the `lasca` binary with arguments and
// reading what it wrote, and the paths of the test data.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_directory.h"

namespace lasca::test {

// What one run of the binary did.
struct CliRun {
    int exitCode = -1;
    std::string out;
    std::string err;
};

using common::test::readText;
using common::test::testDirectory;
using common::test::writeText;

// Runs `lasca <args>` (args as shell words, already quoted where needed) from the source tree.
inline CliRun runLasca(const std::string& args) {
    static int runs = 0;
    const auto dir = testDirectory() / ("run-" + std::to_string(++runs));
    std::filesystem::create_directories(dir);
    const std::string command = std::string("cd '") + LASCA_SOURCE_DIR + "' && '" + LASCA_BINARY +
                                "' " + args + " > '" + (dir / "out").string() + "' 2> '" +
                                (dir / "err").string() + "'";
    const int status = std::system(command.c_str());
    CliRun run;
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.out = readText(dir / "out");
    run.err = readText(dir / "err");
    return run;
}

inline std::filesystem::path sourcePath(const std::string& relative) {
    return std::filesystem::path(LASCA_SOURCE_DIR) / relative;
}

inline std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

}  // namespace lasca::test
