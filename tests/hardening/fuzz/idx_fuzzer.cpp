// Fuzzes the IDX reader (IdxFile::open) as images and as labels, and touches every byte it
// claims to map so a wrong size shows up as an out-of-bounds read.
#include "fuzz_input_file.hpp"
#include "workloads/dataset/idx_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using starscope::workloads::IdxFile;
    using starscope::workloads::IdxKind;
    const auto file = starscope::hardening::fuzzInputFile("idx", data, size);
    for (const auto kind : {IdxKind::Images, IdxKind::Labels}) {
        auto idx = IdxFile::open(file, kind);
        if (!idx) {
            (void)idx.error().describe();
            continue;
        }
        unsigned sum = 0;
        for (std::size_t i = 0; i < idx->dataSize(); ++i) {
            sum += idx->data()[i];
        }
        volatile unsigned sink = sum;
        (void)sink;
    }
    return 0;
}
