#include "tools/cli/run_progress.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "tools/output/verbosity.h"

namespace pcisim::cli {

RunProgress::RunProgress(std::string label) : label_(std::move(label)) {
    if (isatty(STDERR_FILENO) && !output::quiet()) thread_ = std::thread(&RunProgress::show, this);
}

RunProgress::~RunProgress() {
    if (!thread_.joinable()) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopped_ = true;
    }
    stop_.notify_one();
    thread_.join();
    // The results follow on stdout: leave no half line on the terminal.
    if (drawn_) std::fprintf(stderr, "\r\033[K");
}

void RunProgress::show() {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    std::unique_lock<std::mutex> lock(mutex_);
    auto next = start + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(kQuietS));
    while (!stop_.wait_until(lock, next, [this] { return stopped_; })) {
        const double s = std::chrono::duration<double>(Clock::now() - start).count();
        // stdio, not std::cerr: this thread must not share an iostream with the SystemC one.
        std::fprintf(stderr, "\r%s: simulating, %.0f s of wall time\033[K", label_.c_str(), s);
        std::fflush(stderr);
        drawn_ = true;
        next += std::chrono::seconds(1);
    }
}

}  // namespace pcisim::cli
