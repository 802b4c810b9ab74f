#pragma once
// What a caller tells a reader: how to follow and cancel a long read, and how many threads it
// may use. Shared by every reader (readers/, native/); readers read no environment variable.

#include <filesystem>
#include <functional>

namespace starscope::tracer {

struct ReadOptions {
    // Called now and then with the fraction of the input read so far (0..1). Returning false
    // cancels the read, which then fails with ErrorCode::Cancelled.
    std::function<bool(double fraction)> progress;
    // Threads a reader may use. 0 lets each reader choose from its input (the FxT reader builds
    // the model on a second thread from 32 MiB of a lone prof file on, and decodes a job's prof
    // files on as many threads as cores from a few MiB of them on; the native reader reads its
    // columns on as many threads as cores from 64 MiB of them on; the Paje reader uses one). 1:
    // one thread. 2 or more: the FxT reader decodes up to that many of a job's files at once
    // (whatever their size), and builds a lone file's model on a second thread; the native
    // reader reads up to that many columns at once.
    unsigned threads = 0;
    // A folder where the native reader remembers the files it checked whole (every record and
    // the checksum), so that it reads them again without checks while they stay the same files
    // (tracer/native/verified_files.hpp). Empty: every native file is checked on every read.
    // verifiedFilesFolder() is where the command line and the viewer keep them.
    std::filesystem::path verifiedFiles;
};

// Where the command line and the viewer keep the stamps of verified native files:
// $STARSCOPE_VERIFIED_FILES when set (empty: keep none, check every read), else
// $XDG_CACHE_HOME/starscope/verified, else $HOME/.cache/starscope/verified; empty when neither
// is set. Read by those callers, never by a reader.
std::filesystem::path verifiedFilesFolder();

} // namespace starscope::tracer
