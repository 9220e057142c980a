#include "core/sim_time.h"

#include <cmath>
#include <sstream>

namespace pcisim {

namespace detail {
Picos kernel_ticks_per_ps = 1;
Picos picoseconds_of_ticks(Picos ticks) { return ticks / kernel_ticks_per_ps; }
sc_core::sc_time ticks_of_picoseconds(Picos t) {
    return sc_core::sc_time::from_value(t * kernel_ticks_per_ps);
}
}  // namespace detail

void set_picosecond_resolution() {
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    detail::kernel_ticks_per_ps = 1;
}

void use_picosecond_resolution() {
    static bool done = false;
    if (done) return;
    done = true;
    set_picosecond_resolution();
}

bool adopt_kernel_resolution(std::string& problem) {
    const double resolution_s = sc_core::sc_get_time_resolution().to_seconds();
    const double ticks = 1e-12 / resolution_s;
    const double whole = std::round(ticks);
    if (whole < 1 || std::fabs(ticks - whole) > 1e-6 * whole) {
        std::ostringstream o;
        o << "the kernel's time resolution is " << sc_core::sc_get_time_resolution()
          << "; pcisim's e1000 counts picoseconds and needs 1 ps or a finer resolution that "
             "divides it (call sc_core::sc_set_time_resolution(1, sc_core::SC_PS) before any "
             "sc_time is made)";
        problem = o.str();
        return false;
    }
    detail::kernel_ticks_per_ps = static_cast<Picos>(whole);
    return true;
}

}  // namespace pcisim
