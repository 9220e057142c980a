// SystemC time in integer picoseconds.  The model counts picoseconds (Picos); the kernel counts in
// units of its time resolution.  pcisim's own programs set the resolution to 1 ps before they
// create any sc_time, so a kernel tick is a picosecond; a platform that embeds the model (the
// TLM-2.0 component, docs/tlm.md) may run at a finer resolution, which the model adopts
// (adopt_kernel_resolution), so that its timing does not depend on the platform's choice.
#pragma once

#include <string>

#include <systemc>

#include "core/pci_types.h"

namespace pcisim {

void use_picosecond_resolution();  // idempotent; call before elaborating any module
// The same in a SystemC context just made (run/kernel_context.h): each has its own resolution.
void set_picosecond_resolution();

// Takes the kernel's time resolution for the model's conversions: 1 ps or any finer resolution
// that divides a picosecond (100 fs, 10 fs, 1 fs).  False, with `problem` saying why, for a
// coarser one (1 ns would round every bus clock of the model to whole nanoseconds).  Fixes the
// kernel's resolution (as any sc_time does).
bool adopt_kernel_resolution(std::string& problem);

namespace detail {
// Kernel ticks per picosecond: 1 unless a platform runs the kernel at a resolution finer than 1 ps.
extern Picos kernel_ticks_per_ps;
// The conversions at such a resolution, out of line: pcisim's own runs never take them.
[[gnu::cold]] Picos picoseconds_of_ticks(Picos ticks);
[[gnu::cold]] sc_core::sc_time ticks_of_picoseconds(Picos t);
}  // namespace detail

// The kernel's time without sc_time_stamp()'s call into the library: the model asks several
// times per simulated packet.  The current context: a process may run several simulations,
// each in a context of its own (run/kernel_context.h).
inline Picos now_ps() {
    const Picos ticks = sc_core::sc_get_curr_simcontext()->time_stamp().value();
    if (__builtin_expect(detail::kernel_ticks_per_ps != 1, 0)) return detail::picoseconds_of_ticks(ticks);
    return ticks;
}
inline sc_core::sc_time ps(Picos t) {
    if (__builtin_expect(detail::kernel_ticks_per_ps != 1, 0)) return detail::ticks_of_picoseconds(t);
    return sc_core::sc_time::from_value(t);
}
inline Picos ns_to_ps(double ns) { return static_cast<Picos>(ns * 1000.0 + 0.5); }
inline double ps_to_us(Picos t) { return static_cast<double>(t) * 1e-6; }
inline double ps_to_ns(Picos t) { return static_cast<double>(t) * 1e-3; }

}  // namespace pcisim
