// How a match runner's command line names a program to play (lasca-match `--engine`,
// torneio-referee `--player`): a path alone, or comma-separated fields
// `name=N,cmd=PATH,arg=A,option.X=Y` plus the runner's own keys (lasca-match: `proto=uci|ugi`;
// torneio-referee: `human`). Values cannot contain commas.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"

namespace common {

// ProgramSpec: one program as the command line gave it.
//   name     shown in reports and records (default: the file name of path; empty without path)
//   path     the program (`cmd=`, or the whole text when it has no fields); may be empty: the
//            runner decides whether a program is needed (a human seat has none)
//   args     `arg=` fields in order, the program's command-line arguments
//   options  `option.X=Y` fields in order, sent as `setoption name X value Y`
//   extra    the runner's own keys in order, as (key, value); a bare `key` has an empty value
struct ProgramSpec {
    std::string name;
    std::string path;
    std::vector<std::string> args;
    std::vector<std::pair<std::string, std::string>> options;
    std::vector<std::pair<std::string, std::string>> extra;
};

// Reads a spec. `extraKeys` are the runner's own keys, allowed as `key=value` or bare `key`.
// Errors: an unknown key, a field without `=` that is no extra key, an empty field.
Result<ProgramSpec> parseProgramSpec(std::string_view text,
                                     std::span<const std::string_view> extraKeys);

}  // namespace common
