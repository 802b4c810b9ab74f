#pragma once
// Hands the heap's free pages back to the system. Reading a trace allocates and frees far more
// than the model keeps (the reader's tables, the previous document once replaced), mostly on a
// worker thread whose malloc arena glibc never shrinks below its highest live block on its
// own: without this the viewer would stay that much bigger than what it holds for as long as
// it runs. A no-op where the C library offers no way to do it.

namespace starscope::viewer {

// Returns false when this C library cannot release free heap pages.
bool releaseFreeHeap();

} // namespace starscope::viewer
