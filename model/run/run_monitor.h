// Watches a run from inside the simulation, with one periodic event: the watchdog (no frame
// sent for too long while there are packets to send, none received while frames arrive: a
// deadlock), the wall-clock limit of a run, and the test-only crash injection
// (testing.crash_at_us).  A stop is an InvariantViolation naming what is waiting on what.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "core/pci_types.h"

namespace pcisim {

class RunMonitor : public sc_core::sc_module {
public:
    struct Config {
        Picos watchdog = 0;     // no progress for this long stops the run; 0 = off
        double max_wall_s = 0;  // wall-clock limit; 0 = none
        Picos crash_at = 0;     // fault injection: abort at this simulated time; 0 = never
    };
    // One thing the watchdog looks at: a count that must grow while progress is due.
    struct Watch {
        std::function<std::uint64_t()> progress;  // grows while it progresses
        std::function<bool()> progress_due;       // false while nothing is owed (pktgen done)
        std::string owed;                         // "packets wait to be sent", for the message
    };
    struct Probe {
        std::vector<Watch> watches;               // each on its own: one stalled stops the run
        std::function<std::string()> diagnose;    // who waits on what, one line
    };

    SC_HAS_PROCESS(RunMonitor);
    RunMonitor(sc_core::sc_module_name name, const Config& config, Probe probe);

private:
    void tick();   // SC_METHOD, every period_
    void crash();  // SC_METHOD at config_.crash_at

    Config config_;
    Probe probe_;
    Picos period_ = 0;
    std::vector<std::uint64_t> last_count_;  // per watch
    std::vector<Picos> last_progress_;
    std::chrono::steady_clock::time_point wall_start_;
    sc_core::sc_event tick_event_{"tick_due"}, crash_event_{"crash_due"};
};

}  // namespace pcisim
