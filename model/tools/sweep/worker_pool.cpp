#include "tools/sweep/worker_pool.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include "tools/sweep/own_arena.h"

namespace pcisim::sweep {

namespace {

using Clock = std::chrono::steady_clock;

// Exit code of a child whose job threw: its message is in place of the results.
constexpr int kJobThrew = 3;

// The stop signal received while run_jobs runs; 0 while none.
volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_stop_signal(int sig) { g_stop = sig; }

// The signals that stop a pool cleanly: Ctrl-C, kill, the terminal going away (SIGHUP),
// Ctrl-\ (SIGQUIT, whose default would dump core and lose the finished jobs' report) and a
// closed pipe (SIGPIPE: `pcisim sweep ... 2>&1 | head`, whose default would end the sweep
// without a word or its outputs).
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
constexpr std::size_t kStopSignalCount = sizeof kStopSignals / sizeof kStopSignals[0];

// Catches the stop signals for its lifetime, and restores what was there before.
class StopSignals {
public:
    StopSignals() {
        g_stop = 0;
        struct sigaction sa {};
        sa.sa_handler = on_stop_signal;
        sigemptyset(&sa.sa_mask);
        for (std::size_t i = 0; i < kStopSignalCount; ++i)
            sigaction(kStopSignals[i], &sa, &old_[i]);
    }
    ~StopSignals() {
        for (std::size_t i = 0; i < kStopSignalCount; ++i)
            sigaction(kStopSignals[i], &old_[i], nullptr);
    }
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

private:
    struct sigaction old_[kStopSignalCount] {};
};

// SIGCHLD blocked for its lifetime, so that the pool can sleep until a worker ends
// (wait_for_worker) instead of polling: a sweep point takes only a few milliseconds, and a
// polling interval would be a large share of it.
class ChildSignal {
public:
    ChildSignal() {
        sigemptyset(&chld_);
        sigaddset(&chld_, SIGCHLD);
        sigprocmask(SIG_BLOCK, &chld_, &old_);
    }
    ~ChildSignal() { sigprocmask(SIG_SETMASK, &old_, nullptr); }
    ChildSignal(const ChildSignal&) = delete;
    ChildSignal& operator=(const ChildSignal&) = delete;

    // Returns when a worker has ended (SIGCHLD pending, even from before the call), a stop
    // signal arrived (EINTR), or after 50 ms, so that per-job time limits are still checked.
    void wait_for_worker() const {
        timespec limit{0, 50'000'000};
        sigtimedwait(&chld_, nullptr, &limit);
    }
    // Workers start with the signal mask the parent had before the pool.
    void restore_in_child() const { sigprocmask(SIG_SETMASK, &old_, nullptr); }

private:
    sigset_t chld_, old_;
};

// An anonymous file in memory (memfd_create) that a worker writes and the parent reads once it
// has ended.  Files in a scratch directory cost more than the worker's fork: creating an ext4
// inode per job took a third of a sweep of short points.
class MemoryFile {
public:
    explicit MemoryFile(const char* name) : fd_(memfd_create(name, MFD_CLOEXEC)) {
        if (fd_ < 0)
            throw std::runtime_error(std::string("cannot create a memory file for a worker: ") +
                                     std::strerror(errno));
    }
    ~MemoryFile() {
        if (fd_ >= 0) close(fd_);
    }
    MemoryFile(MemoryFile&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    MemoryFile(const MemoryFile&) = delete;
    MemoryFile& operator=(const MemoryFile&) = delete;
    MemoryFile& operator=(MemoryFile&&) = delete;

    int fd() const { return fd_; }
    bool write_all(const std::string& text) const {
        for (std::size_t at = 0; at < text.size();) {
            ssize_t n = write(fd_, text.data() + at, text.size() - at);
            if (n <= 0) return false;
            at += static_cast<std::size_t>(n);
        }
        return true;
    }
    std::string text() const {
        std::string out;
        char buf[65536];
        for (off_t at = 0;;) {
            ssize_t n = pread(fd_, buf, sizeof buf, at);
            if (n <= 0) return out;
            out.append(buf, static_cast<std::size_t>(n));
            at += n;
        }
    }

private:
    int fd_;
};

// What a running worker writes: its results (or why it failed) and its stderr.
struct WorkerFiles {
    MemoryFile result{"pcisim-result"}, log{"pcisim-log"};
};

struct Running {
    std::size_t job;
    Clock::time_point started;
    std::unique_ptr<WorkerFiles> files;
    bool timed_out = false;
};

std::string last_line(const std::string& text) {
    std::istringstream in(text);
    std::string line, last;
    while (std::getline(in, line))
        if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
    return last;
}

// glibc's malloc keeps the chunks freed lately on one unsorted list, which the next allocation
// that no bin serves exactly sorts into the bins, writing to each chunk.  A worker's first
// allocations (its thread's, before the thread's own arena takes over: tools/sweep/own_arena.h)
// would do that in pages it shares with the parent and copy every one: 925,000 page faults in
// `validate --predictions` instead of 600,000, depending on what the parent had just freed.  A
// request that fits no small bin, below the size glibc maps on its own (128 KiB), has the
// parent sort them before it forks.
void sort_freed_chunks() {
    constexpr std::size_t kLargerThanSmallBins = 100000;
    std::free(std::malloc(kLargerThanSmallBins));
}

[[noreturn]] void child_main(const Job& job, std::size_t index, const WorkerFiles& files,
                             const ChildSignal& chld, pid_t parent) {
    // The parent decides what an interruption means; a worker just ends.
    for (int sig : kStopSignals) signal(sig, SIG_DFL);
    // A worker dies with the parent, whatever kills it (SIGKILL cannot be caught to clean up):
    // an orphan would use a CPU for a result nobody reads, beside the resumed sweep's workers.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);  // the parent died before the line above
    chld.restore_in_child();
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, STDOUT_FILENO);
    dup2(files.log.fd(), STDERR_FILENO);
    int code = 0;
    run_on_own_arena([&] {
        try {
            // The parent reads numbers from the results; a stray byte in a string (a scenario
            // name that is not UTF-8) must not make the whole point fail.
            std::string text =
                job(index).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            code = files.result.write_all(text) ? 0 : 1;
        } catch (const std::exception& e) {
            files.result.write_all(e.what());
            code = kJobThrew;
        }
    });
    std::fflush(nullptr);
    // _exit: the parent's atexit handlers and static destructors are not the child's to run.
    _exit(code);
}

JobOutcome interrupted() {
    JobOutcome o;
    o.error = kInterrupted;
    o.interrupted = true;
    return o;
}

JobOutcome outcome_of(int status, const Running& r, double timeout_s) {
    JobOutcome o;
    std::string log_hint = last_line(r.files->log.text());
    auto with_log = [&](std::string why) {
        return log_hint.empty() ? why : why + ": " + log_hint;
    };
    if (r.timed_out) {
        std::ostringstream why;
        why << "time limit of " << timeout_s << " s exceeded";
        o.error = why.str();
    } else if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        o.error = with_log("worker killed by signal " + std::to_string(sig) + " (" +
                           strsignal(sig) + ")");
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == kJobThrew) {
        o.error = r.files->result.text();
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        try {
            o.result = nlohmann::json::parse(r.files->result.text());
            o.ok = true;
        } catch (const nlohmann::json::exception& e) {
            o.error = std::string("worker wrote unreadable results: ") + e.what();
        }
    } else {
        o.error = with_log("worker exited with code " + std::to_string(WEXITSTATUS(status)));
    }
    return o;
}

}  // namespace

std::size_t default_parallelism() {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0 && CPU_COUNT(&allowed) > 0)
        return static_cast<std::size_t>(CPU_COUNT(&allowed));
    unsigned n = std::thread::hardware_concurrency();
    return n ? n : 1;
}

int run_jobs(std::size_t count, const Job& job, const PoolOptions& options,
             const OnDone& on_done) {
    StopSignals signals;
    const pid_t parent = getpid();
    ChildSignal chld;
    std::map<pid_t, Running> running;
    std::size_t next = 0;
    const std::size_t parallel = options.parallel ? options.parallel : 1;
    bool stop_requested = false;
    while (next < count || !running.empty()) {
        if (g_stop || stop_requested) break;
        while (next < count && running.size() < parallel) {
            std::size_t j = next++;
            std::unique_ptr<WorkerFiles> files;
            try {
                files = std::make_unique<WorkerFiles>();
            } catch (const std::runtime_error& e) {
                on_done(j, {false, {}, e.what()});
                continue;
            }
            std::cout.flush();  // or the child would write the parent's buffered output again
            std::cerr.flush();
            std::fflush(nullptr);
            sort_freed_chunks();
            pid_t pid = fork();
            if (pid == 0) child_main(job, j, *files, chld, parent);
            if (pid < 0)
                on_done(j, {false, {}, std::string("fork failed: ") + std::strerror(errno)});
            else
                running[pid] = {j, Clock::now(), std::move(files)};
        }
        bool reaped = false;
        for (auto it = running.begin(); it != running.end();) {
            int status = 0;
            pid_t done = waitpid(it->first, &status, WNOHANG);
            if (done == it->first) {
                JobOutcome o = outcome_of(status, it->second, options.timeout_s);
                // A worker that the interrupt killed did not fail by itself.
                if (!o.ok && g_stop) o = interrupted();
                on_done(it->second.job, o);
                it = running.erase(it);
                reaped = true;
                if (options.stop_requested && options.stop_requested()) stop_requested = true;
                continue;
            }
            double age = std::chrono::duration<double>(Clock::now() - it->second.started).count();
            if (options.timeout_s > 0 && age > options.timeout_s && !it->second.timed_out) {
                kill(it->first, SIGKILL);
                it->second.timed_out = true;
            }
            ++it;
        }
        if (!reaped) chld.wait_for_worker();
    }
    const int stopped_by = g_stop;
    for (const auto& [pid, r] : running) {
        int status = 0;
        JobOutcome o = interrupted();
        if (waitpid(pid, &status, WNOHANG) == pid) {
            // Finished before the interrupt: its results are good.
            JobOutcome finished = outcome_of(status, r, options.timeout_s);
            if (finished.ok) o = finished;
        } else {
            kill(pid, SIGKILL);
            waitpid(pid, nullptr, 0);
        }
        on_done(r.job, o);
    }
    for (; next < count; ++next) on_done(next, interrupted());
    return stopped_by;
}

}  // namespace pcisim::sweep
