// The CPU's event-avoidance shortcut, apart from what the CPU does: when may it run its next
// iteration of the software ahead of the kernel's time, without waiting out the cycles charged
// so far?  Only while nothing could tell the difference (docs/architecture.md, "Events the NIC
// and the CPU do without"):
//   - the simulation allows it (no recording watches every step, and this is the only CPU
//     handing register accesses to the host bridge, so their order of arrival is kept);
//   - the device promises that its interrupt line stays low (InterruptSink::set_line_quiet:
//     nothing it can raise is unmasked) and the line is low;
//   - the timer is not due by the CPU's own time, and that time is before the horizon (the next
//     time the simulation reads counters);
//   - the software's next iteration is quiet (CpuSoftware::quiet).
// The recorded runs of tests/test_end_to_end.cpp take no shortcut and must give the same
// results as the runs that do.
#pragma once

#include "core/pci_types.h"

namespace pcisim {

class CpuSoftware;

class CpuRunAhead {
public:
    void allow(bool on) { allowed_ = on; }
    void set_horizon(Picos t) { horizon_ = t; }
    Picos horizon() const { return horizon_; }
    void set_line_quiet(bool quiet) { line_quiet_ = quiet; }

    struct CpuState {
        Picos own_time;       // the kernel's time plus the cycles charged but not waited for
        Picos pending;        // those cycles
        bool line;            // INTA# as the CPU sees it
        Picos timer_period;   // 0: no timer
        Picos next_timer;
    };
    bool may_run_ahead(const CpuState& cpu, const CpuSoftware& software) const;

private:
    bool allowed_ = false;
    bool line_quiet_ = false;  // the device promises the line stays low
    Picos horizon_ = 0;
};

}  // namespace pcisim
