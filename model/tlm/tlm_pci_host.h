// A PCI host bridge for TLM-2.0 platforms, as far as software needs one to find and reach a PCI
// device: a configuration-space router and the decoder of the devices' BARs.
//   config  configuration accesses in the ECAM layout (bus << 20 | device << 15 | function << 12 |
//           register; bus 0 only), 1, 2 or 4 bytes within a dword.  A slot or function with no
//           device reads all ones and drops writes (PCI 2.3 3.2.2.3.2: a master abort);
//   memory  the PCI memory space: an address on this socket is `memory_base` plus it on the bus
//           (the platform maps a window of its address space here, so that a BAR holds the
//           address the CPU uses); routed to the function whose memory BAR holds the access
//           while its command register has memory space enabled, else TLM_ADDRESS_ERROR_RESPONSE;
//   io      the PCI I/O space from `io_base`, decoded the same way with the I/O BARs and I/O
//           space enable.
// BARs are sized at the end of elaboration by the standard protocol (all ones written, the size
// read back, the value restored) through debug transport, and decoded anew after every
// configuration write, so that whatever software assigns is what the host routes.  Debug
// transport goes through all three sockets.  Each pass adds `hop_ps`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "core/pci_types.h"

namespace pcisim {

class TlmPciHost : public sc_core::sc_module {
public:
    TlmPciHost(sc_core::sc_module_name name, Picos hop_ps, std::uint64_t memory_base = 0,
               std::uint64_t io_base = 0);

    tlm_utils::simple_target_socket<TlmPciHost> config;
    tlm_utils::simple_target_socket<TlmPciHost> memory;
    tlm_utils::simple_target_socket<TlmPciHost> io;
    tlm_utils::multi_passthrough_initiator_socket<TlmPciHost> out;

    // A device in slot `device` of bus 0 whose `functions` configuration spaces are behind one
    // socket, `config_stride` bytes apart; its functions' memory BARs behind `memory` and I/O
    // BARs behind `io`, `memory_stride` and `io_stride` bytes apart (the E1000Tlm's regs, io and
    // config sockets are laid out so).
    using TargetSocket = tlm::tlm_base_target_socket_b<32, tlm::tlm_fw_transport_if<>,
                                                       tlm::tlm_bw_transport_if<>>;
    struct Device {
        unsigned device;
        unsigned functions;
        TargetSocket* config;
        std::uint64_t config_stride;
        TargetSocket* memory;
        std::uint64_t memory_stride;
        TargetSocket* io;
        std::uint64_t io_stride;
    };
    void add_device(const Device& d);

    // ECAM address of a configuration register.
    static std::uint64_t config_address(unsigned device, unsigned function, unsigned reg) {
        return std::uint64_t(device) << 15 | std::uint64_t(function) << 12 | reg;
    }

private:
    struct Attached {
        Device d;
        int config_out, memory_out, io_out;  // indices into `out`
    };
    struct Window {  // a BAR as software has programmed it
        bool io;
        std::uint64_t base, bytes;
        int out;                 // where the accesses go
        std::uint64_t offset;    // the function's place in that socket
    };
    struct BarSize {
        unsigned attached, function, bar;
        bool io, is64;
        std::uint64_t bytes;
    };

    void end_of_elaboration() override;
    void config_access(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    unsigned config_debug(tlm::tlm_generic_payload& t);
    void memory_access(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    unsigned memory_debug(tlm::tlm_generic_payload& t);
    void io_access(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    unsigned io_debug(tlm::tlm_generic_payload& t);
    // The device function a configuration address selects, or false (with the register).
    bool select(std::uint64_t addr, unsigned& attached, unsigned& function, unsigned& reg) const;
    std::uint32_t config_read(unsigned attached, unsigned function, unsigned reg, unsigned bytes);
    void config_write(unsigned attached, unsigned function, unsigned reg, unsigned bytes,
                      std::uint32_t value);
    void decode();  // the windows from the BARs and command registers as they are now
    const Window* window(bool io, std::uint64_t addr, std::uint64_t n) const;
    void forward(bool io, tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    unsigned forward_debug(bool io, tlm::tlm_generic_payload& t);

    Picos hop_ps_;
    std::uint64_t memory_base_, io_base_;
    std::vector<Attached> devices_;
    std::vector<BarSize> bars_;
    std::vector<Window> windows_;
};

}  // namespace pcisim
