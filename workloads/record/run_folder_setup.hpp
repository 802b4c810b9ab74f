#pragma once
// Opening a run folder for a recording, for the CNN and for a user's program alike: created if
// needed, locked (folder_lock.hpp), proven writable before anything runs; and what becomes of
// an earlier run's files under --force. The CNN removes them up front; a program's recording
// sets them aside and puts them back should it end without a trace, so that a refused
// recording leaves the folder as it found it.

#include "tracer/run_folder/run_folder_names.hpp"
#include "workloads/error.hpp"
#include "workloads/record/folder_lock.hpp"

#include <cstddef>
#include <filesystem>
#include <string>

namespace starscope::workloads {

struct PreparedRunFolder {
    FolderLock lock;
    bool created = false; // this process made the folder (so removing it undoes the recording)
};

// Creates dir if needed, locks it and checks it is writable; a folder that another record filled
// since the plan looked at it is refused unless force. Undoes the creation on failure.
WorkloadResult<PreparedRunFolder> prepareRunFolder(const std::filesystem::path& dir, bool force);

// What --force replaces is the run folder's call (run_folder_names.hpp).
using tracer::run::isRunArtifact;

// Removes the run artifacts of dir (an earlier run's, under --force).
void removeRunArtifacts(const std::filesystem::path& dir);

// An earlier run's artifacts moved into a hidden folder of the run folder for the time of a
// recording: discard() once the new run is written, restore() when it is refused. The
// destructor restores what was neither discarded nor restored.
// Room kept in the run folder for run.json while a program records: a file of
// kRunJsonRoomBytes written before the program starts and removed just before run.json is
// written, so that a trace that fills the disk still gets a run.json that says it is cut.
// Like the lock file, it is record's own: an empty run folder may hold it (isEmptyRunFolder).
inline constexpr std::size_t kRunJsonRoomBytes = 64 * 1024;

class RunJsonRoom {
public:
    // Writes the file; kept() says whether it could be (a full disk, already).
    explicit RunJsonRoom(const std::filesystem::path& dir);
    ~RunJsonRoom();
    RunJsonRoom(const RunJsonRoom&) = delete;
    RunJsonRoom& operator=(const RunJsonRoom&) = delete;

    bool kept() const { return m_kept; }
    // Gives the room back for run.json.
    void release();

private:
    std::filesystem::path m_file;
    bool m_kept = false;
};

class SetAsideRunFiles {
public:
    explicit SetAsideRunFiles(const std::filesystem::path& dir);
    ~SetAsideRunFiles();
    SetAsideRunFiles(const SetAsideRunFiles&) = delete;
    SetAsideRunFiles& operator=(const SetAsideRunFiles&) = delete;

    void discard();
    void restore();

private:
    std::filesystem::path m_dir;
    std::filesystem::path m_aside; // empty: nothing set aside, or already handled
};

} // namespace starscope::workloads
