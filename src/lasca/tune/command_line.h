// The plumbing the subcommands of lasca-tune share (tune_main.cpp dispatches to them, one file
// each): the error line and exit codes, reading a command's options, range checks, and the
// positions files that fit and scale read.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "lasca/tune/tuner.h"

namespace lasca::tune {

namespace po = boost::program_options;

inline constexpr int kExitUsage = 2;
inline constexpr int kExitError = 1;

// Writes "lasca-tune: <message>" on stderr and returns `code`.
int fail(const std::string& message, int code = kExitError);

// Reads a command's options into the variables bound in `desc`; false when --help was asked
// (the usage and options are printed then). Throws po::error on a bad command line.
bool parseOptions(const std::vector<std::string>& args, const po::options_description& desc,
                  const std::string& usage);

// A numeric option's range check: false (after the error line) when out of range.
bool inRange(const char* name, std::int64_t value, std::int64_t low, std::int64_t high);

// The samples of a positions file written by extract; errors name the file and line.
common::Result<std::vector<Sample>> readSamples(const std::string& path);

// --start of fit and scale: "tuned" (the compiled-in weights) or "material".
bool validStart(const std::string& start);
RealWeights startingWeights(const std::string& start);

// The subcommands: each takes the arguments after its name and returns the exit code.
int extractCommand(const std::vector<std::string>& args);
int fitCommand(const std::vector<std::string>& args);
int scaleCommand(const std::vector<std::string>& args);
int datagenCommand(const std::vector<std::string>& args);
int relabelCommand(const std::vector<std::string>& args);  // datagen --relabel
int featuresCommand(const std::vector<std::string>& args);
int spsaCommand(const std::vector<std::string>& args);
int egtbCommand(const std::vector<std::string>& args);

}  // namespace lasca::tune
