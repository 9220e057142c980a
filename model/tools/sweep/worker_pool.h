// Runs jobs in forked worker processes, at most N at a time.  A worker runs one job after
// another (each simulation elaborates in a SystemC context of its own: run/kernel_context.h),
// which spares each job a fork and the first touches of fresh pages; a crash, a signal or a hang
// in one job becomes that job's failure instead of the sweep's, and a worker whose job failed is
// replaced by a new one.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

namespace pcisim::sweep {

struct JobOutcome {
    bool ok = false;
    nlohmann::json result;  // the job's JSON when ok
    std::string error;      // why not, one line
    bool interrupted = false;  // a stop signal kept it from finishing (error is kInterrupted)
};

// Thrown inside a job for an expected failure: its message becomes the outcome's error.
// Any other exception, a signal, a non-zero exit or the time limit also fails the job.
using Job = std::function<nlohmann::json(std::size_t job)>;
using OnDone = std::function<void(std::size_t job, const JobOutcome&)>;

struct PoolOptions {
    std::size_t parallel = 1;   // worker processes at once
    double timeout_s = 0;       // per job; 0 = no limit
    // Asked after each finished job: true stops the pool as a stop signal does (the running
    // workers are killed, the jobs not finished reported kInterrupted), but run_jobs returns 0.
    std::function<bool()> stop_requested;
};

// The error of the jobs that SIGINT or SIGTERM stopped or kept from starting.
constexpr const char* kInterrupted = "interrupted";

// Runs job(0) .. job(count-1) in child processes, and calls on_done in the parent as each
// finishes (in completion order).  A job must not depend on what on_done changes: its worker may
// have been forked before.  The workers' stdout and stderr are kept away from the terminal; the
// last line a job wrote to stderr explains its crash.  SIGINT, SIGTERM, SIGHUP or SIGQUIT stops
// it cleanly, and so does SIGPIPE (the reader of a piped report went away): the running workers
// are killed, and every job not finished is reported failed with kInterrupted (on_done is still
// called once per job).  Workers die with the parent, even when it is killed with SIGKILL.
// Returns 0 when every job ran, else the signal that stopped it.
int run_jobs(std::size_t count, const Job& job, const PoolOptions& options,
              const OnDone& on_done);

// The CPUs this process may run on (its affinity mask: what a batch scheduler, taskset or a
// cgroup cpuset gave it, not the machine's core count), at least 1.
std::size_t default_parallelism();

}  // namespace pcisim::sweep
