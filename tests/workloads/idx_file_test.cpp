// The IDX reader on real MNIST and on small good and damaged files.

#include "tests/support/test_support.hpp"
#include "tests/workloads/idx_writer.hpp"
#include "workloads/dataset/idx_file.hpp"
#include "workloads/dataset/mnist_dataset.hpp"

#include <gtest/gtest.h>

using starscope::testing::TempDir;
using namespace starscope::workloads;
using namespace starscope::workloads::testing;

namespace {

std::vector<std::uint8_t> ramp(std::size_t size) {
    std::vector<std::uint8_t> bytes(size);
    for (std::size_t i = 0; i < size; ++i) {
        bytes[i] = static_cast<std::uint8_t>(i % 251);
    }
    return bytes;
}

} // namespace

TEST(IdxFile, ReadsImagesHeaderAndPixels) {
    TempDir dir;
    const auto pixels = ramp(3 * 4 * 5);
    writeBytes(dir / "images", idxImages(3, 4, 5, pixels));
    auto file = IdxFile::open(dir / "images", IdxKind::Images);
    ASSERT_TRUE(file.ok()) << file.error().describe();
    EXPECT_EQ(file->count(), 3U);
    EXPECT_EQ(file->rows(), 4U);
    EXPECT_EQ(file->cols(), 5U);
    ASSERT_EQ(file->dataSize(), pixels.size());
    EXPECT_TRUE(std::equal(pixels.begin(), pixels.end(), file->data()));
}

TEST(IdxFile, ReadsLabels) {
    TempDir dir;
    writeBytes(dir / "labels", idxLabels({7, 2, 1, 0}));
    auto file = IdxFile::open(dir / "labels", IdxKind::Labels);
    ASSERT_TRUE(file.ok()) << file.error().describe();
    EXPECT_EQ(file->count(), 4U);
    EXPECT_EQ(file->rows(), 1U);
    EXPECT_EQ(file->data()[0], 7);
    EXPECT_EQ(file->data()[3], 0);
}

TEST(IdxFile, RejectsAWrongMagicNamingFileAndBothValues) {
    TempDir dir;
    writeBytes(dir / "labels", idxLabels({1, 2}));
    auto file = IdxFile::open(dir / "labels", IdxKind::Images);
    ASSERT_FALSE(file.ok());
    EXPECT_EQ(file.error().code, ErrorCode::Format);
    const auto text = file.error().describe();
    EXPECT_NE(text.find((dir / "labels").string()), std::string::npos) << text;
    EXPECT_NE(text.find("magic 0x00000801"), std::string::npos) << text;
    EXPECT_NE(text.find("expected 0x00000803"), std::string::npos) << text;
    EXPECT_NE(text.find("labels file"), std::string::npos) << text;
}

TEST(IdxFile, RejectsATruncatedFile) {
    TempDir dir;
    auto bytes = idxImages(10, 28, 28, ramp(10 * 28 * 28));
    bytes.resize(bytes.size() - 100);
    writeBytes(dir / "images", bytes);
    auto file = IdxFile::open(dir / "images", IdxKind::Images);
    ASSERT_FALSE(file.ok());
    EXPECT_EQ(file.error().code, ErrorCode::Corrupt);
    const auto text = file.error().describe();
    EXPECT_NE(text.find("truncated"), std::string::npos) << text;
    EXPECT_NE(text.find("10 images of 28x28"), std::string::npos) << text;
    EXPECT_NE(text.find((dir / "images").string()), std::string::npos) << text;
}

TEST(IdxFile, RejectsTrailingBytes) {
    TempDir dir;
    auto bytes = idxLabels({1, 2, 3});
    bytes += "xx";
    writeBytes(dir / "labels", bytes);
    auto file = IdxFile::open(dir / "labels", IdxKind::Labels);
    ASSERT_FALSE(file.ok());
    EXPECT_NE(file.error().message.find("trailing bytes"), std::string::npos)
        << file.error().describe();
}

TEST(IdxFile, RejectsAFileShorterThanTheHeader) {
    TempDir dir;
    writeBytes(dir / "images", std::string("\0\0\x08", 3));
    auto file = IdxFile::open(dir / "images", IdxKind::Images);
    ASSERT_FALSE(file.ok());
    EXPECT_EQ(file.error().code, ErrorCode::Corrupt);
    EXPECT_NE(file.error().message.find("16-byte header"), std::string::npos)
        << file.error().describe();
}

TEST(IdxFile, RejectsAnEmptyFileAndZeroDimensions) {
    TempDir dir;
    writeBytes(dir / "empty", "");
    EXPECT_FALSE(IdxFile::open(dir / "empty", IdxKind::Labels).ok());
    writeBytes(dir / "zero", idxImages(5, 0, 28, {}));
    auto file = IdxFile::open(dir / "zero", IdxKind::Images);
    ASSERT_FALSE(file.ok());
    EXPECT_NE(file.error().message.find("empty dimensions 5x0x28"), std::string::npos)
        << file.error().describe();
}

TEST(IdxFile, ReportsAMissingFile) {
    TempDir dir;
    auto file = IdxFile::open(dir / "nope", IdxKind::Images);
    ASSERT_FALSE(file.ok());
    EXPECT_EQ(file.error().code, ErrorCode::MissingDataset);
    EXPECT_NE(file.error().describe().find("nope"), std::string::npos);
}

TEST(MnistDataset, OpensAValidFolder) {
    TempDir dir;
    writeTinyDataset(dir.path(), 20);
    auto dataset = MnistDataset::open(dir.path());
    ASSERT_TRUE(dataset.ok()) << dataset.error().describe();
    EXPECT_EQ(dataset->train().count(), 20U);
    EXPECT_EQ(dataset->test().rows(), 28U);
    EXPECT_EQ(dataset->train().labelData()[13], 3);
}

TEST(MnistDataset, AMissingFolderSaysHowToGetTheData) {
    TempDir dir;
    auto dataset = MnistDataset::open(dir / "absent");
    ASSERT_FALSE(dataset.ok());
    EXPECT_EQ(dataset.error().code, ErrorCode::MissingDataset);
    EXPECT_NE(dataset.error().describe().find("scripts/setup.sh"), std::string::npos);
}

TEST(MnistDataset, AMissingFileSaysHowToGetTheData) {
    TempDir dir;
    writeTinyDataset(dir.path(), 5);
    std::filesystem::remove(dir / "t10k-labels-idx1-ubyte");
    auto dataset = MnistDataset::open(dir.path());
    ASSERT_FALSE(dataset.ok());
    const auto text = dataset.error().describe();
    EXPECT_NE(text.find("t10k-labels-idx1-ubyte"), std::string::npos) << text;
    EXPECT_NE(text.find("scripts/setup.sh"), std::string::npos) << text;
}

TEST(MnistDataset, RejectsMismatchedCountsAndBadLabels) {
    TempDir dir;
    writeTinyDataset(dir.path(), 5);
    writeBytes(dir / "train-labels-idx1-ubyte", idxLabels({1, 2, 3}));
    auto mismatched = MnistDataset::open(dir.path());
    ASSERT_FALSE(mismatched.ok());
    EXPECT_NE(mismatched.error().message.find("3 labels for 5 images"), std::string::npos)
        << mismatched.error().describe();

    writeBytes(dir / "train-labels-idx1-ubyte", idxLabels({1, 2, 3, 12, 4}));
    auto badLabel = MnistDataset::open(dir.path());
    ASSERT_FALSE(badLabel.ok());
    EXPECT_EQ(badLabel.error().offset, std::optional<std::uint64_t>(8 + 3));
    EXPECT_NE(badLabel.error().message.find("label 12"), std::string::npos)
        << badLabel.error().describe();
}

TEST(MnistDataset, OpensTheRealMnist) {
    const auto dir = starscope::testing::sourceDir() / "data" / "mnist";
    auto dataset = MnistDataset::open(dir);
    ASSERT_TRUE(dataset.ok()) << dataset.error().describe();
    EXPECT_EQ(dataset->train().count(), 60000U);
    EXPECT_EQ(dataset->test().count(), 10000U);
    EXPECT_EQ(dataset->train().rows(), 28U);
    EXPECT_EQ(dataset->train().cols(), 28U);
    // The first training digit of MNIST is a 5, the first test digit a 7.
    EXPECT_EQ(dataset->train().labelData()[0], 5);
    EXPECT_EQ(dataset->test().labelData()[0], 7);
}
