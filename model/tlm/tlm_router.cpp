#include "tlm/tlm_router.h"


#include <algorithm>

#include "core/sim_time.h"
#include "tlm/tlm_reports.h"

namespace pcisim {

TlmRouter::TlmRouter(sc_core::sc_module_name name, Picos hop_ps)
    : sc_module(name), in("in"), out("out"), hop_ps_(hop_ps) {
    in.register_b_transport(this, &TlmRouter::route);
    in.register_transport_dbg(this, &TlmRouter::route_debug);
    in.register_get_direct_mem_ptr(this, &TlmRouter::route_direct);
    out.register_invalidate_direct_mem_ptr(this, &TlmRouter::invalidate);
}

int TlmRouter::decode(std::uint64_t addr, std::uint64_t n) const {
    for (std::size_t i = 0; i < ranges_.size(); ++i) {
        const Range& r = ranges_[i];
        if (addr >= r.base && n <= r.bytes && addr - r.base <= r.bytes - n) return static_cast<int>(i);
    }
    return -1;
}

unsigned TlmRouter::route_debug(int, tlm::tlm_generic_payload& t) {
    const std::uint64_t addr = t.get_address();
    const int i = decode(addr, std::max(1u, t.get_data_length()));
    if (i < 0) return 0;
    t.set_address(addr - ranges_[i].base);
    const unsigned n = out[i]->transport_dbg(t);
    t.set_address(addr);
    return n;
}

bool TlmRouter::route_direct(int, tlm::tlm_generic_payload& t, tlm::tlm_dmi& dmi) {
    const std::uint64_t addr = t.get_address();
    const int i = decode(addr, 1);
    if (i < 0) return false;
    const Range& r = ranges_[i];
    t.set_address(addr - r.base);
    const bool granted = out[i]->get_direct_mem_ptr(t, dmi);
    t.set_address(addr);
    // Back to the initiator's addresses, within the range this router decodes to the target.
    const sc_dt::uint64 last = std::min<sc_dt::uint64>(dmi.get_end_address(), r.bytes - 1);
    dmi.set_start_address(dmi.get_start_address() + r.base);
    dmi.set_end_address(last + r.base);
    // An access through the pointer still costs what a pass through the router does.
    dmi.set_read_latency(dmi.get_read_latency() + ps(hop_ps_));
    dmi.set_write_latency(dmi.get_write_latency() + ps(hop_ps_));
    return granted;
}

void TlmRouter::invalidate(int to, sc_dt::uint64 start, sc_dt::uint64 end) {
    const Range& r = ranges_.at(static_cast<std::size_t>(to));
    for (unsigned k = 0; k < in.size(); ++k)
        in[static_cast<int>(k)]->invalidate_direct_mem_ptr(start + r.base, end + r.base);
}

void TlmRouter::add_target(tlm::tlm_target_socket<>& target, std::uint64_t base,
                           std::uint64_t bytes) {
    for (const Range& r : ranges_)
        if (base < r.base + r.bytes && r.base < base + bytes)
            SC_REPORT_ERROR(tlm_report::kRouter, (std::string(name()) + ": the range of " +
                                                  target.name() + " overlaps that of " + r.target)
                                                     .c_str());
    out.bind(target);
    ranges_.push_back({base, bytes, target.name()});
}

void TlmRouter::route(int, tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    const std::uint64_t addr = t.get_address();
    const int i = decode(addr, t.get_data_length());
    if (i < 0) return t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    delay += ps(hop_ps_);
    t.set_address(addr - ranges_[i].base);
    out[i]->b_transport(t, delay);
    t.set_address(addr);  // the initiator sees its own address again
}

}  // namespace pcisim
