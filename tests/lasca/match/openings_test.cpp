// Openings: the file reader and the generator.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "lasca/match/openings.h"
#include "lasca/core/movegen.h"
#include "lasca/core/position.h"
#include "test_directory.h"

namespace lasca::match {
namespace {

TEST(Openings, ReaderSkipsCommentsAndBlankLines) {
    std::istringstream in("# header\n\n" + std::string(kStartLfen) + "  # the start\n");
    const auto o = readOpenings(in);
    ASSERT_TRUE(o.ok());
    ASSERT_EQ(o.value().size(), 1u);
    EXPECT_EQ(o.value()[0], kStartLfen);
}

TEST(Openings, ReaderNamesTheBadLine) {
    std::istringstream in(std::string(kStartLfen) + "\nnot an lfen\n");
    const auto o = readOpenings(in);
    ASSERT_FALSE(o.ok());
    EXPECT_NE(o.error().find("line 2"), std::string::npos);
}

// loadOpenings: the file reader of both lasca-match and lasca-tune spsa.
TEST(Openings, LoaderReadsAFileAndRefusesAMissingBadOrEmptyOne) {
    const auto dir = common::test::testDirectory();
    common::test::writeText(dir / "good.txt", "# two\n" + std::string(kStartLfen) + "\n" +
                                                  std::string(kStartLfen) + "\n");
    const auto good = loadOpenings((dir / "good.txt").string());
    ASSERT_TRUE(good.ok()) << good.error();
    EXPECT_EQ(good.value().size(), 2u);

    const auto missing = loadOpenings((dir / "none.txt").string());
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().find("cannot read openings file"), std::string::npos);

    common::test::writeText(dir / "bad.txt", std::string(kStartLfen) + "\nnot an lfen\n");
    const auto bad = loadOpenings((dir / "bad.txt").string());
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("bad.txt: line 2"), std::string::npos) << bad.error();

    common::test::writeText(dir / "empty.txt", "# nothing\n\n");
    const auto empty = loadOpenings((dir / "empty.txt").string());
    ASSERT_FALSE(empty.ok());
    EXPECT_NE(empty.error().find("no openings"), std::string::npos);
}

// Perft 4 is 54 paths; the generator keeps distinct positions only.
TEST(Openings, GeneratorGivesDistinctPlayablePositions) {
    OpeningsRequest r;
    r.plies = 4;
    const auto all = generateOpenings(r);
    EXPECT_GT(all.size(), 10u);
    EXPECT_LE(all.size(), 54u);
    EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size());
    for (const auto& lfen : all) EXPECT_TRUE(hasLegalMove(Position::fromLfen(lfen).value()));
}

TEST(Openings, SampleIsDeterministic) {
    OpeningsRequest r;
    r.plies = 6;
    r.count = 20;
    r.seed = 9;
    EXPECT_EQ(generateOpenings(r), generateOpenings(r));
    EXPECT_EQ(generateOpenings(r).size(), 20u);
}

TEST(Openings, ShippedFileIsValid) {
    std::ifstream in(LASCA_OPENINGS);
    const auto o = readOpenings(in);
    ASSERT_TRUE(o.ok()) << o.error();
    EXPECT_GE(o.value().size(), 100u);
    std::set<Key> keys;
    for (const auto& lfen : o.value()) {
        const Position pos = Position::fromLfen(lfen).value();
        EXPECT_TRUE(hasLegalMove(pos)) << lfen;
        keys.insert(pos.key());
    }
    EXPECT_EQ(keys.size(), o.value().size());
}

}  // namespace
}  // namespace lasca::match
