// The command line of the project's runner programs (lasca-match, torneio-referee): a usage
// error thrown from anywhere in a command, the file arguments of a sub-command, and the one
// place that turns exceptions into a message on stderr and an exit code. Header only, so that
// common does not depend on Boost: the caller names its parser's error type.
#pragma once

#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

namespace common {

inline constexpr int kExitError = 1;  // the command failed
inline constexpr int kExitUsage = 2;  // the command line was wrong

// UsageError: a bad command line or a bad input file named on it.
struct UsageError {
    std::string message;
};

// The arguments after a sub-command (`merge FILE...`): `--help` prints `usage` and exits 0;
// none at all is a UsageError asking for `what`.
inline std::vector<std::string> fileArguments(int argc, char** argv, std::string_view usage,
                                              std::string_view what) {
    std::vector<std::string> files(argv + 2, argv + argc);
    for (const auto& f : files)
        if (f == "--help" || f == "-h") {
            std::cout << usage;
            std::exit(0);
        }
    if (files.empty()) throw UsageError{"give at least one " + std::string(what)};
    return files;
}

// Runs `body` (the program's work, returning its exit code). A UsageError or a ParseError (the
// option parser's error) prints "<program>: <message>" on stderr and gives kExitUsage; any other
// exception prints it and gives kExitError.
template <class ParseError, class Body>
int runCommandLine(std::string_view program, const Body& body) {
    try {
        return body();
    } catch (const UsageError& e) {
        std::cerr << program << ": " << e.message << "\n";
    } catch (const ParseError& e) {
        std::cerr << program << ": " << e.what() << " (try --help)\n";
    } catch (const std::exception& e) {
        std::cerr << program << ": " << e.what() << "\n";
        return kExitError;
    }
    return kExitUsage;
}

}  // namespace common
