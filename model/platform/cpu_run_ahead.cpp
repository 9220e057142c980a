#include "platform/cpu_run_ahead.h"

#include "platform/cpu.h"

namespace pcisim {

bool CpuRunAhead::may_run_ahead(const CpuState& cpu, const CpuSoftware& software) const {
    if (!allowed_ || cpu.pending == 0 || cpu.line || !line_quiet_) return false;
    return cpu.own_time < horizon_ && (cpu.timer_period == 0 || cpu.own_time < cpu.next_timer) &&
           software.has_work() && software.quiet();
}

}  // namespace pcisim
