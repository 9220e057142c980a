#include "sweep/worker_pool.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

namespace pcisim::sweep {

namespace {

using Clock = std::chrono::steady_clock;

// Exit code of a child whose job threw: its message is in place of the results.
constexpr int kJobThrew = 3;

// Set by SIGINT/SIGTERM while run_jobs runs.
volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_stop_signal(int) { g_stop = 1; }

// Catches SIGINT and SIGTERM for its lifetime, and restores what was there before.
class StopSignals {
public:
    StopSignals() {
        g_stop = 0;
        struct sigaction sa {};
        sa.sa_handler = on_stop_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, &old_int_);
        sigaction(SIGTERM, &sa, &old_term_);
    }
    ~StopSignals() {
        sigaction(SIGINT, &old_int_, nullptr);
        sigaction(SIGTERM, &old_term_, nullptr);
    }
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

private:
    struct sigaction old_int_ {}, old_term_ {};
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

// What one worker process runs: one job, or a group of jobs in one elaboration.
struct Task {
    std::vector<std::size_t> jobs;
    bool grouped = false;
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
    Task task;
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

[[noreturn]] void child_main(const Job& job, const GroupJob& group_job, const Task& task,
                             const WorkerFiles& files, const ChildSignal& chld) {
    // The parent decides what an interruption means; a worker just ends.
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    chld.restore_in_child();
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, STDOUT_FILENO);
    dup2(files.log.fd(), STDERR_FILENO);
    int code = 0;
    try {
        // A group writes its results as one array, in the order of its jobs.
        nlohmann::json result;
        if (task.grouped) {
            std::vector<nlohmann::json> results = group_job(task.jobs);
            if (results.size() != task.jobs.size()) throw std::logic_error("a result per job");
            result = std::move(results);
        } else {
            result = job(task.jobs.front());
        }
        code = files.result.write_all(result.dump()) ? 0 : 1;
    } catch (const std::exception& e) {
        files.result.write_all(e.what());
        code = kJobThrew;
    }
    std::fflush(nullptr);
    // _exit: the parent's atexit handlers and static destructors are not the child's to run.
    _exit(code);
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

// Each job's outcome from a group that ended cleanly; empty if it did not.
std::vector<JobOutcome> group_outcomes(int status, const Running& r) {
    JobOutcome all = outcome_of(status, r, 0);
    if (!all.ok || !all.result.is_array() || all.result.size() != r.task.jobs.size()) return {};
    std::vector<JobOutcome> outcomes;
    for (auto& result : all.result) outcomes.push_back({true, std::move(result), {}});
    return outcomes;
}

}  // namespace

std::size_t default_parallelism() {
    unsigned n = std::thread::hardware_concurrency();
    return n ? n : 1;
}

std::size_t automatic_group(std::size_t count, std::size_t parallel) {
    std::size_t groups_wanted = 4 * std::max<std::size_t>(parallel, 1);
    return std::clamp<std::size_t>((count + groups_wanted - 1) / groups_wanted, 1, 4);
}

bool run_jobs(std::size_t count, const Job& job, const PoolOptions& options,
              const OnDone& on_done, const GroupJob& group_job) {
    StopSignals signals;
    ChildSignal chld;
    std::deque<Task> tasks;
    const std::size_t group = group_job ? std::max<std::size_t>(options.group, 1) : 1;
    for (std::size_t first = 0; first < count; first += group) {
        Task t;
        for (std::size_t j = first; j < std::min(count, first + group); ++j) t.jobs.push_back(j);
        t.grouped = t.jobs.size() > 1;
        tasks.push_back(std::move(t));
    }
    std::map<pid_t, Running> running;
    const std::size_t parallel = options.parallel ? options.parallel : 1;
    // A group that failed: its jobs go first, one process each, to find the failure.
    auto run_alone = [&](const Task& t) {
        for (auto it = t.jobs.rbegin(); it != t.jobs.rend(); ++it) tasks.push_front({{*it}, false});
    };
    auto finish = [&](const Running& r, int status) {
        if (!r.task.grouped) {
            std::size_t j = r.task.jobs.front();
            JobOutcome o = outcome_of(status, r, options.timeout_s);
            // A worker that the interrupt killed did not fail by itself.
            if (!o.ok && g_stop) o.error = kInterrupted;
            return on_done(j, o);
        }
        std::vector<JobOutcome> outcomes = group_outcomes(status, r);
        if (outcomes.empty() && !g_stop) {
            if (options.on_group_failed) options.on_group_failed(r.task.jobs);
            return run_alone(r.task);
        }
        for (std::size_t i = 0; i < r.task.jobs.size(); ++i)
            on_done(r.task.jobs[i], outcomes.empty() ? JobOutcome{false, {}, kInterrupted}
                                                     : outcomes[i]);
    };
    while (!tasks.empty() || !running.empty()) {
        if (g_stop) break;
        while (!tasks.empty() && running.size() < parallel) {
            Task t = std::move(tasks.front());
            tasks.pop_front();
            std::unique_ptr<WorkerFiles> files;
            try {
                files = std::make_unique<WorkerFiles>();
            } catch (const std::runtime_error& e) {
                for (std::size_t j : t.jobs) on_done(j, {false, {}, e.what()});
                continue;
            }
            std::cout.flush();  // or the child would write the parent's buffered output again
            std::cerr.flush();
            std::fflush(nullptr);
            pid_t pid = fork();
            if (pid == 0) child_main(job, group_job, t, *files, chld);
            if (pid < 0) {
                for (std::size_t j : t.jobs)
                    on_done(j, {false, {}, std::string("fork failed: ") + std::strerror(errno)});
            } else {
                running[pid] = {std::move(t), Clock::now(), std::move(files)};
            }
        }
        bool reaped = false;
        for (auto it = running.begin(); it != running.end();) {
            int status = 0;
            pid_t done = waitpid(it->first, &status, WNOHANG);
            if (done == it->first) {
                Running r = std::move(it->second);
                it = running.erase(it);
                finish(r, status);
                reaped = true;
                continue;
            }
            double age = std::chrono::duration<double>(Clock::now() - it->second.started).count();
            double limit = options.timeout_s * static_cast<double>(it->second.task.jobs.size());
            if (options.timeout_s > 0 && age > limit && !it->second.timed_out) {
                kill(it->first, SIGKILL);
                it->second.timed_out = true;
            }
            ++it;
        }
        if (!reaped) chld.wait_for_worker();
    }
    const bool interrupted = g_stop;
    for (auto& [pid, r] : running) {
        int status = 0;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            // Finished before the interrupt: its results are good.
            finish(r, status);
        } else {
            kill(pid, SIGKILL);
            waitpid(pid, nullptr, 0);
            for (std::size_t j : r.task.jobs) on_done(j, {false, {}, kInterrupted});
        }
    }
    for (const Task& t : tasks)
        for (std::size_t j : t.jobs) on_done(j, {false, {}, kInterrupted});
    return !interrupted;
}

}  // namespace pcisim::sweep
