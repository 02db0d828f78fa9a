// The running test's own scratch directory, shared by every test suite of the project.
//
// ctest runs tests side by side (`-j`), and each test may run more than once (`--repeat`), so no
// test writes a fixed path under the temporary directory: each asks for `testDirectory()`, a
// folder unique to this process and this test,
//     <temp>/lasca-test-<pid>-<suite>.<test>      ('/' of parameterised names made '_')
// made when first asked for and removed with everything in it when the test ends (a GoogleTest
// listener registered by test_directory.cpp). Calls within one test return the same folder.
#pragma once

#include <filesystem>
#include <string>

namespace common::test {

// The current test's directory (made on first use, removed when the test ends).
std::filesystem::path testDirectory();

// Removes every directory testDirectory() made (called at each test's end by the listener).
void removeTestDirectories();

// The whole text of a file ("" when it cannot be read).
std::string readText(const std::filesystem::path& path);

// Writes `text` to a file, replacing it.
void writeText(const std::filesystem::path& path, const std::string& text);

}  // namespace common::test
