// lasca diagram: one position drawn as SVG.
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "command_line.h"
#include "lasca/analysis/commands.h"
#include "lasca/analysis/diagram.h"
#include "lasca/core/notation.h"

namespace lasca::analysis {

int runDiagram(int argc, char** argv) {
    startLogging();
    // Short options are off (an LFEN may start with '-'), but -h still asks for help.
    static char help[] = "--help";
    std::vector<char*> args(argv, argv + argc);
    for (char*& arg : args)
        if (std::string_view(arg) == "-h") arg = help;
    return common::runCommandLine<po::error>("lasca", [&] {
        po::options_description o("lasca diagram options");
        o.add_options()("help,h", "this help")                                                    //
            ("flip", po::bool_switch(), "Black's side at the bottom")                             //
            ("last", textValue("MOVE"), "highlight this move (c3-d4, d2xb4xd6)")                  //
            ("size", textValue("PX"), "pixels per square, 24..512 (default 64)")                  //
            ("no-coordinates", po::bool_switch(), "leave out the file letters and rank numbers")  //
            ("no-caption", po::bool_switch(), "leave out the side to move under the board");
        po::options_description all;
        all.add(o).add_options()("lfen", po::value<std::vector<std::string>>(), "LFEN");
        po::positional_options_description positional;
        positional.add("lfen", -1);
        const po::variables_map vm = parseCommandLine(argc, args.data(), all, positional, false);
        if (vm.count("help")) {
            std::cout << "usage: lasca diagram LFEN [options] > position.svg\n\n" << o << "\n";
            return 0;
        }
        if (!vm.count("lfen")) throw UsageError{"give a position (LFEN)"};
        std::string lfen;
        for (const auto& token : vm["lfen"].as<std::vector<std::string>>())
            lfen += std::string(lfen.empty() ? "" : " ") + token;
        auto pos = Position::fromLfen(lfen);
        if (!pos) throw UsageError{"LFEN: " + pos.error()};
        DiagramOptions options;
        options.flip = vm["flip"].as<bool>();
        options.squareSize = intOption(vm, "size", 24, 512, options.squareSize);
        options.coordinates = !vm["no-coordinates"].as<bool>();
        options.caption = !vm["no-caption"].as<bool>();
        if (vm.count("last")) {
            auto squares = moveSquares(vm["last"].as<std::string>());
            if (!squares) throw UsageError{"--last: " + squares.error()};
            options.lastMove = squares.value();
        }
        std::cout << diagramSvg(pos.value(), options) << std::flush;
        return 0;
    });
}

}  // namespace lasca::analysis
