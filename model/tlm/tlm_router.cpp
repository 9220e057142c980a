#include "tlm/tlm_router.h"

#include <stdexcept>

#include "core/sim_time.h"

namespace pcisim {

TlmRouter::TlmRouter(sc_core::sc_module_name name, Picos hop_ps)
    : sc_module(name), in("in"), out("out"), hop_ps_(hop_ps) {
    in.register_b_transport(this, &TlmRouter::route);
}

void TlmRouter::add_target(tlm::tlm_target_socket<>& target, std::uint64_t base,
                           std::uint64_t bytes) {
    for (const Range& r : ranges_)
        if (base < r.base + r.bytes && r.base < base + bytes)
            throw std::logic_error(std::string(name()) + ": the range of " + target.name() +
                                   " overlaps that of " + r.target);
    out.bind(target);
    ranges_.push_back({base, bytes, target.name()});
}

void TlmRouter::route(int, tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    std::uint64_t addr = t.get_address();
    std::uint64_t n = t.get_data_length();
    for (std::size_t i = 0; i < ranges_.size(); ++i) {
        const Range& r = ranges_[i];
        if (addr < r.base || n > r.bytes || addr - r.base > r.bytes - n) continue;
        delay += ps(hop_ps_);
        t.set_address(addr - r.base);
        out[static_cast<int>(i)]->b_transport(t, delay);
        t.set_address(addr);  // the initiator sees its own address again
        return;
    }
    t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

}  // namespace pcisim
