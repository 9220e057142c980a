#include "run/run_monitor.h"

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "core/invariants.h"
#include "core/sim_time.h"

namespace pcisim {

namespace {
// Without a watchdog the wall clock is looked at every 100 us of simulated time.
constexpr Picos kWallCheckPeriod = 100'000'000;
}  // namespace

RunMonitor::RunMonitor(sc_core::sc_module_name name, const Config& config, Probe probe)
    : sc_module(name),
      config_(config),
      probe_(std::move(probe)),
      last_count_(probe_.watches.size(), 0),
      last_progress_(probe_.watches.size(), 0),
      wall_start_(std::chrono::steady_clock::now()) {
    // Eight looks per watchdog period: a stall is reported at most 1/8 late.
    period_ = config_.watchdog ? config_.watchdog / 8
                               : (config_.max_wall_s > 0 ? kWallCheckPeriod : 0);
    if (period_) {
        SC_METHOD(tick);
        sensitive << tick_event_;
        dont_initialize();
        tick_event_.notify(ps(period_));
    }
    if (config_.crash_at) {
        SC_METHOD(crash);
        sensitive << crash_event_;
        dont_initialize();
        crash_event_.notify(ps(config_.crash_at));
    }
}

void RunMonitor::tick() {
    Picos now = now_ps();
    if (config_.max_wall_s > 0) {
        double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_)
                          .count();
        if (wall > config_.max_wall_s) {
            std::ostringstream o;
            o << "wall-clock limit simulation.max_wall_s = " << config_.max_wall_s
              << " s exceeded after " << ps_to_us(now) << " us simulated; "
              << probe_.diagnose();
            throw InvariantViolation(name(), o.str());
        }
    }
    for (std::size_t i = 0; config_.watchdog && i < probe_.watches.size(); ++i) {
        const Watch& w = probe_.watches[i];
        std::uint64_t count = w.progress();
        if (count != last_count_[i] || !w.progress_due()) {
            last_count_[i] = count;
            last_progress_[i] = now;
        } else if (now - last_progress_[i] >= config_.watchdog) {
            std::ostringstream o;
            o << "no progress for " << ps_to_us(now - last_progress_[i])
              << " us (simulation.watchdog_us) while " << w.owed << "; " << probe_.diagnose();
            throw InvariantViolation(name(), o.str());
        }
    }
    tick_event_.notify(ps(period_));
}

void RunMonitor::crash() {
    std::cerr << "pcisim: testing.crash_at_us: aborting at " << ps_to_us(now_ps())
              << " us (fault injection)" << std::endl;
    // SIGABRT as std::abort() sends it; raised directly so that no sanitizer runtime writes
    // after the message above (the worker pool reports a crashed worker's last stderr line).
    std::raise(SIGABRT);
    std::abort();  // only if SIGABRT was caught and returned
}

}  // namespace pcisim
