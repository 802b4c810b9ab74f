#pragma once
// Runs one reader on one file in a forked child under alarm(), so that a crash or a hang
// fails the case it belongs to instead of the whole test, and reports what the reader said
// and the child's peak memory.

#include "tests/hardening/trace_pipeline.hpp"
#include "tracer/native/native_format.hpp"
#include "tracer/readers/paje/paje_reader.hpp"
#include "tracer/readers/read_trace.hpp"
#if STARSCOPE_HARDENING_IDX
#include "workloads/dataset/idx_file.hpp"
#endif

#include <csignal>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace starscope::hardening {

// What the child reports through its exit status.
enum Outcome : int {
    ErrorNamingFile = 0,
    TraceWithWarning = 1,
    TraceWithoutWarning = 2,
    ErrorNotNamingFile = 3,
};

inline constexpr unsigned kTimeLimitSeconds = 30;

using Reader = std::function<Outcome(const std::filesystem::path&)>;

inline Outcome traceOutcome(const tracer::TraceResult<tracer::Trace>& trace,
                            const std::filesystem::path& file) {
    if (!trace) {
        return trace.error().describe().find(file.filename().string()) != std::string::npos
                   ? ErrorNamingFile
                   : ErrorNotNamingFile;
    }
    return trace->warnings.empty() ? TraceWithoutWarning : TraceWithWarning;
}

// The formats whose readers this build has: the trace formats, and IDX where the workloads'
// MNIST reader is built (with the recorder: tests/hardening/CMakeLists.txt).
inline std::vector<std::string> readerFormats() {
    std::vector<std::string> formats{"fxt", "paje", "native"};
#if STARSCOPE_HARDENING_IDX
    formats.emplace_back("idx");
#endif
    return formats;
}

// "fxt", "paje", "native", "any" (readTrace), "pipeline" (readTrace and trace_pipeline.hpp)
// or "idx" (when readerFormats() has it).
inline Reader readerFor(const std::string& format) {
    using Path = std::filesystem::path;
    if (format == "fxt") {
        return [](const Path& f) { return traceOutcome(tracer::readTrace({f}), f); };
    }
    if (format == "paje") {
        return [](const Path& f) { return traceOutcome(tracer::readPaje(f), f); };
    }
    if (format == "native") {
        return [](const Path& f) { return traceOutcome(tracer::readNative(f), f); };
    }
    if (format == "any") {
        return [](const Path& f) { return traceOutcome(tracer::readTrace(f), f); };
    }
    // readTrace, then everything a user can do with what it accepted (trace_pipeline.hpp).
    if (format == "pipeline") {
        return [](const Path& f) {
            const auto trace = tracer::readTrace(f);
            const auto scratch =
                std::filesystem::temp_directory_path() / ("starscope_pipeline_" + std::to_string(::getpid()) + ".sstrace");
            if (trace) {
                if (const auto wrong = runTracePipeline(*trace, scratch)) {
                    std::fprintf(stderr, "%s: %s\n", f.c_str(), wrong->c_str());
                    std::abort();   // reported as a crash of the case
                }
            }
            return traceOutcome(trace, f);
        };
    }
#if STARSCOPE_HARDENING_IDX
    // IDX: both kinds; a file of the other kind must be refused, so only errors count.
    return [](const Path& f) {
        for (const auto kind : {workloads::IdxKind::Images, workloads::IdxKind::Labels}) {
            auto idx = workloads::IdxFile::open(f, kind);
            if (idx) {
                unsigned sum = 0;
                for (std::size_t i = 0; i < idx->dataSize(); ++i) {
                    sum += idx->data()[i];
                }
                volatile unsigned sink = sum;
                (void)sink;
                return TraceWithoutWarning;
            }
            if (idx.error().describe().find(f.filename().string()) == std::string::npos) {
                return ErrorNotNamingFile;
            }
        }
        return ErrorNamingFile;
    };
#else
    std::abort(); // no such reader in this build: readerFormats() does not offer it
#endif
}

// Runs the reader in a child; sets the outcome (and the child's peak resident memory in KiB
// when asked), or fails with the case named.
inline ::testing::AssertionResult runIsolated(const Reader& reader, const std::filesystem::path& file,
                                              Outcome& outcome, long* peakRssKiB = nullptr) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::alarm(kTimeLimitSeconds);
        ::_exit(static_cast<int>(reader(file)));
    }
    if (pid < 0) {
        return ::testing::AssertionFailure() << "fork failed";
    }
    int status = 0;
    struct rusage usage {};
    ::wait4(pid, &status, 0, &usage);
    if (peakRssKiB != nullptr) {
        *peakRssKiB = usage.ru_maxrss;
    }
    if (WIFSIGNALED(status)) {
        return ::testing::AssertionFailure()
               << file.filename() << ": the reader "
               << (WTERMSIG(status) == SIGALRM ? "hung (no answer within the time limit)" : "crashed")
               << " (signal " << WTERMSIG(status) << ")";
    }
    outcome = static_cast<Outcome>(WEXITSTATUS(status));
    if (outcome == ErrorNotNamingFile) {
        return ::testing::AssertionFailure() << file.filename() << ": the error does not name the file";
    }
    return ::testing::AssertionSuccess();
}

} // namespace starscope::hardening
