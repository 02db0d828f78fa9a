// SVG drawings (docs/analysis.md): the board diagram shows every piece of every
// column, officers marked, inside its square; flipping and the last move; the evaluation graph;
// and `lasca diagram` through the binary. Well-formedness is checked by an XML parser in the
// ctest analysis.svg_well_formed (tests/lasca/analysis/svg_check.py), which also keeps Chromium
// screenshots.
#include "lasca/analysis/diagram.h"

#include <gtest/gtest.h>

#include <regex>

#include "lasca/analysis/analysis_cli_util.h"
#include "lasca/core/notation.h"

namespace lasca::analysis {
namespace {

using test::lines;
using test::runLasca;

Position lfen(const std::string& text) {
    auto pos = Position::fromLfen(text);
    EXPECT_TRUE(pos.ok()) << pos.error();
    return pos.ok() ? pos.value() : Position{};
}

int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// Every <ellipse>: its centre and radii.
struct Ellipse {
    double cx, cy, rx, ry;
};
std::vector<Ellipse> ellipses(const std::string& svg) {
    static const std::regex re(
        "<ellipse cx=\"([-0-9.]+)\" cy=\"([-0-9.]+)\" rx=\"([-0-9.]+)\" ry=\"([-0-9.]+)\"");
    std::vector<Ellipse> out;
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator();
         ++it)
        out.push_back(
            {std::stod((*it)[1]), std::stod((*it)[2]), std::stod((*it)[3]), std::stod((*it)[4])});
    return out;
}

constexpr const char* kGold = "#d9a521";

// One top face per piece: 22 single-piece columns at the start, no officer, no height badge.
TEST(Diagram, StartPositionShowsEveryPiece) {
    const std::string svg = diagramSvg(Position::startPosition());
    EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
    EXPECT_EQ(count(svg, "<ellipse"), 22);
    EXPECT_EQ(count(svg, kGold), 0);
    EXPECT_NE(svg.find(">White to move</text>"), std::string::npos);
    EXPECT_NE(svg.find("<title>Lasca position " + std::string(kStartLfen) + "</title>"),
              std::string::npos);
}

// R3: an officer commanding is marked by a gold band on its side and a ring on its top.
TEST(Diagram, OfficersAreMarked) {
    const std::string svg = diagramSvg(lfen("-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- b"));
    EXPECT_EQ(count(svg, "<ellipse"), 2);  // the top face and the gold ring
    EXPECT_EQ(count(svg, kGold), 2);       // the band and the ring
    EXPECT_NE(svg.find(">Black to move</text>"), std::string::npos);
}

// The tallest column possible (22 pieces) still fits its square, every disc drawn, with its
// height in a badge.
TEST(Diagram, TallColumnsFitTheirSquare) {
    const std::string column = "W" + std::string(10, 'w') + "B" + std::string(10, 'b');
    DiagramOptions options;
    options.coordinates = false;
    options.caption = false;
    const std::string svg = diagramSvg(
        lfen("-,-,-,-/-,-,-/-,-,-,-/-," + column + ",-/-,-,-,-/-,-,-/-,-,-,- w"), options);
    const auto faces = ellipses(svg);
    ASSERT_EQ(faces.size(), 22u + 1u);  // 22 top faces and the commander's gold ring
    const double size = options.squareSize, top = size * 0.1 + 3 * size;  // d4 is row 3 from top
    for (const Ellipse& e : faces) {
        EXPECT_GE(e.cy - e.ry, top) << e.cy;
        EXPECT_LE(e.cy + e.ry, top + size) << e.cy;
    }
    EXPECT_EQ(count(svg, kGold), 3);  // the commander's band and ring, the black officer's band
    EXPECT_NE(svg.find(">22</text>"), std::string::npos);
}

TEST(Diagram, FlipMirrorsTheBoard) {
    const Position pos = lfen("-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/w,-,-,- w");
    DiagramOptions options;
    const auto normal = ellipses(diagramSvg(pos, options));
    options.flip = true;
    const auto flipped = ellipses(diagramSvg(pos, options));
    ASSERT_EQ(normal.size(), 1u);
    ASSERT_EQ(flipped.size(), 1u);
    const double size = options.squareSize, left = size * 0.45;
    EXPECT_NEAR(normal[0].cx, left + 0.5 * size, 0.05);   // a1 on the left ...
    EXPECT_NEAR(flipped[0].cx, left + 6.5 * size, 0.05);  // ... and on the right
    EXPECT_GT(normal[0].cy, flipped[0].cy);               // at the bottom, then at the top
}

TEST(Diagram, LastMoveIsTintedAndDrawn) {
    DiagramOptions options;
    options.lastMove = moveSquares("d2xb4xd6").value();
    const std::string svg = diagramSvg(Position::startPosition(), options);
    EXPECT_EQ(count(svg, "fill=\"#f3d23c\""), 3);
    EXPECT_NE(svg.find("<path d=\"M"), std::string::npos);
    EXPECT_EQ(diagramSvg(Position::startPosition()).find("#f3d23c"), std::string::npos);
}

TEST(ChanceGraph, DotsTheMarkedMovesAndEscapesTheTitle) {
    const std::vector<ChancePoint> points = {{0.5, 0}, {0.55, 0}, {0.3, 3}, {0.35, 1}, {0.9, 2}};
    const std::string svg = chanceGraphSvg(points, {"A & B <test>"});
    EXPECT_EQ(count(svg, "<circle"), 3);
    EXPECT_NE(svg.find("A &amp; B &lt;test&gt;"), std::string::npos);
    EXPECT_EQ(svg.find("A & B"), std::string::npos);
    EXPECT_NE(chanceGraphSvg({}).find("</svg>"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// lasca diagram

TEST(DiagramCommand, WritesTheSvgOnStdout) {
    // The LFEN may be given in pieces, and its board may start with '-'.
    const auto run = runLasca(
        "diagram -,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- b --flip --last b2-a1 "
        "--size 40");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    DiagramOptions options;
    options.flip = true;
    options.lastMove = moveSquares("b2-a1").value();
    options.squareSize = 40;
    EXPECT_EQ(run.out,
              diagramSvg(lfen("-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- b"), options));
    EXPECT_EQ(run.err, "");
}

TEST(DiagramCommand, BadValuesGiveOneMessageAndExitCode2) {
    for (const std::string& args : std::vector<std::string>{
             "", "b,b,b/b w", std::string(kStartLfen) + " --last c3",
             std::string(kStartLfen) + " --size 10", std::string(kStartLfen) + " --frobnicate"}) {
        const auto run = runLasca("diagram " + args);
        EXPECT_EQ(run.exitCode, 2) << args << "\n" << run.err;
        EXPECT_EQ(lines(run.err).size(), 1u) << args << "\n" << run.err;
        EXPECT_EQ(run.out, "") << args;
    }
    EXPECT_EQ(runLasca("diagram -h").exitCode, 0);
}

}  // namespace
}  // namespace lasca::analysis
