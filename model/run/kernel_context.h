// The SystemC simulation context a Simulation elaborates and runs in.
//
// SystemC 2.3 elaborates a context once: after sc_start its module tree is fixed and a second
// elaboration is refused.  So that one process can run simulations one after the other (a
// sweep's worker runs many points; a test may run two), each Simulation after the process's
// first gets a context of its own, made current while it lives and deleted with it.  The
// process's first context is never deleted: the library's static events (sc_event::none,
// sc_process_handle's) were registered in it.  A fresh context starts as the first did (time
// zero, no processes, a resolution of 1 ps: the Simulation's, core/sim_time.h), so a simulation's results do not depend on what
// ran before it in the process (tests/test_kernel_context.cpp).
#pragma once

#include "core/pci_types.h"

namespace sc_core {
class sc_simcontext;
}

namespace pcisim {

class KernelContext {
public:
    KernelContext();
    ~KernelContext();
    KernelContext(const KernelContext&) = delete;
    KernelContext& operator=(const KernelContext&) = delete;

private:
    sc_core::sc_simcontext* own_ = nullptr;       // made for this simulation, else null
    sc_core::sc_simcontext* previous_ = nullptr;  // current before it, current again after
    Picos previous_ticks_per_ps_ = 1;              // the model's conversions for `previous_`
};

}  // namespace pcisim
