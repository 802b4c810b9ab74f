#include "tracer/readers/fxt/fxt_source.hpp"

extern "C" {
#include <fxt/fxt.h>
}

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace starscope::tracer::detail {

namespace {

// Child -> parent records; all fields native-endian (same machine).
enum Record : std::uint8_t {
    RecEvent = 1,      // u64 time, u64 code, u32 count, count * u64
    RecProgress = 2,   // u64 offset
    RecFirst = 3,      // u64 time
    RecEnd = 4,        // u64 events, u64 lastTime, u64 offset, u8 endedEarly
    RecOpenFailed = 5, // (no payload)
};

constexpr int kSilenceTimeoutMs = 30'000;   // libfxt silent that long is looping
constexpr std::size_t kMaxParams = FXT_MAX_PARAMS;

class ChildWriter {
public:
    explicit ChildWriter(int fd) : m_fd(fd) { m_buffer.reserve(1 << 16); }
    template <typename T>
    void put(const T& value) {
        const auto* bytes = reinterpret_cast<const char*>(&value);
        m_buffer.insert(m_buffer.end(), bytes, bytes + sizeof(T));
    }
    void putBytes(const void* data, std::size_t size) {
        const auto* bytes = static_cast<const char*>(data);
        m_buffer.insert(m_buffer.end(), bytes, bytes + size);
    }
    bool flushIfFull() { return m_buffer.size() < (1 << 16) - 4096 || flush(); }
    bool flush() {
        std::size_t done = 0;
        while (done < m_buffer.size()) {
            const auto n = ::write(m_fd, m_buffer.data() + done, m_buffer.size() - done);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                return false;
            }
            done += static_cast<std::size_t>(n);
        }
        m_buffer.clear();
        return true;
    }

private:
    int m_fd;
    std::vector<char> m_buffer;
};

[[noreturn]] void runChild(int fileFd, int outFd, std::uint64_t firstCode, std::uint64_t lastCode) {
    ChildWriter out(outFd);
    fxt_t fxt = fxt_fdopen(fileFd);
    if (fxt == nullptr) {
        out.put(RecOpenFailed);
        out.flush();
        ::_exit(0);
    }
    fxt_blockev_t block = fxt_blockev_enter(fxt);
    if (block == nullptr) {
        out.put(RecOpenFailed);
        out.flush();
        ::_exit(0);
    }
    fxt_ev_64 event{};
    std::uint64_t events = 0;
    std::uint64_t lastTime = 0;
    int status = FXT_EV_OK;
    while ((status = fxt_next_ev(block, FXT_EV_TYPE_64, reinterpret_cast<fxt_ev*>(&event)))
           == FXT_EV_OK) {
        if (events == 0) {
            out.put(RecFirst);
            out.put(static_cast<std::uint64_t>(event.time));
        }
        ++events;
        lastTime = event.time;
        if (event.code >= firstCode && event.code <= lastCode) {
            const std::uint32_t count =
                std::min<std::uint32_t>(static_cast<std::uint32_t>(event.nb_params), kMaxParams);
            out.put(RecEvent);
            out.put(static_cast<std::uint64_t>(event.time));
            out.put(static_cast<std::uint64_t>(event.code));
            out.put(count);
            out.putBytes(event.param, count * sizeof(std::uint64_t));
        }
        if ((events & 0x3fff) == 0) {
            out.put(RecProgress);
            out.put(static_cast<std::uint64_t>(::lseek(fileFd, 0, SEEK_CUR)));
        }
        if (!out.flushIfFull()) {
            ::_exit(3);
        }
    }
    out.put(RecEnd);
    out.put(events);
    out.put(lastTime);
    out.put(static_cast<std::uint64_t>(::lseek(fileFd, 0, SEEK_CUR)));
    out.put(static_cast<std::uint8_t>(status != FXT_EV_EOT ? 1 : 0));
    out.flush();
    ::_exit(0);
}

class Reader {
public:
    bool has(std::size_t n) const { return m_data.size() - m_pos >= n; }
    template <typename T>
    T get() {
        T value;
        std::memcpy(&value, m_data.data() + m_pos, sizeof(T));
        m_pos += sizeof(T);
        return value;
    }
    const std::uint64_t* params(std::uint32_t count) {
        // Copy into aligned storage; the byte buffer gives no alignment guarantee.
        m_params.resize(count);
        std::memcpy(m_params.data(), m_data.data() + m_pos, count * sizeof(std::uint64_t));
        m_pos += count * sizeof(std::uint64_t);
        return m_params.data();
    }
    std::size_t position() const { return m_pos; }
    void rewind(std::size_t pos) { m_pos = pos; }
    void compact() {
        m_data.erase(m_data.begin(), m_data.begin() + static_cast<std::ptrdiff_t>(m_pos));
        m_pos = 0;
    }
    std::vector<char>& data() { return m_data; }

private:
    std::vector<char> m_data;
    std::vector<std::uint64_t> m_params;
    std::size_t m_pos = 0;
};

std::uint64_t countComplaints(int fd) {
    std::uint64_t lines = 0;
    ::lseek(fd, 0, SEEK_SET);
    char buffer[4096];
    ssize_t n = 0;
    while ((n = ::read(fd, buffer, sizeof buffer)) > 0) {
        lines += static_cast<std::uint64_t>(std::count(buffer, buffer + n, '\n'));
    }
    return lines;
}

} // namespace

TraceResult<FxtStreamSummary> streamFxtEvents(const std::filesystem::path& file,
                                              std::uint64_t firstCode, std::uint64_t lastCode,
                                              const std::function<bool(const RawEvent&)>& onEvent,
                                              const std::function<bool(double)>& progress) {
    const int fileFd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fileFd < 0) {
        return fail(fileError(ErrorCode::Io, file, std::string("cannot open: ") + std::strerror(errno)));
    }
    struct stat info {};
    if (::fstat(fileFd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fileFd);
        return fail(fileError(ErrorCode::Io, file, "not a regular file"));
    }
    const auto fileSize = static_cast<std::uint64_t>(info.st_size);
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
        ::close(fileFd);
        return fail(fileError(ErrorCode::Io, file, std::string("pipe: ") + std::strerror(errno)));
    }
    const int errFd = ::memfd_create("starscope-libfxt-stderr", MFD_CLOEXEC);
    const pid_t child = ::fork();
    if (child < 0) {
        ::close(fileFd);
        ::close(pipeFds[0]);
        ::close(pipeFds[1]);
        if (errFd >= 0) {
            ::close(errFd);
        }
        return fail(fileError(ErrorCode::Io, file, std::string("fork: ") + std::strerror(errno)));
    }
    if (child == 0) {
        ::close(pipeFds[0]);
        // libfxt reports bad events on stderr: keep them for a count, off the terminal.
        ::dup2(errFd >= 0 ? errFd : ::open("/dev/null", O_WRONLY), STDERR_FILENO);
        runChild(fileFd, pipeFds[1], firstCode, lastCode);
    }
    ::close(pipeFds[1]);
    ::close(fileFd);

    FxtStreamSummary summary;
    Reader reader;
    std::optional<TraceError> failure;
    bool ended = false;
    bool openFailed = false;
    std::uint64_t lastOffset = 0;
    RawEvent event;
    pollfd pfd{pipeFds[0], POLLIN, 0};
    while (!failure && !ended) {
        const int ready = ::poll(&pfd, 1, kSilenceTimeoutMs);
        if (ready < 0 && errno == EINTR) {
            continue;
        }
        if (ready == 0) {
            failure = fileError(ErrorCode::Corrupt, file,
                            "libfxt stopped making progress while decoding (damaged trace?)",
                            lastOffset);
            break;
        }
        auto& data = reader.data();
        const std::size_t old = data.size();
        data.resize(old + (1 << 16));
        const auto n = ::read(pipeFds[0], data.data() + old, 1 << 16);
        if (n < 0 && errno == EINTR) {
            data.resize(old);
            continue;
        }
        data.resize(old + static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
        if (n <= 0) {
            break;   // child gone; its status tells why
        }
        while (!failure && !ended) {
            const auto start = reader.position();
            if (!reader.has(1)) {
                break;
            }
            const auto kind = reader.get<std::uint8_t>();
            bool complete = true;
            switch (kind) {
            case RecEvent:
                if (!reader.has(20)) {
                    complete = false;
                    break;
                }
                event.time = reader.get<std::uint64_t>();
                event.code = reader.get<std::uint64_t>();
                event.paramCount = reader.get<std::uint32_t>();
                if (!reader.has(event.paramCount * sizeof(std::uint64_t))) {
                    complete = false;
                    break;
                }
                event.params = reader.params(event.paramCount);
                if (!onEvent(event)) {
                    failure = fileError(ErrorCode::Cancelled, file, "reading cancelled", lastOffset);
                }
                break;
            case RecProgress:
                if (!reader.has(8)) {
                    complete = false;
                    break;
                }
                lastOffset = reader.get<std::uint64_t>();
                if (progress && fileSize > 0
                    && !progress(static_cast<double>(std::min(lastOffset, fileSize))
                                 / static_cast<double>(fileSize))) {
                    failure = fileError(ErrorCode::Cancelled, file, "reading cancelled", lastOffset);
                }
                break;
            case RecFirst:
                if (!reader.has(8)) {
                    complete = false;
                    break;
                }
                summary.firstTime = reader.get<std::uint64_t>();
                event.origin = summary.firstTime;
                break;
            case RecEnd:
                if (!reader.has(25)) {
                    complete = false;
                    break;
                }
                summary.events = reader.get<std::uint64_t>();
                summary.lastTime = reader.get<std::uint64_t>();
                summary.bytesRead = reader.get<std::uint64_t>();
                summary.endedEarly = reader.get<std::uint8_t>() != 0;
                ended = true;
                break;
            case RecOpenFailed:
                openFailed = true;
                ended = true;
                break;
            default:
                failure = fileError(ErrorCode::Corrupt, file, "internal: bad record from the decoder");
            }
            if (!complete) {
                reader.rewind(start);
                break;
            }
        }
        reader.compact();
    }
    if (failure || !ended) {
        ::kill(child, SIGKILL);
    }
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    ::close(pipeFds[0]);
    if (errFd >= 0) {
        summary.libfxtComplaints = countComplaints(errFd);
        ::close(errFd);
    }
    if (failure) {
        return fail(*failure);
    }
    if (!ended) {
        if (WIFSIGNALED(status)) {
            return fail(fileError(ErrorCode::Corrupt, file,
                              "libfxt crashed (signal " + std::to_string(WTERMSIG(status))
                                  + ") while decoding: the trace is damaged",
                              lastOffset));
        }
        return fail(fileError(ErrorCode::Corrupt, file, "libfxt stopped while decoding: the trace is damaged",
                          lastOffset));
    }
    if (openFailed) {
        return fail(fileError(ErrorCode::Format, file, "not an FxT trace: libfxt rejects its header", 0));
    }
    return summary;
}

} // namespace starscope::tracer::detail
