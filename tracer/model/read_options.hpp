#pragma once
// What a caller tells a reader: how to follow and cancel a long read, and how many threads it
// may use. Shared by every reader (readers/, native/); readers read no environment variable.

#include <functional>

namespace starscope::tracer {

struct ReadOptions {
    // Called now and then with the fraction of the input read so far (0..1). Returning false
    // cancels the read, which then fails with ErrorCode::Cancelled.
    std::function<bool(double fraction)> progress;
    // Threads a reader may use: 1 or 2. 0 lets each reader choose from its input (the FxT
    // reader builds the model on a second thread from 32 MiB of trace on; the Paje reader uses one).
    unsigned threads = 0;
};

} // namespace starscope::tracer
