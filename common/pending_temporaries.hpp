#pragma once
// The temporary files of the writes in progress (file_writer.cpp writes a regular file under a
// temporary name, then renames it), so that a program stopped by a signal while writing leaves
// the file it was replacing as it was, and nothing beside it: killed by SIGTERM in the middle of
// `export -o out.json`, starscope left out.json.tmp.PID.N behind.

#include <cstddef>
#include <filesystem>

namespace starscope::files {

// Holds one temporary file's name for as long as it lives; a stop signal's handler
// (removeTemporariesOnStop) removes it. Names longer than a path may be are not held.
class PendingTemporary {
public:
    explicit PendingTemporary(const std::filesystem::path& temporary);
    ~PendingTemporary();
    PendingTemporary(const PendingTemporary&) = delete;
    PendingTemporary& operator=(const PendingTemporary&) = delete;

    // Writes at once that a program may have in progress (its threads writing their files).
    static constexpr std::size_t kSlots = 16;

private:
    std::size_t m_slot;
};

// For each of SIGINT, SIGTERM and SIGHUP whose handling is still the default: on that signal,
// remove the pending temporaries, then die of the signal as the default would (the shell sees
// the same status). A signal the caller ignores (SIGHUP under nohup) stays ignored. For a
// program's main, before its first write.
void removeTemporariesOnStop();

} // namespace starscope::files
