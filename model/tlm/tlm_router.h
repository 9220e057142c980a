// A simple TLM-2.0 interconnect: any number of initiators on `in`, targets added with the
// address range they decode.  A transaction goes to the target whose range holds all of its
// bytes, with the address made relative to the range's base, and `hop_ps` added to its delay;
// one that falls outside every range gets TLM_ADDRESS_ERROR_RESPONSE.  Debug transports and DMI
// requests are routed the same way (a DMI region is translated back to the initiator's addresses
// and cut to the target's range, its latencies one pass longer; an invalidation from a target reaches every initiator).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "core/pci_types.h"

namespace pcisim {

class TlmRouter : public sc_core::sc_module {
public:
    TlmRouter(sc_core::sc_module_name name, Picos hop_ps);

    tlm_utils::multi_passthrough_target_socket<TlmRouter> in;
    tlm_utils::multi_passthrough_initiator_socket<TlmRouter> out;

    // Binds `target` to `out` and decodes [base, base+bytes) to it; ranges must not overlap.
    void add_target(tlm::tlm_target_socket<>& target, std::uint64_t base, std::uint64_t bytes);

private:
    struct Range {
        std::uint64_t base, bytes;
        std::string target;
    };
    void route(int from, tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    unsigned route_debug(int from, tlm::tlm_generic_payload& t);
    bool route_direct(int from, tlm::tlm_generic_payload& t, tlm::tlm_dmi& dmi);
    void invalidate(int to, sc_dt::uint64 start, sc_dt::uint64 end);
    // The range holding all of [addr, addr + n), or -1.
    int decode(std::uint64_t addr, std::uint64_t n) const;

    Picos hop_ps_;
    std::vector<Range> ranges_;  // ranges_[i] is out[i]
};

}  // namespace pcisim
