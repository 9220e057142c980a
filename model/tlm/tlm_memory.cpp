#include "tlm/tlm_memory.h"

#include "core/sim_time.h"
#include "platform/host_memory.h"

namespace pcisim {

TlmMemory::TlmMemory(sc_core::sc_module_name name, HostMemory& bytes,
                     const TlmMemoryConfig& config)
    : sc_module(name), socket("socket"), bytes_(bytes), config_(config) {
    socket.register_b_transport(this, &TlmMemory::access);
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
