#pragma once
// The four MNIST IDX files of a dataset folder (MNIST or Fashion-MNIST: same layout), mapped
// and cross-checked: image and label counts agree, labels are classes 0-9, both splits have
// the same image size.

#include "workloads/dataset/idx_file.hpp"

#include <filesystem>

namespace starscope::workloads {

inline constexpr int kNumClasses = 10;

struct DatasetSplit {
    IdxFile images;
    IdxFile labels;

    std::uint32_t count() const { return images.count(); }
    std::uint32_t rows() const { return images.rows(); }
    std::uint32_t cols() const { return images.cols(); }
    const std::uint8_t* pixels() const { return images.data(); }
    const std::uint8_t* labelData() const { return labels.data(); }
};

class MnistDataset {
public:
    static constexpr const char* kTrainImages = "train-images-idx3-ubyte";
    static constexpr const char* kTrainLabels = "train-labels-idx1-ubyte";
    static constexpr const char* kTestImages = "t10k-images-idx3-ubyte";
    static constexpr const char* kTestLabels = "t10k-labels-idx1-ubyte";

    static WorkloadResult<MnistDataset> open(const std::filesystem::path& dir);

    const std::filesystem::path& dir() const { return m_dir; }
    const DatasetSplit& train() const { return m_train; }
    const DatasetSplit& test() const { return m_test; }

private:
    MnistDataset(std::filesystem::path dir, DatasetSplit train, DatasetSplit test)
        : m_dir(std::move(dir)), m_train(std::move(train)), m_test(std::move(test)) {}

    std::filesystem::path m_dir;
    DatasetSplit m_train;
    DatasetSplit m_test;
};

// The dataset `record` uses without --dataset: $STARSCOPE_DATA_DIR when set, else the
// data/mnist folder of the source tree this binary was built from (where setup.sh fetches it).
std::filesystem::path defaultDatasetDir();

} // namespace starscope::workloads
