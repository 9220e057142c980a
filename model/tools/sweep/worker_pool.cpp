#include "tools/sweep/worker_pool.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

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
    // Empty again, for the worker's next job.
    void clear() const {
        if (ftruncate(fd_, 0) == 0) lseek(fd_, 0, SEEK_SET);
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

// What a worker writes for its current job: its results (or why it failed) and its stderr.
struct WorkerFiles {
    MemoryFile result{"pcisim-result"}, log{"pcisim-log"};
};

// What a worker tells the parent when a job has ended: which, and the exit code it would have
// had as a process of its own (0, or kJobThrew, or 1 when the results could not be written).
struct JobEnded {
    std::uint64_t job;
    std::int64_t code;
};

// send, not write: a peer that has gone makes it fail with EPIPE instead of raising SIGPIPE,
// which the parent takes for a stop signal (the reader of its report went away).
bool send_exactly(int fd, const void* data, std::size_t size) {
    const char* p = static_cast<const char*>(data);
    for (std::size_t at = 0; at < size;) {
        ssize_t n = send(fd, p + at, size - at, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        at += static_cast<std::size_t>(n);
    }
    return true;
}

// False at the end of the file (the other side closed) or on an error.
bool read_exactly(int fd, void* data, std::size_t size) {
    char* p = static_cast<char*>(data);
    for (std::size_t at = 0; at < size;) {
        ssize_t n = read(fd, p + at, size - at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        at += static_cast<std::size_t>(n);
    }
    return true;
}

// A worker process, the parent's end of the socket between them (job numbers go to the worker,
// a JobEnded per job comes back; the end of the stream when the worker died) and its files.
struct Worker {
    pid_t pid = -1;
    int channel = -1;
    std::unique_ptr<WorkerFiles> files;
    bool busy = false;
    std::size_t job = 0;
    Clock::time_point started;
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

// Runs one job; the exit code a process of its own would have had.
int run_one(const Job& job, std::size_t index, const WorkerFiles& files) {
    files.result.clear();
    files.log.clear();
    try {
        // The parent reads numbers from the results; a stray byte in a string (a scenario
        // name that is not UTF-8) must not make the whole point fail.
        std::string text =
            job(index).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        return files.result.write_all(text) ? 0 : 1;
    } catch (const std::exception& e) {
        files.result.write_all(e.what());
        return kJobThrew;
    }
}

// The worker: runs the jobs the parent sends until the parent closes the socket or a job fails
// (a failed job may leave its simulation half built; a new worker takes the next job).
// `others` are the descriptors of the other workers' sockets and files, inherited with the fork:
// held open here, a socket would keep the parent from seeing that its worker died.
[[noreturn]] void worker_main(const Job& job, int channel, const WorkerFiles& files,
                              const std::vector<int>& others, pid_t parent) {
    // The parent decides what an interruption means; a worker just ends.
    for (int sig : kStopSignals) signal(sig, SIG_DFL);
    // A worker dies with the parent, whatever kills it (SIGKILL cannot be caught to clean up):
    // an orphan would use a CPU for a result nobody reads, beside the resumed sweep's workers.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);  // the parent died before the line above
    for (int fd : others) close(fd);
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, STDOUT_FILENO);
    dup2(files.log.fd(), STDERR_FILENO);
    int code = 0;
    run_on_own_arena([&] {
        for (std::uint64_t index; read_exactly(channel, &index, sizeof index);) {
            code = run_one(job, static_cast<std::size_t>(index), files);
            std::cout.flush();
            std::fflush(nullptr);
            const JobEnded message{index, code};
            if (!send_exactly(channel, &message, sizeof message)) code = 1;
            if (code != 0) return;
        }
    });
    // _exit: the parent's atexit handlers and static destructors are not the child's to run.
    _exit(code);
}

JobOutcome interrupted() {
    JobOutcome o;
    o.error = kInterrupted;
    o.interrupted = true;
    return o;
}

std::string with_log(std::string why, const Worker& w) {
    std::string hint = last_line(w.files->log.text());
    return hint.empty() ? why : why + ": " + hint;
}

// The outcome of a job that its worker reported ended with `code`.
JobOutcome outcome_of_code(int code, const Worker& w) {
    JobOutcome o;
    if (code == kJobThrew) {
        o.error = w.files->result.text();
    } else if (code == 0) {
        try {
            o.result = nlohmann::json::parse(w.files->result.text());
            o.ok = true;
        } catch (const nlohmann::json::exception& e) {
            o.error = std::string("worker wrote unreadable results: ") + e.what();
        }
    } else {
        o.error = with_log("worker exited with code " + std::to_string(code), w);
    }
    return o;
}

// The outcome of a job whose worker ended (waitpid's status) before it reported the job.
JobOutcome outcome_of_death(int status, const Worker& w, double timeout_s) {
    JobOutcome o;
    if (w.timed_out) {
        std::ostringstream why;
        why << "time limit of " << timeout_s << " s exceeded";
        o.error = why.str();
    } else if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        o.error = with_log(
            "worker killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")", w);
    } else {
        o = outcome_of_code(WEXITSTATUS(status), w);
    }
    return o;
}

// Forks a worker into `w`; false, with `error` saying why, when it could not.
bool start_worker(Worker& w, const std::vector<Worker>& all, const Job& job, pid_t parent,
                  std::string& error) {
    try {
        w.files = std::make_unique<WorkerFiles>();
    } catch (const std::runtime_error& e) {
        error = e.what();
        return false;
    }
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
        error = std::string("cannot create a socket for a worker: ") + std::strerror(errno);
        w.files.reset();
        return false;
    }
    std::vector<int> others{ends[0]};
    for (const Worker& o : all)
        if (o.pid > 0)
            others.insert(others.end(), {o.channel, o.files->result.fd(), o.files->log.fd()});
    std::cout.flush();  // or the child would write the parent's buffered output again
    std::cerr.flush();
    std::fflush(nullptr);
    sort_freed_chunks();
    pid_t pid = fork();
    if (pid == 0) worker_main(job, ends[1], *w.files, others, parent);
    close(ends[1]);
    if (pid < 0) {
        error = std::string("fork failed: ") + std::strerror(errno);
        close(ends[0]);
        w.files.reset();
        return false;
    }
    w.pid = pid;
    w.channel = ends[0];
    return true;
}

// Waits for a worker that has ended or is ending; its wait status.
int reap(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

// Closes the parent's end of a worker's socket (an idle worker then ends) and waits for it.
void retire(Worker& w, bool kill_it) {
    if (kill_it) kill(w.pid, SIGKILL);
    close(w.channel);
    reap(w.pid);
    w = Worker{};
}

// Whether the worker has said something (a JobEnded, or the end of the stream) not yet read.
bool has_spoken(const Worker& w) {
    pollfd check{w.channel, POLLIN, 0};
    return poll(&check, 1, 0) > 0;
}

// Kills and waits for the workers still there, should run_jobs end by an exception (on_done's):
// an idle worker would otherwise wait for a job for as long as the parent lives.
struct RetireAll {
    std::vector<Worker>& workers;
    ~RetireAll() {
        for (Worker& w : workers)
            if (w.pid > 0) retire(w, true);
    }
};

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
    std::vector<Worker> workers(std::min(count, options.parallel ? options.parallel : 1));
    RetireAll retire_all{workers};
    std::size_t next = 0, running = 0;
    bool stop_requested = false;
    auto report = [&](std::size_t j, JobOutcome o) {
        // A worker that the interrupt killed did not fail by itself.
        if (!o.ok && g_stop) o = interrupted();
        on_done(j, o);
        if (options.stop_requested && options.stop_requested()) stop_requested = true;
    };
    while (next < count || running > 0) {
        if (g_stop || stop_requested) break;
        for (Worker& w : workers) {
            while (!w.busy && next < count) {
                const std::size_t j = next++;
                std::string error;
                // An idle worker that has spoken has died (killed from outside, say): it must
                // not be handed a job it would be blamed for.
                if (w.pid > 0 && has_spoken(w)) retire(w, true);
                if (w.pid < 0 && !start_worker(w, workers, job, parent, error)) {
                    on_done(j, {false, {}, error});
                    continue;
                }
                // Should it die between the check above and this send, the poll below finds it
                // dead, and the job fails as if it had died running it.
                const std::uint64_t index = j;
                send_exactly(w.channel, &index, sizeof index);
                w.busy = true;
                w.job = j;
                w.started = Clock::now();
                w.timed_out = false;
                ++running;
            }
        }
        // Sleep until a worker reports or dies, a stop signal arrives (EINTR), or 50 ms have
        // passed, so that per-job time limits are still checked.
        std::vector<pollfd> watched;
        std::vector<Worker*> watched_worker;
        for (Worker& w : workers)
            if (w.busy) {
                watched.push_back({w.channel, POLLIN, 0});
                watched_worker.push_back(&w);
            }
        if (watched.empty()) continue;
        if (poll(watched.data(), watched.size(), 50) > 0) {
            for (std::size_t k = 0; k < watched.size(); ++k) {
                if (!watched[k].revents) continue;
                Worker& w = *watched_worker[k];
                const std::size_t j = w.job;
                w.busy = false;
                --running;
                JobEnded message{};
                if (read_exactly(w.channel, &message, sizeof message)) {
                    JobOutcome o = outcome_of_code(static_cast<int>(message.code), w);
                    // It ends after a failed job; one killed for its time limit just after it
                    // reported is gone too.
                    if (message.code != 0 || w.timed_out) retire(w, false);
                    report(j, o);
                } else {
                    JobOutcome o = outcome_of_death(reap(w.pid), w, options.timeout_s);
                    close(w.channel);
                    w = Worker{};
                    report(j, o);
                }
            }
        }
        for (Worker& w : workers) {
            if (!w.busy || options.timeout_s <= 0 || w.timed_out) continue;
            double age = std::chrono::duration<double>(Clock::now() - w.started).count();
            if (age > options.timeout_s) {
                kill(w.pid, SIGKILL);
                w.timed_out = true;
            }
        }
    }
    const int stopped_by = g_stop;
    for (Worker& w : workers) {
        if (w.pid < 0) continue;
        if (!w.busy) {
            retire(w, false);
            continue;
        }
        // Finished before the interrupt: its results are good.
        JobOutcome o = interrupted();
        JobEnded message{};
        if (has_spoken(w) && read_exactly(w.channel, &message, sizeof message)) {
            JobOutcome finished = outcome_of_code(static_cast<int>(message.code), w);
            if (finished.ok) o = finished;
        }
        const std::size_t j = w.job;
        retire(w, true);
        on_done(j, o);
    }
    for (; next < count; ++next) on_done(next, interrupted());
    return stopped_by;
}

}  // namespace pcisim::sweep
