#include "lasca/analysis/diagram.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "common/text.h"

namespace lasca::analysis {

namespace {

// Colours of the drawings.
constexpr const char* kLightSquare = "#f0dcb4";
constexpr const char* kDarkSquare = "#a77c55";
constexpr const char* kFrame = "#5b3f28";
constexpr const char* kCoordinate = "#555555";
constexpr const char* kHighlight = "#f3d23c";
constexpr const char* kMoveLine = "#c8401a";
constexpr const char* kGold = "#d9a521";
constexpr const char* kHeightLabel = "#5b3f28";

// PieceColours: how one colour's discs are painted.
struct PieceColours {
    const char* top;
    const char* side;
    const char* edge;
};
constexpr PieceColours kWhitePiece{"#fbf7ee", "#e2dac8", "#4a4a4a"};
constexpr PieceColours kBlackPiece{"#454545", "#262626", "#000000"};

// A coordinate with at most one decimal, "12" rather than "12.0".
std::string num(double value) {
    const long tenths = std::lround(value * 10);
    std::string text = std::to_string(tenths / 10);
    if (tenths < 0 && tenths > -10) text = "-0";
    if (tenths % 10 != 0) text += "." + std::to_string(std::labs(tenths % 10));
    return text;
}

using common::xmlEscape;

// SvgWriter: appends elements to an SVG document; every element is closed where it is written.
class SvgWriter {
  public:
    SvgWriter(double width, double height, const std::string& title) {
        out_ << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\""
             << num(height) << "\" viewBox=\"0 0 " << num(width) << " " << num(height)
             << "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n"
             << "<title>" << xmlEscape(title) << "</title>\n";
    }
    void rect(double x, double y, double w, double h, const std::string& style) {
        out_ << "<rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"" << num(w)
             << "\" height=\"" << num(h) << "\" " << style << "/>\n";
    }
    void ellipse(double cx, double cy, double rx, double ry, const std::string& style) {
        out_ << "<ellipse cx=\"" << num(cx) << "\" cy=\"" << num(cy) << "\" rx=\"" << num(rx)
             << "\" ry=\"" << num(ry) << "\" " << style << "/>\n";
    }
    void circle(double cx, double cy, double r, const std::string& style) {
        out_ << "<circle cx=\"" << num(cx) << "\" cy=\"" << num(cy) << "\" r=\"" << num(r) << "\" "
             << style << "/>\n";
    }
    void path(const std::string& d, const std::string& style) {
        out_ << "<path d=\"" << d << "\" " << style << "/>\n";
    }
    void line(double x1, double y1, double x2, double y2, const std::string& style) {
        out_ << "<line x1=\"" << num(x1) << "\" y1=\"" << num(y1) << "\" x2=\"" << num(x2)
             << "\" y2=\"" << num(y2) << "\" " << style << "/>\n";
    }
    void text(double x, double y, const std::string& content, const std::string& style) {
        out_ << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" " << style << ">"
             << xmlEscape(content) << "</text>\n";
    }
    std::string finish() {
        out_ << "</svg>\n";
        return out_.str();
    }

  private:
    std::ostringstream out_;
};

std::string fill(const std::string& colour) {
    return "fill=\"" + colour + "\"";
}

std::string fillStroke(const std::string& colour, const std::string& stroke, double width) {
    return "fill=\"" + colour + "\" stroke=\"" + stroke + "\" stroke-width=\"" + num(width) + "\"";
}

// BoardLayout: where the board sits in the drawing, and where each square is.
struct BoardLayout {
    double size;   // of a square
    double left;   // x of the board's left edge
    double top;    // y of the board's top edge
    bool flipped;  // Black's side at the bottom

    double squareX(int file) const { return left + size * (flipped ? 6 - file : file); }
    double squareY(int rank) const { return top + size * (flipped ? rank : 6 - rank); }
    double centreX(Square s) const { return squareX(fileOf(s)) + size / 2; }
    double centreY(Square s) const { return squareY(rankOf(s)) + size / 2; }
    double boardSize() const { return 7 * size; }
};

void drawSquares(SvgWriter& svg, const BoardLayout& b) {
    svg.rect(b.left, b.top, b.boardSize(), b.boardSize(), fill(kDarkSquare));
    for (int rank = 0; rank < kRanks; ++rank)
        for (int file = 0; file < kFiles; ++file)
            if (isPlayable(file, rank))
                svg.rect(b.squareX(file), b.squareY(rank), b.size, b.size, fill(kLightSquare));
    svg.rect(b.left, b.top, b.boardSize(), b.boardSize(),
             "fill=\"none\" stroke=\"" + std::string(kFrame) + "\" stroke-width=\"2\"");
}

void drawCoordinates(SvgWriter& svg, const BoardLayout& b) {
    const std::string style = "font-size=\"" + num(std::max(10.0, b.size * 0.2)) + "\" fill=\"" +
                              kCoordinate + "\" text-anchor=\"middle\"";
    for (int file = 0; file < kFiles; ++file)
        svg.text(b.squareX(file) + b.size / 2, b.top + b.boardSize() + b.size * 0.3,
                 std::string(1, static_cast<char>('a' + file)), style);
    for (int rank = 0; rank < kRanks; ++rank)
        svg.text(b.left - b.size * 0.2, b.squareY(rank) + b.size * 0.58,
                 std::string(1, static_cast<char>('1' + rank)), style);
}

void drawLastMove(SvgWriter& svg, const BoardLayout& b, const std::vector<Square>& squares) {
    if (squares.empty()) return;
    for (Square s : squares)
        svg.rect(b.squareX(fileOf(s)), b.squareY(rankOf(s)), b.size, b.size,
                 fill(kHighlight) + " fill-opacity=\"0.45\"");
}

// The line of the last move, drawn over the pieces so that it stays visible.
void drawMoveLine(SvgWriter& svg, const BoardLayout& b, const std::vector<Square>& squares) {
    if (squares.size() < 2) return;
    std::string d;
    for (std::size_t i = 0; i < squares.size(); ++i)
        d += std::string(i == 0 ? "M" : " L") + num(b.centreX(squares[i])) + "," +
             num(b.centreY(squares[i]));
    const std::string width = num(std::max(2.0, b.size * 0.05));
    svg.path(d, "fill=\"none\" stroke=\"" + std::string(kMoveLine) + "\" stroke-width=\"" + width +
                    "\" stroke-linecap=\"round\" stroke-linejoin=\"round\" stroke-opacity=\"0.8\"");
    svg.circle(b.centreX(squares.front()), b.centreY(squares.front()), b.size * 0.07,
               fill(kMoveLine) + " fill-opacity=\"0.8\"");
    svg.circle(b.centreX(squares.back()), b.centreY(squares.back()), b.size * 0.12,
               "fill=\"none\" stroke=\"" + std::string(kMoveLine) + "\" stroke-width=\"" + width +
                   "\" stroke-opacity=\"0.8\"");
}

// DiscShape: the size of the discs of one column.
//   rx, ry      the ellipse of a disc's face
//   thickness   of one disc; smaller for taller columns so that the column fits its square
//   base        y of the centre of the bottom disc's lower face
struct DiscShape {
    double cx, rx, ry, thickness, base;
};

DiscShape discShape(const BoardLayout& b, Square s, int height) {
    const double size = b.size;
    DiscShape d{};
    d.cx = b.centreX(s);
    d.rx = 0.36 * size;
    d.ry = 0.14 * size;
    d.thickness = std::min(0.13 * size, 0.56 * size / height);
    d.base = b.squareY(rankOf(s)) + 0.80 * size;
    return d;
}

// One disc, `level` discs above the bottom: its side (with a gold band for an officer) and
// its top face (covered by the disc above, if any).
void drawDisc(SvgWriter& svg, const DiscShape& d, int level, Piece piece, bool commander) {
    const PieceColours& c = colorOf(piece) == Color::White ? kWhitePiece : kBlackPiece;
    const double lower = d.base - level * d.thickness;
    const double upper = lower - d.thickness;
    const double edge = std::max(0.6, d.rx * 0.04);
    const std::string left = num(d.cx - d.rx), right = num(d.cx + d.rx);
    const std::string arc = " A" + num(d.rx) + "," + num(d.ry) + " 0 0 0 ";
    svg.path("M" + left + "," + num(upper) + " L" + left + "," + num(lower) + arc + right + "," +
                 num(lower) + " L" + right + "," + num(upper) + " Z",
             fillStroke(c.side, c.edge, edge));
    if (isOfficer(piece)) {
        const double middle = (upper + lower) / 2;
        svg.path("M" + left + "," + num(middle) + arc + right + "," + num(middle),
                 "fill=\"none\" stroke=\"" + std::string(kGold) + "\" stroke-width=\"" +
                     num(std::max(1.0, d.thickness * 0.4)) + "\"");
    }
    svg.ellipse(d.cx, upper, d.rx, d.ry, fillStroke(c.top, c.edge, edge));
    if (commander && isOfficer(piece))
        svg.ellipse(d.cx, upper, d.rx * 0.58, d.ry * 0.58,
                    "fill=\"none\" stroke=\"" + std::string(kGold) + "\" stroke-width=\"" +
                        num(std::max(1.5, d.ry * 0.3)) + "\"");
}

void drawColumn(SvgWriter& svg, const BoardLayout& b, const Position& pos, Square s) {
    const int height = pos.height(s);
    const DiscShape d = discShape(b, s, height);
    for (int level = 0; level < height; ++level) {
        const int depthFromTop = height - 1 - level;
        drawDisc(svg, d, level, pos.pieceAt(s, depthFromTop), depthFromTop == 0);
    }
    if (height < 2) return;
    // The height in a badge in the square's top right corner, over the column if need be.
    const double bx = b.squareX(fileOf(s)) + b.size * 0.87;
    const double by = b.squareY(rankOf(s)) + b.size * 0.13;
    const double font = b.size * (height >= 10 ? 0.13 : 0.15);
    svg.circle(bx, by, b.size * 0.115, fillStroke("#fffaf0", kHeightLabel, 1));
    svg.text(bx, by + font * 0.36, std::to_string(height),
             "font-size=\"" + num(font) + "\" font-weight=\"bold\" fill=\"" + kHeightLabel +
                 "\" text-anchor=\"middle\"");
}

void drawCaption(SvgWriter& svg, const BoardLayout& b, Color side, double y) {
    const PieceColours& c = side == Color::White ? kWhitePiece : kBlackPiece;
    const double r = std::max(5.0, b.size * 0.1);
    svg.circle(b.left + r, y - r * 0.8, r, fillStroke(c.top, c.edge, 1));
    svg.text(b.left + 2.6 * r, y, side == Color::White ? "White to move" : "Black to move",
             "font-size=\"" + num(std::max(11.0, b.size * 0.22)) + "\" fill=\"#333333\"");
}

// Graph colours of the marks, by lasca::analysis::Mark.
constexpr const char* kMarkColour[] = {"none", "#e6c229", "#e68a00", "#d62728"};

}  // namespace

std::string diagramSvg(const Position& pos, const DiagramOptions& options) {
    const double size = std::max(24, options.squareSize);
    const double margin = options.coordinates ? size * 0.45 : size * 0.1;
    BoardLayout b{size, margin, size * 0.1, options.flip};
    const double captionHeight = options.caption ? size * 0.5 : 0;
    const double width = b.left + b.boardSize() + size * 0.1;
    const double height = b.top + b.boardSize() + margin + captionHeight;
    SvgWriter svg(width, height, "Lasca position " + pos.toLfen());
    drawSquares(svg, b);
    drawLastMove(svg, b, options.lastMove);
    if (options.coordinates) drawCoordinates(svg, b);
    for (Square s = 0; s < kSquares; ++s)
        if (pos.height(s) > 0) drawColumn(svg, b, pos, s);
    drawMoveLine(svg, b, options.lastMove);
    if (options.caption) drawCaption(svg, b, pos.sideToMove(), height - size * 0.15);
    return svg.finish();
}

std::string chanceGraphSvg(const std::vector<ChancePoint>& points, const GraphOptions& options) {
    const double width = std::max(160, options.width), height = std::max(100, options.height);
    const double left = 44, right = 12, top = 30, bottom = 26;
    const double plotW = width - left - right, plotH = height - top - bottom;
    const std::size_t n = points.size();
    const auto x = [&](std::size_t i) {
        return left + plotW * (n > 1 ? static_cast<double>(i) / static_cast<double>(n - 1) : 0.5);
    };
    const auto y = [&](double chance) { return top + plotH * (1 - std::clamp(chance, 0.0, 1.0)); };
    SvgWriter svg(width, height, options.title.empty() ? "Evaluation graph" : options.title);
    svg.rect(0, 0, width, height, fill("#ffffff"));
    svg.text(left, 19, options.title, "font-size=\"13\" fill=\"#222222\"");
    svg.rect(left, top, plotW, plotH, fill("#3a3a3a"));
    if (n > 0) {
        std::string curve;
        for (std::size_t i = 0; i < n; ++i)
            curve +=
                std::string(i == 0 ? "M" : " L") + num(x(i)) + "," + num(y(points[i].whiteChance));
        svg.path(curve + " L" + num(x(n - 1)) + "," + num(top + plotH) + " L" + num(x(0)) + "," +
                     num(top + plotH) + " Z",
                 fill("#f2f2f2"));
        svg.path(curve, "fill=\"none\" stroke=\"#c08a2b\" stroke-width=\"1.5\"");
    }
    svg.line(left, y(0.5), left + plotW, y(0.5),
             "stroke=\"#888888\" stroke-width=\"1\" stroke-dasharray=\"4,3\"");
    const std::string axis = "font-size=\"10\" fill=\"#555555\" text-anchor=\"end\"";
    svg.text(left - 4, y(1.0) + 4, "100%", axis);
    svg.text(left - 4, y(0.5) + 4, "50%", axis);
    svg.text(left - 4, y(0.0) + 4, "0%", axis);
    for (std::size_t ply = 10; n > 1 && ply < n; ply += 10)
        svg.text(x(ply), top + plotH + 15, std::to_string(ply),
                 "font-size=\"10\" fill=\"#555555\" text-anchor=\"middle\"");
    svg.text(left, top + plotH + 15, "ply", "font-size=\"10\" fill=\"#555555\"");
    for (std::size_t i = 0; i < n; ++i) {
        const int mark = std::clamp(points[i].mark, 0, 3);
        if (mark > 0)
            svg.circle(x(i), y(points[i].whiteChance), 4,
                       fillStroke(kMarkColour[mark], "#ffffff", 1));
    }
    const char* glyphs[] = {"", "?!", "?", "??"};
    for (int mark = 1; mark <= 3; ++mark)
        svg.text(width - right - 70 + 24 * (mark - 1), 19, glyphs[mark],
                 "font-size=\"12\" font-weight=\"bold\" fill=\"" + std::string(kMarkColour[mark]) +
                     "\"");
    return svg.finish();
}

}  // namespace lasca::analysis
