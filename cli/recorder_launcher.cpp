#include "cli/recorder_launcher.hpp"

#include "cli/command_line.hpp"
#include "cli/recorder_config.hpp"
#include "workloads/cli/record_command.hpp"
#include "workloads/cli/sweep_command.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <string>
#include <system_error>
#include <unistd.h>

namespace starscope::cli {

namespace {

constexpr int kRecorderNotRun = 1;

std::filesystem::path recorderPath(std::error_code& ec) {
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : (self.parent_path() / kRecorderFromFrontEnd).lexically_normal();
}

// Only returns when the recorder could not be run.
void execRecorder(const char* command, char** argv, std::ostream& err) {
    std::error_code ec;
    const auto recorder = recorderPath(ec);
    if (ec) {
        err << "starscope " << command << ": cannot find the recorder: /proc/self/exe: " << ec.message() << "\n";
        return;
    }
    err.flush();
    ::execv(recorder.c_str(), argv);
    const int error = errno;
    err << "starscope " << command << ": cannot run the recorder " << recorder.string() << ": "
        << std::strerror(error) << "\n";
}

} // namespace

void addRecorderCommands(CLI::App& app, char** argv, std::ostream& err) {
    struct Forwarded {
        const char* name;
        const char* description;
    };
    for (const Forwarded forwarded : {Forwarded{"record", workloads::cli::kRecordDescription},
                                      Forwarded{"sweep", workloads::cli::kSweepDescription}}) {
        const char* name = forwarded.name;
        addForeignSubcommand(app, name, forwarded.description, [name, argv, &err] {
            execRecorder(name, argv, err);
            return kRecorderNotRun;
        });
    }
}

} // namespace starscope::cli
