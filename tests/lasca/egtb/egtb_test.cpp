// The endgame tables (docs/egtb.md): the index, the solver against an independent brute force
// over the core's move generator, internal consistency, determinism, and the files.
#include <gtest/gtest.h>

#include <deque>
#include <fstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "lasca/core/movegen.h"
#include "lasca/egtb/egtb.h"
#include "test_directory.h"

namespace lasca::egtb {
namespace {

using common::test::testDirectory;

// Tables solved once per process: the tests read them, none changes them.
const Table& solved(int pieces) {
    static std::map<int, Table> cache;
    auto it = cache.find(pieces);
    if (it == cache.end()) {
        auto table = generate(pieces, 2);
        if (!table) throw std::runtime_error(table.error());
        it = cache.emplace(pieces, std::move(table).value()).first;
    }
    return it->second;
}

// Two-against-one tables solved once per process, from the one-column-a-side ones.
const Table& solvedTrio(int pieces) {
    static std::map<int, Table> cache;
    auto it = cache.find(pieces);
    if (it == cache.end()) {
        auto table = generateTrio(pieces, solved(pieces), 2);
        if (!table) throw std::runtime_error(table.error());
        it = cache.emplace(pieces, std::move(table).value()).first;
    }
    return it->second;
}

Tablebase tablebaseOf(int pieces, bool trio = false) {
    Tablebase tb;
    tb.add(solved(pieces));
    if (trio) tb.add(solvedTrio(pieces));
    return tb;
}

TEST(EgtbLayout, ContentIndexRoundTrips) {
    for (Color owner : {Color::White, Color::Black}) {
        for (int h = 1; h <= 6; ++h) {
            for (std::size_t i = 0; i < contentCount(h); ++i) {
                const ColumnContent c = contentAt(owner, h, i);
                ASSERT_EQ(contentIndex(c), i) << h << " " << i;
                EXPECT_EQ(colorOf(static_cast<Piece>(c.bits & 3)), owner);
            }
        }
    }
    // Three colour blocks (w over b over w) are no column of a game (R3, R5).
    const ColumnBits wbw = 0b00'01'00;
    EXPECT_FALSE(contentIndex({wbw, 3}));
    EXPECT_FALSE(contentIndex({0, 0}));
}

TEST(EgtbLayout, ClassesAndSlotsRoundTrip) {
    const Layout layout(5);
    // Heights (1,4) (2,3) (3,2) (4,1): 2*64 + 8*24 + 24*8 + 64*2 contents pairs.
    EXPECT_EQ(layout.classCount(), 128u + 192u + 192u + 128u);
    for (std::size_t c = 0; c < layout.classCount(); ++c)
        ASSERT_EQ(layout.classOf(layout.classAt(c)), c);
    std::size_t positions = 0;
    for (std::size_t slot = 0; slot < layout.slotCount(); ++slot) {
        const auto pos = layout.positionAt(slot);
        if (!pos) continue;
        ++positions;
        ASSERT_EQ(pos->validate(), "") << slot;
        ASSERT_EQ(layout.slotOf(*pos), slot);
    }
    EXPECT_EQ(positions, statsOf(solved(5)).positions);
    // Positions outside the set have no slot.
    EXPECT_FALSE(layout.slotOf(Position::startPosition()));
    EXPECT_FALSE(Layout(4).slotOf(*layout.positionAt(1)));
}

// ---- The independent brute force: every position of the set built from column strings, its
// moves from the core's generator, solved by a breadth-first retrograde over the move graph.

// Columns of one owner and height as LFEN-style strings ("Wbb"), at most two colour blocks.
std::vector<std::string> columnTexts(Color owner, int height) {
    const std::string own = owner == Color::White ? "wW" : "bB";
    const std::string other = owner == Color::White ? "bB" : "wW";
    std::vector<std::string> out;
    for (int block = 1; block <= height; ++block) {
        for (int pattern = 0; pattern < (1 << height); ++pattern) {
            std::string text;
            for (int i = 0; i < height; ++i)
                text += (i < block ? own : other)[static_cast<std::size_t>((pattern >> i) & 1)];
            out.push_back(text);
        }
    }
    return out;
}

ColumnBits bitsOf(const std::string& text) {
    ColumnBits bits = 0;
    for (std::size_t i = 0; i < text.size(); ++i)
        bits |= static_cast<ColumnBits>(*pieceFromChar(text[i])) << (2 * i);
    return bits;
}

struct BruteForce {
    std::vector<Position> positions;
    std::vector<int> plies;  // -1: draw
};

// Every position of one column a side and N pieces, and with `trio` also every position of two
// columns against one (either colour with the two): the union is closed.
BruteForce bruteForce(int pieces, bool trio = false) {
    BruteForce bf;
    std::unordered_map<Key, int> id;
    const auto keep = [&](const Position& pos) {
        if (!pos.validate().empty()) return;
        if (!id.emplace(pos.key(), static_cast<int>(bf.positions.size())).second)
            throw std::runtime_error("two positions share a key");
        bf.positions.push_back(pos);
    };
    for (Color pair : {Color::White, Color::Black}) {
        if (!trio) break;
        for (int low = 1; low <= pieces - 2; ++low)
            for (int high = 1; low + high < pieces; ++high)
                for (const std::string& l : columnTexts(pair, low))
                    for (const std::string& h : columnTexts(pair, high))
                        for (const std::string& o : columnTexts(~pair, pieces - low - high))
                            for (Square ls = 0; ls < kSquares; ++ls)
                                for (Square hs = static_cast<Square>(ls + 1); hs < kSquares; ++hs)
                                    for (Square os = 0; os < kSquares; ++os)
                                        for (Color side : {Color::White, Color::Black}) {
                                            if (os == ls || os == hs) continue;
                                            Position pos;
                                            pos.setColumn(ls, bitsOf(l), low);
                                            pos.setColumn(hs, bitsOf(h), high);
                                            pos.setColumn(os, bitsOf(o), pieces - low - high);
                                            pos.setSideToMove(side);
                                            keep(pos);
                                        }
    }
    for (int a = 1; a < pieces; ++a)
        for (const std::string& w : columnTexts(Color::White, a))
            for (const std::string& b : columnTexts(Color::Black, pieces - a))
                for (Square ws = 0; ws < kSquares; ++ws)
                    for (Square bs = 0; bs < kSquares; ++bs)
                        for (Color side : {Color::White, Color::Black}) {
                            if (ws == bs) continue;
                            Position pos;
                            pos.setColumn(ws, bitsOf(w), a);
                            pos.setColumn(bs, bitsOf(b), pieces - a);
                            pos.setSideToMove(side);
                            keep(pos);
                        }
    const std::size_t n = bf.positions.size();
    std::vector<std::vector<int>> predecessors(n);
    std::vector<int> movesLeft(n, 0);
    std::vector<int> winsByGameOver;
    for (std::size_t i = 0; i < n; ++i) {
        Position pos = bf.positions[i];
        MoveList list;
        generateMoves(pos, list);
        movesLeft[i] = static_cast<int>(list.size());
        bool gameOver = false;
        for (const Move& m : list) {
            Undo undo{};
            pos.make(m, undo);
            const auto it = id.find(pos.key());
            if (it != id.end()) {
                predecessors[static_cast<std::size_t>(it->second)].push_back(static_cast<int>(i));
            } else if (!hasLegalMove(pos)) {
                gameOver = true;  // the opponent has no column left
            } else {
                throw std::runtime_error("the set is not closed: " + pos.toLfen());
            }
            pos.unmake(m, undo);
        }
        if (gameOver) winsByGameOver.push_back(static_cast<int>(i));
    }
    bf.plies.assign(n, -1);
    std::deque<int> queue;
    for (std::size_t i = 0; i < n; ++i)
        if (movesLeft[i] == 0) {
            bf.plies[i] = 0;
            queue.push_back(static_cast<int>(i));
        }
    for (int i : winsByGameOver) {
        bf.plies[static_cast<std::size_t>(i)] = 1;
        queue.push_back(i);
    }
    while (!queue.empty()) {
        const int p = queue.front();
        queue.pop_front();
        const int d = bf.plies[static_cast<std::size_t>(p)];
        for (int q : predecessors[static_cast<std::size_t>(p)]) {
            auto& pq = bf.plies[static_cast<std::size_t>(q)];
            if (pq >= 0) continue;
            if (d % 2 == 0 || --movesLeft[static_cast<std::size_t>(q)] == 0) {
                pq = d + 1;
                queue.push_back(q);
            }
        }
    }
    return bf;
}

class EgtbBruteForce : public testing::TestWithParam<int> {};

// Checks every brute-force result against the tables; counts the draws.
void expectAgrees(const BruteForce& bf, const Tablebase& tb, std::size_t& draws) {
    for (std::size_t i = 0; i < bf.positions.size(); ++i) {
        const auto probe = tb.probe(bf.positions[i]);
        ASSERT_TRUE(probe) << bf.positions[i].toLfen();
        const int want = bf.plies[i];
        const Wdl wdl = want < 0 ? Wdl::Draw : want % 2 == 1 ? Wdl::Win : Wdl::Loss;
        ASSERT_EQ(probe->wdl, wdl) << bf.positions[i].toLfen();
        ASSERT_EQ(probe->plies, want < 0 ? 0 : want) << bf.positions[i].toLfen();
        draws += want < 0 ? 1 : 0;
    }
}

TEST_P(EgtbBruteForce, EveryPositionAgrees) {
    const int pieces = GetParam();
    const BruteForce bf = bruteForce(pieces);
    EXPECT_EQ(bf.positions.size(), statsOf(solved(pieces)).positions);
    std::size_t draws = 0;
    expectAgrees(bf, tablebaseOf(pieces), draws);
    EXPECT_EQ(draws, 0u);
}

INSTANTIATE_TEST_SUITE_P(Pieces, EgtbBruteForce, testing::Values(2, 3, 4, 5));

// Two columns against one, N = 3 and 4: the brute force over the union of both sets (the
// same algorithm as above, a different one from the generator's sweeps; both use the core's
// move generator here) agrees with the 1v1 and 2v1 tables on every position.
class EgtbTrioBruteForce : public testing::TestWithParam<int> {};

TEST_P(EgtbTrioBruteForce, EveryPositionAgrees) {
    const int pieces = GetParam();
    const BruteForce bf = bruteForce(pieces, true);
    EXPECT_EQ(bf.positions.size(),
              statsOf(solved(pieces)).positions + statsOf(solvedTrio(pieces)).positions);
    std::size_t draws = 0;
    expectAgrees(bf, tablebaseOf(pieces, true), draws);
    EXPECT_EQ(draws, statsOf(solvedTrio(pieces)).draws);
}

INSTANTIATE_TEST_SUITE_P(Pieces, EgtbTrioBruteForce, testing::Values(3, 4));

TEST(EgtbTrioLayout, ClassesAndSlotsRoundTrip) {
    const TrioLayout layout(4);
    for (std::size_t c = 0; c < layout.classCount(); ++c)
        ASSERT_EQ(layout.classOf(layout.classAt(c)), c);
    std::size_t positions = 0;
    for (std::size_t slot = 0; slot < layout.slotCount(); ++slot) {
        const auto pos = layout.positionAt(slot);
        ASSERT_EQ(pos.has_value(), layout.isPosition(slot)) << slot;
        if (!pos) continue;
        ++positions;
        ASSERT_EQ(pos->validate(), "") << slot;
        ASSERT_EQ(layout.slotOf(*pos), slot);
    }
    EXPECT_EQ(positions, statsOf(solvedTrio(4)).positions);
    EXPECT_FALSE(layout.slotOf(Position::startPosition()));
    const auto four = Position::fromLfen("-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/bw,-,b/W,-,-,- b");
    ASSERT_TRUE(four);
    EXPECT_TRUE(layout.slotOf(four.value()));
    EXPECT_FALSE(TrioLayout(3).slotOf(four.value()));
}

TEST(EgtbTrioGenerate, SameTableOnOneOrTwoThreadsAndBadArguments) {
    auto one = generateTrio(4, solved(4), 1);
    ASSERT_TRUE(one);
    EXPECT_EQ(one.value().values, solvedTrio(4).values);
    EXPECT_EQ(one.value().family, Family::TwoAgainstOne);
    EXPECT_FALSE(generateTrio(2, solved(2), 1));
    EXPECT_FALSE(generateTrio(kMaxTrioPieces + 1, solved(4), 1));
    EXPECT_FALSE(generateTrio(4, solved(3), 1));  // the 1v1 table of another count
}

// Every win has a move to a loss one ply shorter and none to a shorter loss; every loss moves
// only to wins, the longest one ply shorter; a draw has no move to a loss and one to a draw.
// Empty when the table's result for `pos` is consistent with its successors' results.
std::string inconsistency(const Tablebase& tb, Position pos) {
    const Probe p = *tb.probe(pos);
    MoveList list;
    generateMoves(pos, list);
    int bestLoss = 1000;  // shortest loss among the successors
    int longestWin = -1;
    bool draw = false;
    bool allWins = true;
    for (const Move& m : list) {
        Undo undo{};
        pos.make(m, undo);
        const auto q = tb.probe(pos);
        const Probe next = q ? *q : Probe{Wdl::Loss, 0};  // off the sets: the game is over
        if (!q && hasLegalMove(pos)) return "a successor outside the tables: " + pos.toLfen();
        pos.unmake(m, undo);
        if (next.wdl == Wdl::Loss) bestLoss = std::min(bestLoss, next.plies);
        if (next.wdl == Wdl::Win) longestWin = std::max(longestWin, next.plies);
        if (next.wdl == Wdl::Draw) draw = true;
        if (next.wdl != Wdl::Win) allWins = false;
    }
    const bool ok = p.wdl == Wdl::Win    ? bestLoss == p.plies - 1
                    : p.wdl == Wdl::Loss ? allWins && longestWin == p.plies - 1
                                         : bestLoss == 1000 && draw;
    return ok ? "" : "inconsistent: " + pos.toLfen();
}

TEST(EgtbConsistency, SixPiecesAreConsistent) {
    const int pieces = 6;
    const Layout layout(pieces);
    const Tablebase tb = tablebaseOf(pieces);
    for (std::size_t slot = 0; slot < layout.slotCount(); ++slot) {
        auto pos = layout.positionAt(slot);
        if (!pos) continue;
        ASSERT_EQ(inconsistency(tb, *pos), "");
    }
}

// Two columns against one, N = 5 (beyond the brute force): every 31st slot's position.
TEST(EgtbConsistency, TwoAgainstOneOfFivePiecesIsConsistent) {
    const int pieces = 5;
    const TrioLayout layout(pieces);
    const Tablebase tb = tablebaseOf(pieces, true);
    std::size_t checked = 0;
    for (std::size_t slot = 0; slot < layout.slotCount(); slot += 31) {
        auto pos = layout.positionAt(slot);
        if (!pos) continue;
        ++checked;
        ASSERT_EQ(inconsistency(tb, *pos), "");
    }
    EXPECT_GT(checked, 250000u);
}

// The counts the brute force above confirms, pinned: with one column a side nothing draws
// (under R1-R9, T1/T2 off), and the longest fight grows with the pieces.
TEST(EgtbGenerate, CountsOfTheSmallSets) {
    struct Want {
        int pieces;
        std::size_t positions, wins, losses;
        int longest;
    };
    for (const Want& w : {Want{2, 4064, 2016, 2048, 22}, Want{3, 32512, 16192, 16320, 26},
                          Want{4, 162560, 81024, 81536, 44}, Want{5, 650240, 324352, 325888, 48}}) {
        const TableStats s = statsOf(solved(w.pieces));
        EXPECT_EQ(s.positions, w.positions) << w.pieces;
        EXPECT_EQ(s.wins, w.wins) << w.pieces;
        EXPECT_EQ(s.draws, 0u) << w.pieces;
        EXPECT_EQ(s.losses, w.losses) << w.pieces;
        EXPECT_EQ(s.maxPlies, w.longest) << w.pieces;
    }
}

TEST(EgtbGenerate, SameTableOnOneOrTwoThreads) {
    auto one = generate(5, 1);
    ASSERT_TRUE(one);
    EXPECT_EQ(one.value().values, solved(5).values);
}

TEST(EgtbGenerate, RefusesPieceCountsOutOfRange) {
    EXPECT_FALSE(generate(1, 1));
    EXPECT_FALSE(generate(kMaxPieces + 1, 1));
}

TEST(EgtbGenerate, KnownPositions) {
    const Tablebase tb = tablebaseOf(2);
    // A white soldier on c3 against a black soldier on d4, White to move: c3xe5 takes the last
    // black piece (R5, R9).
    auto pos = Position::fromLfen("-,-,-,-/-,-,-/-,-,-,-/-,b,-/-,w,-,-/-,-,-/-,-,-,- w");
    ASSERT_TRUE(pos) << pos.error();
    EXPECT_EQ(tb.probe(pos.value())->wdl, Wdl::Win);
    EXPECT_EQ(tb.probeDistance(pos.value()), 1);
    // Black to move there: d4xb2 takes the white soldier.
    pos.value().setSideToMove(Color::Black);
    EXPECT_EQ(tb.probeWdl(pos.value()), Wdl::Win);
    // Not a table position: the start.
    EXPECT_FALSE(tb.probe(Position::startPosition()));
}

// The result in words (what `go`, `lasca analyse` and the page show) and when T2 lets it hold.
TEST(EgtbProbe, VerdictInWordsAndUnderT2) {
    EXPECT_EQ(verdictText({Wdl::Win, 5}, Color::White), "White wins in 5 plies");
    EXPECT_EQ(verdictText({Wdl::Win, 1}, Color::Black), "Black wins in 1 ply");
    EXPECT_EQ(verdictText({Wdl::Loss, 4}, Color::White), "Black wins in 4 plies");
    EXPECT_EQ(verdictText({Wdl::Loss, 0}, Color::Black), "White wins in 0 plies");
    EXPECT_EQ(verdictText({}, Color::Black), "draw");
    const DrawRules tournament;
    EXPECT_TRUE(resultHolds({Wdl::Win, 5}, 95, tournament));
    EXPECT_FALSE(resultHolds({Wdl::Win, 5}, 96, tournament));
    EXPECT_TRUE(resultHolds({Wdl::Win, 5}, 96, DrawRules{true, false}));
    // probeUnder reads the position's own counter.
    const Tablebase tb = tablebaseOf(2);
    auto pos = Position::fromLfen("-,-,-,-/-,-,-/-,-,-,-/-,b,-/-,w,-,-/-,-,-/-,-,-,- w");
    ASSERT_TRUE(pos) << pos.error();
    EXPECT_EQ(tb.probeUnder(pos.value(), tournament)->plies, 1);
    auto late = Position::fromLfen("-,-,-,-/-,-,-/-,-,-,-/-,b,-/-,w,-,-/-,-,-/-,-,-,- w 100 60");
    ASSERT_TRUE(late) << late.error();
    EXPECT_FALSE(tb.probeUnder(late.value(), tournament));
    EXPECT_TRUE(tb.probeUnder(late.value(), DrawRules{true, false}));
}

// ---- Files.

TEST(EgtbFile, RoundTrips) {
    const auto path = testDirectory() / tableFileName(4);
    const auto written = writeTable(path, solved(4));
    ASSERT_TRUE(written) << written.error();
    EXPECT_EQ(written.value(), std::filesystem::file_size(path));
    const auto read = readTable(path);
    ASSERT_TRUE(read) << read.error();
    EXPECT_EQ(read.value().pieces, 4);
    EXPECT_EQ(read.value().values, solved(4).values);
    const auto tb = Tablebase::open(testDirectory());
    ASSERT_TRUE(tb) << tb.error();
    EXPECT_EQ(tb.value().pieceCounts(), std::vector<int>{4});
}

// The in-memory form (what tests/lasca/fuzz/datafile_fuzz.cpp reads): tableBytes is the file's
// bytes, parseTable reads them back with readTable's checks, its errors starting with the name.
TEST(EgtbFile, BytesRoundTripInMemory) {
    const auto bytes = tableBytes(solvedTrio(4));
    ASSERT_TRUE(bytes) << bytes.error();
    const auto read = parseTable(bytes.value(), "memory");
    ASSERT_TRUE(read) << read.error();
    EXPECT_EQ(read.value().family, Family::TwoAgainstOne);
    EXPECT_EQ(read.value().values, solvedTrio(4).values);
    EXPECT_EQ(tableBytes(read.value()).value(), bytes.value());
    const auto path = testDirectory() / tableFileName(4, Family::TwoAgainstOne);
    ASSERT_TRUE(writeTable(path, solvedTrio(4)));
    EXPECT_EQ(std::filesystem::file_size(path), bytes.value().size());
    auto truncated = bytes.value();
    truncated.resize(truncated.size() / 2);
    const auto bad = parseTable(truncated, "memory");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().rfind("memory: truncated", 0), 0u) << bad.error();
    Table wrongSize = solved(3);
    wrongSize.values.pop_back();
    EXPECT_FALSE(tableBytes(wrongSize));
}

std::vector<char> fileBytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const std::filesystem::path& path, const std::vector<char>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A two-against-one file: round trip, the folder opens with both families and probes both; a
// corrupted byte or a class index of the other family is refused.
TEST(EgtbFile, TwoAgainstOneRoundTripsAndIsChecked) {
    const auto dir = testDirectory();
    const auto path = dir / tableFileName(4, Family::TwoAgainstOne);
    EXPECT_EQ(path.filename(), "lasca-2v1-4.egtb");
    ASSERT_TRUE(writeTable(dir / tableFileName(4), solved(4)));
    const auto written = writeTable(path, solvedTrio(4));
    ASSERT_TRUE(written) << written.error();
    EXPECT_EQ(written.value(), std::filesystem::file_size(path));
    const auto read = readTable(path);
    ASSERT_TRUE(read) << read.error();
    EXPECT_EQ(read.value().family, Family::TwoAgainstOne);
    EXPECT_EQ(read.value().values, solvedTrio(4).values);
    const auto tb = Tablebase::open(dir);
    ASSERT_TRUE(tb) << tb.error();
    EXPECT_EQ(tb.value().pieceCounts(), std::vector<int>{4});
    EXPECT_EQ(tb.value().pieceCounts(Family::TwoAgainstOne), std::vector<int>{4});
    // Black's two columns (b2 over a white prisoner, c2) against White's officer on a1.
    const auto pos = Position::fromLfen("-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/bw,-,b/W,-,-,- b");
    ASSERT_TRUE(pos);
    const auto probe = tb.value().probe(pos.value());
    ASSERT_TRUE(probe);
    const Probe want = decodeValue(solvedTrio(4).values[*TrioLayout(4).slotOf(pos.value())]);
    EXPECT_EQ(probe->wdl, want.wdl);
    EXPECT_EQ(probe->plies, want.plies);
    auto bytes = fileBytes(path);
    bytes[bytes.size() - 100] ^= 1;
    writeBytes(path, bytes);
    const auto corrupted = Tablebase::open(dir);
    ASSERT_FALSE(corrupted);
    EXPECT_NE(corrupted.error().find("checksum mismatch"), std::string::npos) << corrupted.error();
    // A good 1v1 table under a 2v1 file name is refused too.
    std::filesystem::copy_file(dir / tableFileName(4), path,
                               std::filesystem::copy_options::overwrite_existing);
    const auto misnamed = Tablebase::open(dir);
    ASSERT_FALSE(misnamed);
    EXPECT_NE(misnamed.error().find("not the table its name says"), std::string::npos)
        << misnamed.error();
}

TEST(EgtbFile, MissingFileIsAnError) {
    const auto read = readTable(testDirectory() / "nothing.egtb");
    ASSERT_FALSE(read);
    EXPECT_NE(read.error().find("cannot open"), std::string::npos) << read.error();
    const auto tb = Tablebase::open(testDirectory() / "no-such-folder");
    ASSERT_FALSE(tb);
    EXPECT_NE(tb.error().find("not a folder"), std::string::npos) << tb.error();
}

TEST(EgtbFile, TruncatedFileIsAnError) {
    const auto path = testDirectory() / tableFileName(3);
    ASSERT_TRUE(writeTable(path, solved(3)));
    auto bytes = fileBytes(path);
    for (std::size_t keep : {std::size_t{0}, std::size_t{20}, bytes.size() / 2, bytes.size() - 1}) {
        writeBytes(path, std::vector<char>(bytes.begin(),
                                           bytes.begin() + static_cast<std::ptrdiff_t>(keep)));
        const auto read = readTable(path);
        ASSERT_FALSE(read) << keep;
        EXPECT_NE(read.error().find("truncated"), std::string::npos) << read.error();
    }
    // A truncated table in a folder: the folder is refused, naming the file.
    const auto tb = Tablebase::open(testDirectory());
    ASSERT_FALSE(tb);
    EXPECT_NE(tb.error().find(tableFileName(3)), std::string::npos) << tb.error();
}

TEST(EgtbFile, CorruptedPayloadFailsTheChecksum) {
    const auto path = testDirectory() / tableFileName(3);
    ASSERT_TRUE(writeTable(path, solved(3)));
    const auto bytes = fileBytes(path);
    // Flip a bit in the payload, in the class index, and in the checksum itself.
    for (std::size_t at : {bytes.size() - 100, std::size_t{50}, bytes.size() - 3}) {
        auto bad = bytes;
        bad[at] = static_cast<char>(bad[at] ^ 4);
        writeBytes(path, bad);
        const auto read = readTable(path);
        ASSERT_FALSE(read) << at;
        EXPECT_NE(read.error().find("checksum"), std::string::npos) << read.error();
    }
}

TEST(EgtbFile, BadHeaderIsAnError) {
    const auto path = testDirectory() / tableFileName(3);
    ASSERT_TRUE(writeTable(path, solved(3)));
    const auto bytes = fileBytes(path);
    auto bad = bytes;
    bad[0] = 'X';
    writeBytes(path, bad);
    EXPECT_NE(readTable(path).error().find("bad magic"), std::string::npos);
    bad = bytes;
    bad[8] = 9;  // version
    writeBytes(path, bad);
    EXPECT_NE(readTable(path).error().find("version"), std::string::npos);
    bad = bytes;
    bad[12] = 40;  // pieces
    writeBytes(path, bad);
    EXPECT_NE(readTable(path).error().find("out of range"), std::string::npos);
    bad = bytes;
    bad[12] = 4;  // another piece count: the counts of the header do not match
    writeBytes(path, bad);
    EXPECT_NE(readTable(path).error().find("do not match"), std::string::npos);
}

}  // namespace
}  // namespace lasca::egtb
