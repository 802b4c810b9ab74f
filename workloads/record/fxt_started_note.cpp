// Part of the library preloaded into the program `starscope record -- PROGRAM` runs traced: the
// note of workloads/record/fxt_started_note.hpp, left when the program's StarPU names its prof
// file to libfxt. The call then goes on to libfxt's own fut_set_filename, found after this
// library; a program without libfxt never calls it.

#include "workloads/record/fxt_started_note.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <string>
#include <unistd.h>

extern "C" void fut_set_filename(const char* filename) {
    using SetFilename = void (*)(const char*);
    static const auto libfxt =
        reinterpret_cast<SetFilename>(::dlsym(RTLD_NEXT, "fut_set_filename"));
    if (filename != nullptr) {
        const std::string file(filename);
        const auto slash = file.rfind('/');
        const std::string note =
            (slash == std::string::npos ? std::string() : file.substr(0, slash + 1))
            + starscope::workloads::kFxtStartedNote;
        const int fd = ::open(note.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd >= 0) {
            ::close(fd);
        }
    }
    if (libfxt != nullptr) {
        libfxt(filename);
    }
}
