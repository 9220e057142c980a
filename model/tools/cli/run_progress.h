// A sign of life for a long 'pcisim run' on a terminal: the wall time so far, redrawn on one
// stderr line.  Simulation::run() reports nothing while it runs and its state belongs to the
// SystemC thread, so the line shows wall time only, from a thread of its own.  Silent unless
// stderr is a terminal (never in pipes, logs or tests) and until the run has taken kQuietS, and
// with -q.
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace pcisim::cli {

class RunProgress {
public:
    static constexpr double kQuietS = 2;  // a short run shows nothing

    explicit RunProgress(std::string label);  // e.g. "pcisim run: phi-32-33-82540"
    ~RunProgress();                           // clears the line it drew
    RunProgress(const RunProgress&) = delete;
    RunProgress& operator=(const RunProgress&) = delete;

private:
    void show();  // the thread: waits kQuietS, then redraws once a second until stopped
    std::string label_;
    std::mutex mutex_;
    std::condition_variable stop_;
    bool stopped_ = false;
    bool drawn_ = false;
    std::thread thread_;
};

}  // namespace pcisim::cli
