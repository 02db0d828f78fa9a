// Runs the lasca-tune program in the test's own directory, for the tests of its commands.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "test_directory.h"

namespace lasca::tune::test {

// What one run of lasca-tune did.
struct TuneRun {
    int exitCode = -1;
    std::string out;
    std::string err;
};

// Runs `lasca-tune <args>` (args already quoted for the shell), stdout and stderr captured.
inline TuneRun runTuneProgram(const std::string& args) {
    static int runs = 0;
    const auto dir = common::test::testDirectory() / ("run-" + std::to_string(++runs));
    std::filesystem::create_directories(dir);
    const std::string command = std::string("'") + LASCA_TUNE + "' " + args + " > '" +
                                (dir / "out").string() + "' 2> '" + (dir / "err").string() + "'";
    const int status = std::system(command.c_str());
    TuneRun run;
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.out = common::test::readText(dir / "out");
    run.err = common::test::readText(dir / "err");
    return run;
}

}  // namespace lasca::tune::test
