// The CPU's register accesses as a TLM-2.0 initiator: plugged into the host bridge's register
// route (HostBridge::bind_mmio) in place of a PCI segment's face, it issues each access the
// host bridge sends down as one 4-byte b_transport on `socket`, from its own thread, at the
// time the access arrives here.  Accesses go out in the order they came (a read does not pass
// a posted write: PCI 3.0 3.2.5; its platform has one CPU, so the CPU number tells nothing); a
// read's value goes back to the CPU `return_latency` after
// its b_transport and annotated delay are over.  With loose timing the accesses go out as soon
// as the CPU makes them, each annotated with how far the CPU is ahead of the kernel (the CPU
// charges its cycles before it waits them), kept in a quantum keeper: a write does not wait, a
// read waits for its value (the CPU is stalled on it in any case).
#pragma once

#include <cstdint>
#include <deque>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "platform/memory_path.h"
#include "tlm/tlm_reports.h"

namespace pcisim {

class TlmMmioInitiator : public sc_core::sc_module, public MmioTarget {
public:
    SC_HAS_PROCESS(TlmMmioInitiator);
    TlmMmioInitiator(sc_core::sc_module_name name, TlmTiming timing = TlmTiming::Approximate,
                     Picos quantum_ps = 1000000);

    tlm_utils::simple_initiator_socket<TlmMmioInitiator> socket;

    void mmio_write(std::uint64_t addr, std::uint32_t value, Picos at, unsigned cpu) override;
    void mmio_read(std::uint64_t addr, Picos at, unsigned cpu, Picos return_latency,
                   MmioClient* client, std::uint64_t tag) override;

private:
    struct Access {
        bool is_read;
        std::uint64_t addr;
        std::uint32_t value;
        Picos at;
        Picos return_latency;
        MmioClient* client;
        std::uint64_t tag;
    };
    void issue_thread();

    TlmTiming timing_;
    Picos quantum_ps_;
    std::deque<Access> accesses_;
    sc_core::sc_event arrived_{"arrived"};
    tlm::tlm_generic_payload payload_;
};

}  // namespace pcisim
