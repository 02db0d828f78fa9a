// The shared scratch directory of the tests (test_directory.h): one per process and test, the
// same folder for every call within a test, removed with its contents at the test's end.
#include "test_directory.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace common::test {
namespace {

TEST(TestDirectory, IsUniqueToThisProcessAndTest) {
    const auto dir = testDirectory();
    EXPECT_TRUE(std::filesystem::is_directory(dir));
    EXPECT_EQ(dir.parent_path(), std::filesystem::temp_directory_path());
    const std::string name = dir.filename().string();
    EXPECT_NE(name.find(std::to_string(::getpid())), std::string::npos) << name;
    EXPECT_NE(name.find("TestDirectory.IsUniqueToThisProcessAndTest"), std::string::npos) << name;
    EXPECT_EQ(testDirectory(), dir);
}

TEST(TestDirectory, IsRemovedWithItsContents) {
    const auto dir = testDirectory();
    std::filesystem::create_directories(dir / "inner");
    writeText(dir / "inner" / "file.txt", "text\n");
    EXPECT_EQ(readText(dir / "inner" / "file.txt"), "text\n");
    EXPECT_EQ(readText(dir / "missing.txt"), "");
    removeTestDirectories();  // what the listener does at the end of every test
    EXPECT_FALSE(std::filesystem::exists(dir));
    EXPECT_TRUE(std::filesystem::is_directory(testDirectory()));  // asked again: made again
}

class Parameterised : public ::testing::TestWithParam<int> {};

TEST_P(Parameterised, NameWithASlashIsOneFolder) {
    const auto dir = testDirectory();
    EXPECT_EQ(dir.parent_path(), std::filesystem::temp_directory_path());
    EXPECT_NE(dir.filename().string().find("Parameterised.NameWithASlashIsOneFolder_"),
              std::string::npos)
        << dir;
}
INSTANTIATE_TEST_SUITE_P(Seeds, Parameterised, ::testing::Values(1, 2));

}  // namespace
}  // namespace common::test
