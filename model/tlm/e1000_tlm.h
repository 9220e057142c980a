// The e1000 model as a TLM-2.0 component, for any SystemC/TLM-2.0 virtual platform (docs/tlm.md):
//   regs    a target socket for the memory BAR: one 32-bit register per b_transport, at offsets
//           from the BAR's base (port p's registers at p * E1000::kBarBytes);
//   io      a target socket for the I/O BARs: IOADDR at function * 8, IODATA 4 bytes after it;
//   config  a target socket for the configuration spaces: function f's 256 bytes at f * 256,
//           accessed as 1, 2 or 4 bytes within a dword (a config-space router maps bus/device/
//           function addresses onto it, model/tlm/tlm_pci_host.h);
//   dma     an initiator socket: every descriptor fetch, data read and descriptor write-back of
//           the NIC is one transfer carrying its bytes, and an MSI a 4-byte write;
//   irq     one interrupt line per port (INTA#, level: true while asserted).
// The adapter is only a transport.  It owns an E1000 and stands in for its bus (BusPort) and its
// view of host memory (DmaMemory); every rule of the NIC (one outstanding read, fetch only when
// the FIFO has room, write-back and interrupt moderation, the MAC and the wire) stays in the NIC.
//
// Two ways of keeping time (E1000TlmConfig::timing; docs/tlm.md compares them):
//   approximate  a register access takes effect at its annotated time: b_transport waits until
//                then; the DMA transfers go out one at a time, each waited out before the next.
//   loose        the platform's initiators run ahead with quantum keepers: a register write takes
//                effect at its annotated time without the initiator waiting (a posted write, as
//                PCI has it), a read answers at once with the NIC as it is at the kernel's time;
//                the DMA uses DMI where the memory grants it (bytes moved at the transfer's end,
//                the DMI latency as its time) and otherwise b_transport with a quantum keeper of
//                its own, and completes each transfer at its time by an event, not a wait.
// Errors are sc_reports with the message types below (SC_ERROR, or SC_FATAL for a time
// resolution the model cannot keep its timing in).
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
#include "tlm/tlm_reports.h"

namespace pcisim {

struct E1000TlmConfig {
    // Added to the annotated delay of a register access: the NIC's part of it (on a 66 MHz PCI
    // bus a single-dword access with medium DEVSEL and the NIC's wait states takes about 4
    // clocks).
    Picos register_access_ps = 60000;
    TlmTiming timing = TlmTiming::Approximate;
    // Loose timing: how far the DMA initiator's local time may run ahead of the kernel's.
    Picos quantum_ps = 1000000;
};

class E1000Tlm : public sc_core::sc_module, private BusPort, private DmaMemory {
public:
    SC_HAS_PROCESS(E1000Tlm);
    E1000Tlm(sc_core::sc_module_name name, const e1000::E1000Params& params,
             const E1000TlmConfig& timing = {});
    ~E1000Tlm() override;

    static constexpr unsigned kConfigBytesPerFunction = e1000::ConfigSpace::kBytes;
    static constexpr unsigned kIoBytesPerFunction = 8;

    tlm_utils::simple_target_socket<E1000Tlm> regs;
    // Optional: a platform that reaches the NIC only through its memory BAR leaves them unbound.
    tlm_utils::simple_target_socket_optional<E1000Tlm> io;
    tlm_utils::simple_target_socket_optional<E1000Tlm> config;
    tlm_utils::simple_initiator_socket<E1000Tlm> dma;
    sc_core::sc_vector<sc_core::sc_out<bool>> irq;  // irq[p]: port p's line; bind every one

    // Bytes of register space behind `regs` (the BAR a platform maps), and of the other two.
    std::uint64_t register_bytes() const { return nic_->ports() * E1000::kBarBytes; }
    std::uint64_t io_bytes() const { return nic_->ports() * kIoBytesPerFunction; }
    std::uint64_t config_bytes() const { return nic_->ports() * kConfigBytesPerFunction; }
    unsigned functions() const { return nic_->ports(); }
    // The NIC itself: counters, frames sent, the frame observer, frames from the wire.
    E1000& nic() { return *nic_; }
    const E1000& nic() const { return *nic_; }

private:
    struct Request {
        bool is_read;
        std::uint64_t addr;
        std::uint32_t bytes;
        std::uint64_t tag;
        Picos issued;
        bool msi = false;          // an MSI write (its data in `msi_data`), not the NIC's
        std::uint32_t msi_data = 0;
    };
    struct Completion {            // loose timing: a read whose end is due
        Request request;
        Picos end;
        bool dmi;                  // its bytes come through DMI at its end
        std::vector<std::uint8_t> data;
    };
    struct PostedWrite {           // loose timing: a register write due at `at`
        Picos at;
        bool io;
        std::uint64_t addr;
        std::uint32_t value;
    };
    struct IrqLine;  // the NIC's InterruptSink for one port: drives irq[p] or sends its MSI

    void register_access(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    void io_access(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    void config_access(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    unsigned register_debug(tlm::tlm_generic_payload& t);
    unsigned io_debug(tlm::tlm_generic_payload& t);
    unsigned config_debug(tlm::tlm_generic_payload& t);
    // A dword register access (memory BAR or I/O window) that passed the socket's checks.
    void access(bool io, tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    std::uint32_t apply(bool io, bool is_read, std::uint64_t addr, std::uint32_t value);
    void apply_posted_writes();  // SC_METHOD: loose timing, the writes now due
    void flush_posted_writes();  // before a read: every write issued before it takes effect
    void dma_thread();
    void complete_reads();       // SC_METHOD: loose timing, the reads now due
    void drive_irq();            // SC_METHOD: irq[p] follows port p's line
    void invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end);

    // BusPort: the NIC's requests, taken by dma_thread in order.
    int attach_master(BusMaster* master, const MasterConfig& config) override;
    void attach_target(BusTarget* target, std::uint64_t base, std::uint64_t size) override;
    void read(int master, std::uint64_t addr, std::uint32_t bytes, std::uint64_t tag) override;
    void write(int master, std::uint64_t addr, std::uint32_t bytes, std::uint64_t tag,
               std::uint32_t dword) override;
    // DmaMemory: the bytes of the request being completed.
    void read(std::uint64_t addr, void* out, std::uint64_t n) const override;
    void write(std::uint64_t addr, const void* in, std::uint64_t n) override;

    void request(Request r);
    // Where [addr, addr+n) is in the bytes of the request being completed; reports an error if
    // they are not its bytes (the NIC reading or writing what its request did not carry).
    std::size_t completing_offset(std::uint64_t addr, std::uint64_t n, bool for_read) const;
    void transport(tlm::tlm_command command, const Request& r, sc_core::sc_time& delay);
    void approximate_transfer(Request& r);
    void loose_transfer(Request& r, sc_core::sc_time& offset);
    bool dmi_for(const Request& r, tlm::tlm_dmi*& region);
    void nic_error(const std::exception& e) const;

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
    // Loose timing.
    std::deque<PostedWrite> posted_;       // by time
    sc_core::sc_event posted_due_{"posted_due"};
    std::deque<Completion> completions_;   // by end time
    sc_core::sc_event completion_due_{"completion_due"};
    Picos port_free_ = 0;                  // the last transfer's end
    std::vector<tlm::tlm_dmi> dmi_;        // regions the memory granted
    bool dmi_refused_ = false;             // the memory answered no: stop asking
};

}  // namespace pcisim
