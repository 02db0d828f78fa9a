// lasca-tune: the evaluation tuner (docs/tuning.md).
//   lasca-tune extract --pdn FILE... --out POSITIONS [--skip-plies N]
//       quiet positions of finished games, labelled with the result ("<result> <LFEN>")
//   lasca-tune fit --positions POSITIONS --out FILE [--epochs N] [--rate R] [--start S]
//       Texel fit of the evaluation weights; writes src/lasca/eval/eval_weights.inc
//   lasca-tune scale --positions POSITIONS [--start S]
//       only the fit's scale K, and the logistic scale in centi-soldiers that `lasca analyse`
//       turns scores into winning chances with (docs/analysis.md)
//   lasca-tune datagen --games N --out FILE [--seed S] [--nodes N] [--random-plies N]
//                      [--random-moves PERCENT] [--max-plies N] [--jobs J]
//                      [--eval classic|nnue|FILE] [--shard i/n]
//       self-play training data of the learned evaluation ("<result> <score> <LFEN>",
//       docs/nnue.md)
//   lasca-tune datagen --relabel FILE --out FILE (--nodes N | --depth D) [--jobs J]
//                      [--eval classic|nnue|FILE] [--shard i/n]
//       the same lines with the score of a new search of each position (deeper labels)
//   lasca-tune features --positions FILE --out FILE
//       the binary training file of datagen's text (the network's inputs, both perspectives)
//   lasca-tune spsa --engine CMD --params FILE --iterations N
//                   (--nodes N | --movetime MS | --tc S+I)
//                   [--openings FILE] [--seed S] [--concurrency C] [--out FILE]
//       SPSA of the search's parameters (engine options) through game pairs, fishtest-style
//   lasca-tune egtb --pieces N --out DIR [--jobs J]
//       the exact endgame table of one column a side with N pieces in all (docs/egtb.md)
// Each subcommand is a file of its own (extract_command.cpp, ...); command_line.h holds what
// they share.
#include <iostream>
#include <string>
#include <vector>

#include "command_line.h"
#include "common/version.h"

using namespace lasca::tune;

int main(int argc, char** argv) {
    if (common::printVersionIfAsked(argc, argv, "lasca-tune", std::cout)) return 0;
    const std::vector<std::string> args(argv + 1, argv + argc);
    const std::string usage =
        "usage: lasca-tune extract --pdn FILE... --out FILE [--skip-plies N]\n"
        "       lasca-tune fit --positions FILE --out FILE [--epochs N] [--rate R] [--start S]\n"
        "       lasca-tune scale --positions FILE [--start S]\n"
        "       lasca-tune datagen --games N --out FILE [--seed S] [--nodes N] [--random-plies N]\n"
        "                          [--random-moves PERCENT]\n"
        "                          [--max-plies N] [--jobs J] [--eval classic|nnue|FILE]\n"
        "                          [--shard i/n]\n"
        "       lasca-tune datagen --relabel FILE --out FILE (--nodes N | --depth D)\n"
        "                          [--jobs J] [--eval classic|nnue|FILE] [--shard i/n]\n"
        "       lasca-tune features --positions FILE --out FILE\n"
        "       lasca-tune spsa --engine CMD --params FILE --iterations N\n"
        "                       (--nodes N | --movetime MS | --tc S+I) [--openings FILE]\n"
        "                       [--seed S] [--concurrency C] [--out FILE]\n"
        "       lasca-tune egtb --pieces N --out DIR [--jobs J]\n";
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::cout << usage;
        return args.empty() ? kExitUsage : 0;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    try {
        if (args[0] == "extract") return extractCommand(rest);
        if (args[0] == "fit") return fitCommand(rest);
        if (args[0] == "scale") return scaleCommand(rest);
        if (args[0] == "datagen") return datagenCommand(rest);
        if (args[0] == "features") return featuresCommand(rest);
        if (args[0] == "spsa") return spsaCommand(rest);
        if (args[0] == "egtb") return egtbCommand(rest);
    } catch (const po::error& e) {
        return fail(e.what(), kExitUsage);
    }
    std::cerr << usage;
    return kExitUsage;
}
