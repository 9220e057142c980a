// The e1000 model as a TLM-2.0 component, for any SystemC/TLM-2.0 virtual platform (docs/tlm.md):
//   regs  a target socket for the memory BAR: one 32-bit register per b_transport, at offsets
//         from the BAR's base (port p's registers at p * E1000::kBarBytes);
//   dma   an initiator socket: every descriptor fetch, data read and descriptor write-back of
//         the NIC is one b_transport carrying its bytes;
//   irq   one interrupt line per port (INTA#, level: true while asserted).
// The adapter is only a transport.  It owns an E1000 and stands in for its bus (BusPort) and its
// view of host memory (DmaMemory); every rule of the NIC (one outstanding read, fetch only when
// the FIFO has room, write-back and interrupt moderation, the MAC and the wire) stays in the NIC.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "core/dma_memory.h"
#include "core/pci_types.h"
#include "e1000/e1000.h"

namespace pcisim {

struct E1000TlmConfig {
    // Added to the annotated delay of a register access: the NIC's part of it (on a 66 MHz PCI
    // bus a single-dword access with medium DEVSEL and the NIC's wait states takes about 4
    // clocks).
    Picos register_access_ps = 60000;
};

class E1000Tlm : public sc_core::sc_module, private BusPort, private DmaMemory {
public:
    SC_HAS_PROCESS(E1000Tlm);
    E1000Tlm(sc_core::sc_module_name name, const e1000::E1000Params& params,
             const E1000TlmConfig& config = {});
    ~E1000Tlm() override;

    tlm_utils::simple_target_socket<E1000Tlm> regs;
    tlm_utils::simple_initiator_socket<E1000Tlm> dma;
    sc_core::sc_vector<sc_core::sc_out<bool>> irq;  // irq[p]: port p's line; bind every one

    // Bytes of register space behind `regs` (the BAR a platform maps).
    std::uint64_t register_bytes() const { return nic_->ports() * E1000::kBarBytes; }
    // The NIC itself: counters, frames sent, the frame observer.
    E1000& nic() { return *nic_; }
    const E1000& nic() const { return *nic_; }

private:
    // A register access takes effect at its annotated time: b_transport waits until then (the
    // NIC's DMA starts from the instant TDT moves), so it must be called from a thread, as
    // TLM-2.0 allows any b_transport to wait.
    void register_access(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    void dma_thread();
    void drive_irq();  // SC_METHOD: irq[p] follows port p's line

    // BusPort: the NIC's requests, taken by dma_thread in order.
    int attach_master(BusMaster* master, const MasterConfig& config) override;
    void attach_target(BusTarget* target, std::uint64_t base, std::uint64_t size) override;
    void read(int master, std::uint64_t addr, std::uint32_t bytes, std::uint64_t tag) override;
    void write(int master, std::uint64_t addr, std::uint32_t bytes, std::uint64_t tag,
               std::uint32_t dword) override;
    // DmaMemory: the bytes of the request being completed.
    void read(std::uint64_t addr, void* out, std::uint64_t n) const override;
    void write(std::uint64_t addr, const void* in, std::uint64_t n) override;

    struct Request {
        bool is_read;
        std::uint64_t addr;
        std::uint32_t bytes;
        std::uint64_t tag;
        Picos issued;
    };
    struct IrqLine;  // the NIC's InterruptSink for one port: drives irq[p]

    // Where [addr, addr+n) is in the bytes of the request being completed; throws if they are
    // not its bytes (the NIC reading or writing what its request did not carry).
    std::size_t completing_offset(std::uint64_t addr, std::uint64_t n, bool for_read) const;
    void transport(tlm::tlm_command command, const Request& r);

    E1000TlmConfig config_;
    BusMaster* master_ = nullptr;
    BusTarget* registers_ = nullptr;
    std::vector<std::unique_ptr<IrqLine>> irq_lines_;
    sc_core::sc_event irq_changed_{"irq_changed"};
    std::unique_ptr<E1000> nic_;
    std::deque<Request> requests_;
    sc_core::sc_event requested_{"requested"};
    const Request* completing_ = nullptr;  // inside read_done / write_done
    std::uint32_t completing_written_ = 0;
    std::vector<std::uint8_t> data_;       // the bytes of the request being transported
    tlm::tlm_generic_payload payload_;
};

}  // namespace pcisim
