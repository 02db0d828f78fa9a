// The scripted analysis commands of the `lasca` command line (docs/analysis.md). Each takes the
// arguments from its own name on (argv[0] is "analyse", "diagram" or "find-wins") and returns
// the exit code: 0 done, 1 some input was skipped or a file could not be written, 2 a bad
// command line.
#pragma once

namespace lasca::analysis {

// lasca analyse GAMES.pdn | --positions FILE [options]
int runAnalyse(int argc, char** argv);
// lasca diagram LFEN [--flip] [--last MOVE] [--size PX]
int runDiagram(int argc, char** argv);
// lasca find-wins [--openings FILE] [--count N] [--mate M] [--nodes N] ...
int runFindWins(int argc, char** argv);

}  // namespace lasca::analysis
