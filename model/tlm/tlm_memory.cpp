#include "tlm/tlm_memory.h"

#include <algorithm>

#include "core/sim_time.h"
#include "platform/host_memory.h"

namespace pcisim {

TlmMemory::TlmMemory(sc_core::sc_module_name name, HostMemory& bytes,
                     const TlmMemoryConfig& config)
    : sc_module(name), socket("socket"), bytes_(bytes), config_(config) {
    socket.register_b_transport(this, &TlmMemory::access);
    socket.register_transport_dbg(this, &TlmMemory::debug);
    socket.register_get_direct_mem_ptr(this, &TlmMemory::direct);
}

unsigned TlmMemory::debug(tlm::tlm_generic_payload& t) {
    const std::uint64_t addr = t.get_address();
    if (addr >= bytes_.size()) return 0;
    const auto n = static_cast<unsigned>(std::min<std::uint64_t>(t.get_data_length(), bytes_.size() - addr));
    if (t.is_read()) bytes_.read(addr, t.get_data_ptr(), n);
    else if (t.is_write()) bytes_.write(addr, t.get_data_ptr(), n);
    return n;
}

bool TlmMemory::direct(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
    dmi.set_dmi_ptr(bytes_.span(0, bytes_.size()));
    dmi.set_start_address(0);
    dmi.set_end_address(bytes_.size() - 1);
    dmi.allow_read_write();
    dmi.set_read_latency(ps(config_.first_line_ps));
    dmi.set_write_latency(ps(config_.line_ps));
    return true;
}

void TlmMemory::access(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    std::uint64_t addr = t.get_address();
    std::uint64_t n = t.get_data_length();
    if (t.get_byte_enable_ptr()) {
        t.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        return;
    }
    if (t.get_streaming_width() < n) {
        t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    if (addr > bytes_.size() || n > bytes_.size() - addr) {
        t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    // Whole cache lines, as the host bridge reads them: one more for each boundary crossed.
    std::uint64_t first_line = addr / config_.line_bytes;
    std::uint64_t lines = (addr + (n ? n : 1) - 1) / config_.line_bytes - first_line + 1;
    if (t.is_read()) {
        bytes_.read(addr, t.get_data_ptr(), n);
        delay += ps(config_.first_line_ps + (lines - 1) * config_.line_ps);
    } else if (t.is_write()) {
        bytes_.write(addr, t.get_data_ptr(), n);
        delay += ps(lines * config_.line_ps);
    }
    t.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace pcisim
