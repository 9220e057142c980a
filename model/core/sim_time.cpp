#include "core/sim_time.h"

namespace pcisim {

void use_picosecond_resolution() {
    static bool done = false;
    if (done) return;
    done = true;
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
}

}  // namespace pcisim
