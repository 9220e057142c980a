#include "run/kernel_context.h"

#include <systemc>

#include "core/sim_time.h"

namespace pcisim {

namespace {
// Whether a simulation of this process has used the context it found (the first one).
bool g_first_context_used = false;
}  // namespace

KernelContext::KernelContext() {
    sc_core::sc_simcontext* current = sc_core::sc_get_curr_simcontext();
    if (!g_first_context_used && !current->elaboration_done()) {
        g_first_context_used = true;
        use_picosecond_resolution();
        return;
    }
    previous_ = current;
    previous_ticks_per_ps_ = detail::kernel_ticks_per_ps;
    own_ = new sc_core::sc_simcontext;
    sc_core::sc_curr_simcontext = own_;
    set_picosecond_resolution();  // a context's resolution is its own
}

KernelContext::~KernelContext() {
    if (!own_) return;
    // Deleted while current: its objects' and processes' clean-up may ask for the current one.
    delete own_;
    sc_core::sc_curr_simcontext = previous_;
    detail::kernel_ticks_per_ps = previous_ticks_per_ps_;
}

}  // namespace pcisim
