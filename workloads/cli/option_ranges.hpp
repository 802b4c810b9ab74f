#pragma once
// The ranges of record's numeric options, shared by `record` and `sweep` (which passes them on
// to every run): checked while parsing, so that `--epochs -1` is refused at once instead of
// wrapping around to 18446744073709551615 epochs.

#include "common/cli_conventions.hpp"

namespace starscope::workloads::cli {

inline CLI::Validator epochsRange() { return starscope::cli::wholeNumberIn(1, 100000); }
// 0: the whole training set. The dataset's size bounds the rest (planRecord says so).
inline CLI::Validator imageCountRange() { return starscope::cli::wholeNumberIn(0, 1'000'000'000); }
inline CLI::Validator batchSizeRange() { return starscope::cli::wholeNumberIn(1, 1'000'000'000); }
inline CLI::Validator workersRange() { return starscope::cli::wholeNumberIn(0, 1024); }
inline CLI::Validator seedRange() { return starscope::cli::wholeNumberIn(0, UINT64_MAX); }
inline CLI::Validator learningRateRange() { return starscope::cli::numberIn(0.0, 1000.0, /*minIncluded=*/false); }
inline CLI::Validator repeatRange() { return starscope::cli::wholeNumberIn(1, 100); }

} // namespace starscope::workloads::cli
