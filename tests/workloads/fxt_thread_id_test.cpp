// The thread-id cache the starscope executable and the FxT preload put in front of StarPU's
// _starpu_gettid (workloads/record/fxt_thread_id.cpp), linked into this test as into starscope
// and in front of the real libstarpu this test also links.
#include <gtest/gtest.h>

#include <starpu.h>

#include <dlfcn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern "C" long _starpu_gettid();

namespace {

long kernelThreadId() { return ::syscall(SYS_gettid); }

// libstarpu calls _starpu_gettid through its PLT: the definition the dynamic linker finds first
// is the one every FxT probe calls, and it must be the cache, with StarPU's own next.
TEST(FxtThreadId, TheCacheComesBeforeStarpusOwnFunction) {
    int major = 0;
    int minor = 0;
    int release = 0;
    starpu_get_version(&major, &minor, &release); // libstarpu is loaded, as under record
    ASSERT_EQ(major, 1);
    void* first = ::dlsym(RTLD_DEFAULT, "_starpu_gettid");
    void* next = ::dlsym(RTLD_NEXT, "_starpu_gettid");
    ASSERT_NE(first, nullptr);
    ASSERT_NE(next, nullptr) << "libstarpu exports _starpu_gettid";
    EXPECT_EQ(first, reinterpret_cast<void*>(&_starpu_gettid));
    EXPECT_NE(first, next);
    Dl_info info{};
    ASSERT_NE(::dladdr(next, &info), 0);
    EXPECT_NE(std::string(info.dli_fname).find("libstarpu"), std::string::npos) << info.dli_fname;
}

TEST(FxtThreadId, EachThreadGetsTheKernelsIdForIt) {
    EXPECT_EQ(_starpu_gettid(), kernelThreadId());
    EXPECT_EQ(_starpu_gettid(), kernelThreadId());
    long inThread = 0;
    long kernelsInThread = 0;
    std::thread([&] {
        inThread = _starpu_gettid();
        kernelsInThread = kernelThreadId();
    }).join();
    EXPECT_EQ(inThread, kernelsInThread);
    EXPECT_NE(inThread, _starpu_gettid());
}

// The thread that forks has another id in the child: a cached parent's id there would give the
// child's events to a thread of the parent.
TEST(FxtThreadId, AForkedChildGetsItsOwnId) {
    const long parents = _starpu_gettid();
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const long childs = _starpu_gettid();
        ::_exit(childs == kernelThreadId() && childs != parents ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    EXPECT_EQ(_starpu_gettid(), parents);
}

} // namespace
