#pragma once
// How a caller follows and cancels a long read: shared by every reader (readers/, native/).

#include <functional>

namespace starscope::tracer {

struct ReadOptions {
    // Called now and then with the fraction of the input read so far (0..1). Returning false
    // cancels the read, which then fails with ErrorCode::Cancelled.
    std::function<bool(double fraction)> progress;
};

} // namespace starscope::tracer
