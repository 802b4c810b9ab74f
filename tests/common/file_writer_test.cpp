// The one output writer, for every kind of target a user can name: what is replaced, what is
// followed, what is written through, what is refused.

#include "common/file_writer.hpp"
#include "common/pending_temporaries.hpp"
#include "tests/support/fifo_reader.hpp"
#include "tests/support/test_support.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

namespace starscope::files {
namespace {

namespace fs = std::filesystem;
using starscope::testing::readFile;
using starscope::testing::TempDir;

// The files of dir other than the named ones (left-over temporaries would show here).
std::vector<std::string> othersIn(const fs::path& dir, const std::vector<std::string>& expected) {
    std::vector<std::string> others;
    for (const auto& entry : fs::directory_iterator(dir)) {
        const auto name = entry.path().filename().string();
        if (std::find(expected.begin(), expected.end(), name) == expected.end()) {
            others.push_back(name);
        }
    }
    return others;
}

// A child process that replaces out, tells the parent (a byte on a pipe) once half of it is
// written, then waits to be stopped in the middle of the write; ignoring: a signal it ignores.
pid_t childStoppedMidWrite(const fs::path& out, int ignoring) {
    int ready[2];
    if (::pipe(ready) != 0) {
        return -1;
    }
    const pid_t child = ::fork();
    if (child == 0) {
        ::close(ready[0]);
        if (ignoring != 0) {
            std::signal(ignoring, SIG_IGN);
        }
        removeTemporariesOnStop();
        (void)writeFile(out, [&](std::ostream& stream) {
            stream << std::string(1 << 16, 'n');
            stream.flush();
            (void)::write(ready[1], "w", 1);
            for (;;) {
                ::pause();
            }
        });
        ::_exit(0);
    }
    ::close(ready[1]);
    char byte = 0;
    const bool writing = ::read(ready[0], &byte, 1) == 1;
    ::close(ready[0]);
    return writing ? child : -1;
}

TEST(FileWriter, AStopSignalMidWriteLeavesTheOldFileAndNoTemporary) {
    for (const int signal : {SIGTERM, SIGINT, SIGHUP}) {
        TempDir dir;
        const auto out = dir / "out.json";
        ASSERT_TRUE(writeFile(out, "old"));
        const pid_t child = childStoppedMidWrite(out, 0);
        ASSERT_GT(child, 0);
        ASSERT_EQ(othersIn(dir.path(), {"out.json"}).size(), 1U) << "the temporary, while writing";
        ASSERT_EQ(::kill(child, signal), 0);
        int status = 0;
        ASSERT_EQ(::waitpid(child, &status, 0), child);
        // It dies of the signal, as it would have without the handler.
        ASSERT_TRUE(WIFSIGNALED(status)) << signal;
        EXPECT_EQ(WTERMSIG(status), signal);
        EXPECT_EQ(readFile(out), "old");
        EXPECT_TRUE(othersIn(dir.path(), {"out.json"}).empty()) << signal;
    }
}

// Under nohup SIGHUP is ignored: it stays so, and the write goes on.
TEST(FileWriter, AnIgnoredSignalStaysIgnored) {
    TempDir dir;
    const auto out = dir / "out.json";
    const pid_t child = childStoppedMidWrite(out, SIGHUP);
    ASSERT_GT(child, 0);
    ASSERT_EQ(::kill(child, SIGHUP), 0);
    ::usleep(100'000);
    int status = 0;
    EXPECT_EQ(::waitpid(child, &status, WNOHANG), 0) << "a SIGHUP it ignored stopped it";
    ASSERT_EQ(::kill(child, SIGTERM), 0);
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(othersIn(dir.path(), {}).empty());
}

TEST(FileWriter, NewPathIsCreatedWithNoTemporaryLeft) {
    TempDir dir;
    const auto out = dir / "out.csv";
    ASSERT_TRUE(writeFile(out, "a,b\n"));
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(out)));
    EXPECT_EQ(readFile(out), "a,b\n");
    EXPECT_TRUE(othersIn(dir.path(), {"out.csv"}).empty());
}

TEST(FileWriter, RegularFileIsReplacedAsANewInodeKeepingItsPermissions) {
    TempDir dir;
    const auto out = dir / "out.json";
    ASSERT_TRUE(writeFile(out, std::string(1000, 'x')));
    ASSERT_EQ(::chmod(out.c_str(), 0640), 0);
    struct stat before {};
    ASSERT_EQ(::stat(out.c_str(), &before), 0);
    ASSERT_TRUE(writeFile(out, "short"));
    struct stat after {};
    ASSERT_EQ(::stat(out.c_str(), &after), 0);
    EXPECT_EQ(readFile(out), "short");
    // A rename, not a rewrite in place: a reader holding the old file keeps it whole.
    EXPECT_NE(before.st_ino, after.st_ino);
    EXPECT_EQ(after.st_mode & 07777, 0640U);
    EXPECT_TRUE(othersIn(dir.path(), {"out.json"}).empty());
}

// Unsynced, a replacement is still a rename of a whole new file (the syncs are what it leaves out).
TEST(FileWriter, AtomicWriteReplacesAsANewInodeKeepingItsPermissions) {
    TempDir dir;
    const auto out = dir / "picture.png";
    ASSERT_TRUE(writeFile(out, std::string(1000, 'x'), Durability::Atomic));
    EXPECT_EQ(readFile(out), std::string(1000, 'x'));
    ASSERT_EQ(::chmod(out.c_str(), 0640), 0);
    struct stat before {};
    ASSERT_EQ(::stat(out.c_str(), &before), 0);
    ASSERT_TRUE(writeFile(out, "short", Durability::Atomic));
    struct stat after {};
    ASSERT_EQ(::stat(out.c_str(), &after), 0);
    EXPECT_EQ(readFile(out), "short");
    EXPECT_NE(before.st_ino, after.st_ino);
    EXPECT_EQ(after.st_mode & 07777, 0640U);
    EXPECT_TRUE(othersIn(dir.path(), {"picture.png"}).empty());
}

// The rename would only need the folder's permission: a file the user may not write (here
// read-only; for root, whom no mode stops, another user's run as that user) stays as it was.
TEST(FileWriter, FileTheUserMayNotWriteIsNotReplaced) {
    TempDir dir;
    const auto shared = dir / "shared";
    fs::create_directory(shared);
    ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
    ASSERT_EQ(::chmod(shared.c_str(), 0777), 0); // anyone may rename in it
    const auto out = shared / "out.csv";
    ASSERT_TRUE(writeFile(out, "old"));
    ASSERT_EQ(::chmod(out.c_str(), 0444), 0);
    std::string said;
    ASSERT_TRUE(starscope::testing::runInChild("writeFile as another user", 10, [&] {
        constexpr uid_t kNobody = 65534;
        if (::geteuid() == 0 && (::setgid(kNobody) != 0 || ::setuid(kNobody) != 0)) {
            return std::string("cannot become nobody: ") + std::strerror(errno);
        }
        const auto written = writeFile(out, "new");
        return written ? std::string("replaced") : written.error().describe();
    }, said));
    EXPECT_EQ(said, out.string() + ": cannot write to it: Permission denied; not replaced");
    EXPECT_EQ(readFile(out), "old");
    EXPECT_TRUE(othersIn(shared, {"out.csv"}).empty());
}

TEST(FileWriter, FailedFillLeavesTheOldFileAndNoTemporary) {
    TempDir dir;
    const auto out = dir / "out.txt";
    ASSERT_TRUE(writeFile(out, "old"));
    const auto written = writeFile(out, [](std::ostream& stream) {
        stream << "half";
        stream.setstate(std::ios::badbit);
    });
    ASSERT_FALSE(written);
    EXPECT_EQ(written.error().file, out.string());
    EXPECT_EQ(written.error().code, WriteErrorCode::Write);
    EXPECT_EQ(readFile(out), "old");
    EXPECT_TRUE(othersIn(dir.path(), {"out.txt"}).empty());
}

TEST(FileWriter, SymlinkToARegularFileIsFollowedAndStays) {
    TempDir dir;
    fs::create_directory(dir / "real");
    const auto target = dir / "real" / "data.csv";
    ASSERT_TRUE(writeFile(target, "old"));
    const auto link = dir / "link.csv";
    fs::create_symlink("real/data.csv", link); // relative, resolved from the link's folder
    ASSERT_TRUE(writeFile(link, "new"));
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(fs::read_symlink(link), fs::path("real/data.csv"));
    EXPECT_EQ(readFile(target), "new");
    EXPECT_TRUE(othersIn(dir / "real", {"data.csv"}).empty());
}

TEST(FileWriter, ChainOfSymlinksReachesTheFinalTarget) {
    TempDir dir;
    ASSERT_TRUE(writeFile(dir / "final", "old"));
    fs::create_symlink(dir / "final", dir / "second");
    fs::create_symlink("second", dir / "first");
    ASSERT_TRUE(writeFile(dir / "first", "new"));
    EXPECT_TRUE(fs::is_symlink(dir / "first"));
    EXPECT_TRUE(fs::is_symlink(dir / "second"));
    EXPECT_EQ(readFile(dir / "final"), "new");
}

TEST(FileWriter, DanglingSymlinkCreatesItsTarget) {
    TempDir dir;
    const auto link = dir / "link";
    fs::create_symlink(dir / "missing.csv", link);
    ASSERT_TRUE(writeFile(link, "made"));
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(dir / "missing.csv")));
    EXPECT_EQ(readFile(dir / "missing.csv"), "made");
}

TEST(FileWriter, SymlinkLoopIsAnError) {
    TempDir dir;
    fs::create_symlink("b", dir / "a");
    fs::create_symlink("a", dir / "b");
    const auto written = writeFile(dir / "a", "x");
    ASSERT_FALSE(written);
    EXPECT_EQ(written.error().code, WriteErrorCode::Unreachable);
    EXPECT_NE(written.error().describe().find("symbolic links"), std::string::npos) << written.error().describe();
}

TEST(FileWriter, FifoIsWrittenThroughNotReplaced) {
    TempDir dir;
    const auto fifo = dir / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string payload(200 * 1024, 'p'); // more than a pipe buffer: the reader must drain it
    starscope::testing::FifoReader reader(fifo);
    const auto written = writeFile(fifo, payload);
    const std::string received = reader.received();
    ASSERT_TRUE(written) << written.error().describe();
    EXPECT_EQ(received, payload);
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
    EXPECT_TRUE(othersIn(dir.path(), {"pipe"}).empty());
}

TEST(FileWriter, CharacterDeviceIsWrittenThroughNotReplaced) {
    TempDir dir;
    const auto device = dir / "null";
    // The same device as /dev/null (1, 3), made here so the machine's own is never at risk.
    if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
        GTEST_SKIP() << "mknod is not permitted here: " << std::strerror(errno);
    }
    ASSERT_TRUE(writeFile(device, "discarded"));
    EXPECT_TRUE(fs::is_character_file(fs::symlink_status(device)));
    EXPECT_TRUE(othersIn(dir.path(), {"null"}).empty());
}

TEST(FileWriter, SymlinkToAFifoWritesThroughTheFifo) {
    TempDir dir;
    const auto fifo = dir / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    fs::create_symlink(fifo, dir / "link");
    starscope::testing::FifoReader reader(fifo);
    const auto written = writeFile(dir / "link", "through");
    const std::string received = reader.received();
    ASSERT_TRUE(written);
    EXPECT_EQ(received, "through");
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
    EXPECT_TRUE(fs::is_symlink(dir / "link"));
}

TEST(FileWriter, DirectoryIsRefusedClearly) {
    TempDir dir;
    fs::create_directory(dir / "folder");
    const auto written = writeFile(dir / "folder", "x");
    ASSERT_FALSE(written);
    EXPECT_EQ(written.error().file, (dir / "folder").string());
    EXPECT_EQ(written.error().code, WriteErrorCode::InvalidPath);
    EXPECT_EQ(written.error().describe(),
              (dir / "folder").string() + ": is a folder; name a file to write");
    EXPECT_NE(written.error().message.find("is a folder"), std::string::npos) << written.error().message;
    EXPECT_TRUE(fs::is_empty(dir / "folder"));
    EXPECT_TRUE(othersIn(dir.path(), {"folder"}).empty());
}

TEST(FileWriter, MissingFolderIsReportedWithTheNamedPath) {
    TempDir dir;
    const auto written = writeFile(dir / "no" / "such" / "out.csv", "x");
    ASSERT_FALSE(written);
    EXPECT_EQ(written.error().file, (dir / "no" / "such" / "out.csv").string());
    EXPECT_EQ(written.error().code, WriteErrorCode::Create);
    EXPECT_NE(written.error().message.find("No such file or directory"), std::string::npos)
        << written.error().message;
}

TEST(FileWriter, ResolveTargetNamesTheKind) {
    TempDir dir;
    ASSERT_TRUE(writeFile(dir / "file", "x"));
    fs::create_symlink("file", dir / "link");
    EXPECT_EQ(resolveTarget(dir / "file")->kind, TargetKind::Regular);
    EXPECT_EQ(resolveTarget(dir / "link")->kind, TargetKind::Regular);
    EXPECT_EQ(resolveTarget(dir / "link")->path, dir / "file");
    EXPECT_EQ(resolveTarget(dir / "new")->kind, TargetKind::New);
    EXPECT_EQ(resolveTarget(dir.path())->kind, TargetKind::Directory);
    EXPECT_EQ(resolveTarget("/dev/null")->kind, TargetKind::Special);
}

} // namespace
} // namespace starscope::files
