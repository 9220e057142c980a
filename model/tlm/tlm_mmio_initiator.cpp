#include "tlm/tlm_mmio_initiator.h"

#include <sstream>
#include <algorithm>


#include "core/sim_time.h"
#include "tlm/tlm_quantum_keeper.h"

namespace pcisim {

TlmMmioInitiator::TlmMmioInitiator(sc_core::sc_module_name name, TlmTiming timing,
                                   Picos quantum_ps)
    : sc_module(name), socket("socket"), timing_(timing), quantum_ps_(quantum_ps) {
    SC_THREAD(issue_thread);
}

void TlmMmioInitiator::mmio_write(std::uint64_t addr, std::uint32_t value, Picos at, unsigned) {
    accesses_.push_back({false, addr, value, at, 0, nullptr, 0});
    arrived_.notify(sc_core::SC_ZERO_TIME);
}

void TlmMmioInitiator::mmio_read(std::uint64_t addr, Picos at, unsigned, Picos return_latency,
                                 MmioClient* client, std::uint64_t tag) {
    accesses_.push_back({true, addr, 0, at, return_latency, client, tag});
    arrived_.notify(sc_core::SC_ZERO_TIME);
}


void TlmMmioInitiator::issue_thread() {
    OwnQuantumKeeper keeper(ps(quantum_ps_));
    Picos busy_until = 0;  // loose: where the last write's annotated time ended
    for (;;) {
        while (accesses_.empty()) wait(arrived_);
        Access a = accesses_.front();
        accesses_.pop_front();
        // The CPU may have issued it ahead of the kernel's time (cycles charged, not yet waited):
        // approximate timing waits until then, loose timing annotates it.
        // An access does not pass the one before it.
        const Picos now = now_ps(), issue = std::max(a.at, busy_until);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        if (issue > now) {
            if (timing_ == TlmTiming::Approximate) wait(ps(issue - now));
            else delay = ps(issue - now);
        }
        std::uint32_t value = a.value;
        payload_.set_command(a.is_read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
        payload_.set_address(a.addr);
        payload_.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
        payload_.set_data_length(4);
        payload_.set_streaming_width(4);
        payload_.set_byte_enable_ptr(nullptr);
        payload_.set_dmi_allowed(false);
        payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        socket->b_transport(payload_, delay);
        if (payload_.is_response_error()) {
            std::ostringstream o;
            o << name() << ": register " << (a.is_read ? "read" : "write") << " at 0x" << std::hex
              << a.addr << " failed: " << payload_.get_response_string();
            SC_REPORT_ERROR(tlm_report::kMmio, o.str().c_str());
        }
        if (timing_ == TlmTiming::Loose && !a.is_read) {
            busy_until = now + static_cast<Picos>(delay.value()) / detail::kernel_ticks_per_ps;
            keeper.set(delay);
            if (keeper.need_sync()) keeper.sync();
            continue;
        }
        keeper.reset();
        wait(delay);
        if (!a.is_read) continue;
        wait(ps(a.return_latency));
        a.client->mmio_read_done(a.tag, value);
    }
}
}  // namespace pcisim
