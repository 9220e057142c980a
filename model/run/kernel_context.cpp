#include "run/kernel_context.h"

#include <systemc>

namespace pcisim {

namespace {
// Whether a simulation of this process has used the context it found (the first one).
bool g_first_context_used = false;
}  // namespace

KernelContext::KernelContext() {
    sc_core::sc_simcontext* current = sc_core::sc_get_curr_simcontext();
    if (!g_first_context_used && !current->elaboration_done()) {
        g_first_context_used = true;
        return;
    }
    previous_ = current;
    own_ = new sc_core::sc_simcontext;
    sc_core::sc_curr_simcontext = own_;
    // The time resolution is a context's own; pcisim's programs run at 1 ps (core/sim_time.h),
    // which use_picosecond_resolution() set in the first context only.
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
}

KernelContext::~KernelContext() {
    if (!own_) return;
    // Deleted while current: its objects' and processes' clean-up may ask for the current one.
    delete own_;
    sc_core::sc_curr_simcontext = previous_;
}

}  // namespace pcisim
