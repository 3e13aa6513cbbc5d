#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "spinegpu/core/file.hpp"

namespace spinegpu {
namespace {

namespace fs = std::filesystem;

// A fresh folder under the system's temporary folder, removed with the test.
class FileRead : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("spinegpu_file_test_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string path(const char* name) const { return (dir_ / name).string(); }
    fs::path dir_;
};

TEST_F(FileRead, reads_a_file_whole_as_bytes_and_text) {
    const std::string content("spine\0end", 9);
    std::ofstream(path("a.txt"), std::ios::binary) << content;
    Result<std::vector<std::uint8_t>> bytes = read_file_bytes(path("a.txt"));
    ASSERT_TRUE(bytes.ok());
    EXPECT_EQ(std::string(bytes.value().begin(), bytes.value().end()), content);
    Result<std::string> text = read_file_text(path("a.txt"));
    ASSERT_TRUE(text.ok());
    EXPECT_EQ(text.value(), content);
}

TEST_F(FileRead, names_a_missing_file) {
    Result<std::string> text = read_file_text(path("missing.json"));
    ASSERT_FALSE(text.ok());
    EXPECT_EQ(text.error().file, path("missing.json"));
    EXPECT_NE(text.error().what.find("cannot open"), std::string::npos) << text.error().message();
}

TEST_F(FileRead, names_an_empty_path_as_such) {
    Result<std::string> text = read_file_text("");
    ASSERT_FALSE(text.ok());
    EXPECT_EQ(text.error().message(), "\"\": cannot open: the path is empty");
}

TEST_F(FileRead, refuses_a_directory) {
    Result<std::vector<std::uint8_t>> bytes = read_file_bytes(dir_.string());
    ASSERT_FALSE(bytes.ok());
    EXPECT_NE(bytes.error().what.find("directory"), std::string::npos) << bytes.error().message();
}

TEST_F(FileRead, refuses_a_file_over_the_limit_by_its_size_without_reading_it) {
    // A sparse file of 3 GiB takes no disk space; reading it whole would take 3 GiB of memory.
    { std::ofstream(path("huge.skel"), std::ios::binary); }
    fs::resize_file(path("huge.skel"), std::uint64_t{3} << 30);
    Result<std::vector<std::uint8_t>> bytes = read_file_bytes(path("huge.skel"));
    ASSERT_FALSE(bytes.ok());
    EXPECT_EQ(bytes.error().file, path("huge.skel"));
    EXPECT_NE(bytes.error().what.find("larger than the 256 MiB"), std::string::npos) << bytes.error().message();
}

TEST_F(FileRead, accepts_a_file_exactly_at_the_limit_and_refuses_one_byte_more) {
    std::ofstream(path("b.bin"), std::ios::binary) << std::string(100, 'x');
    EXPECT_TRUE(read_file_bytes(path("b.bin"), 100).ok());
    Result<std::vector<std::uint8_t>> over = read_file_bytes(path("b.bin"), 99);
    ASSERT_FALSE(over.ok());
    EXPECT_NE(over.error().what.find("larger than the 99 bytes"), std::string::npos) << over.error().message();
}

TEST_F(FileRead, refuses_an_endless_device_after_the_limit) {
    if (!fs::exists("/dev/zero")) GTEST_SKIP() << "no /dev/zero here";
    Result<std::string> text = read_file_text("/dev/zero", 1 << 20);
    ASSERT_FALSE(text.ok());
    EXPECT_EQ(text.error().file, "/dev/zero");
    EXPECT_NE(text.error().what.find("larger than"), std::string::npos) << text.error().message();
}

}  // namespace
}  // namespace spinegpu
