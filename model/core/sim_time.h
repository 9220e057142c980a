// SystemC time in integer picoseconds.  Every process sets the kernel resolution to 1 ps before
// it creates any sc_time, so sc_time::value() is picoseconds throughout.
#pragma once

#include <systemc>

#include "core/pci_types.h"

namespace pcisim {

void use_picosecond_resolution();  // idempotent; call before elaborating any module

// The kernel's time without sc_time_stamp()'s call into the library: the model asks several
// times per simulated packet.  A process has one simulation context (SystemC 2.3).
inline Picos now_ps() {
    static sc_core::sc_simcontext* const context = sc_core::sc_get_curr_simcontext();
    return context->time_stamp().value();
}
inline sc_core::sc_time ps(Picos t) { return sc_core::sc_time::from_value(t); }
inline Picos ns_to_ps(double ns) { return static_cast<Picos>(ns * 1000.0 + 0.5); }
inline double ps_to_us(Picos t) { return static_cast<double>(t) * 1e-6; }
inline double ps_to_ns(Picos t) { return static_cast<double>(t) * 1e-3; }

}  // namespace pcisim
