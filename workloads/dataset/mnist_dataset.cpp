#include "workloads/dataset/mnist_dataset.hpp"

#include <cstdlib>
#include <system_error>

namespace starscope::workloads {

namespace {

constexpr const char* kHowToGetIt =
    "run scripts/setup.sh to fetch MNIST into data/mnist, or pass --dataset DIR";

WorkloadResult<DatasetSplit> openSplit(const std::filesystem::path& dir, const char* imagesName,
                                       const char* labelsName) {
    auto images = IdxFile::open(dir / imagesName, IdxKind::Images);
    if (!images) {
        auto error = images.error();
        if (error.code == ErrorCode::MissingDataset) {
            error.message = std::string("missing MNIST file: ") + kHowToGetIt;
        }
        return fail(std::move(error));
    }
    auto labels = IdxFile::open(dir / labelsName, IdxKind::Labels);
    if (!labels) {
        auto error = labels.error();
        if (error.code == ErrorCode::MissingDataset) {
            error.message = std::string("missing MNIST file: ") + kHowToGetIt;
        }
        return fail(std::move(error));
    }
    if (images->count() != labels->count()) {
        return workloadError(ErrorCode::Corrupt,
                             std::to_string(labels->count()) + " labels for "
                                 + std::to_string(images->count()) + " images in "
                                 + images->path().string(),
                             labels->path().string(), 4);
    }
    const std::uint8_t* data = labels->data();
    for (std::size_t i = 0; i < labels->dataSize(); ++i) {
        if (data[i] >= kNumClasses) {
            return workloadError(ErrorCode::Corrupt,
                                 "label " + std::to_string(data[i]) + " of item "
                                     + std::to_string(i) + " is not a class 0-9",
                                 labels->path().string(), 8 + i);
        }
    }
    return DatasetSplit{std::move(images.value()), std::move(labels.value())};
}

} // namespace

WorkloadResult<MnistDataset> MnistDataset::open(const std::filesystem::path& dir) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
        return workloadError(ErrorCode::MissingDataset,
                             std::string("dataset folder does not exist: ") + kHowToGetIt,
                             dir.string());
    }
    auto train = openSplit(dir, kTrainImages, kTrainLabels);
    if (!train) {
        return fail(train.error());
    }
    auto test = openSplit(dir, kTestImages, kTestLabels);
    if (!test) {
        return fail(test.error());
    }
    if (test->rows() != train->rows() || test->cols() != train->cols()) {
        return workloadError(ErrorCode::Corrupt,
                             "test images are " + std::to_string(test->rows()) + "x"
                                 + std::to_string(test->cols()) + " but training images are "
                                 + std::to_string(train->rows()) + "x"
                                 + std::to_string(train->cols()),
                             test->images.path().string(), 8);
    }
    return MnistDataset(dir, std::move(train.value()), std::move(test.value()));
}

std::filesystem::path defaultDatasetDir() {
    if (const char* env = std::getenv("STARSCOPE_DATA_DIR"); env != nullptr && *env != '\0') {
        return env;
    }
    return STARSCOPE_DEFAULT_DATASET_DIR;
}

} // namespace starscope::workloads
