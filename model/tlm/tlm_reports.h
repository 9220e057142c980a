// What the TLM-2.0 component and its example platform report through sc_report, and the two
// ways they keep time (docs/tlm.md).
#pragma once

namespace pcisim {

// sc_report message types of the TLM component.
namespace tlm_report {
constexpr const char* kTimeResolution = "/pcisim/e1000_tlm/time_resolution";
constexpr const char* kNic = "/pcisim/e1000_tlm/nic";  // a rule of the NIC broken (e.g. a ring overrun)
constexpr const char* kDmaError = "/pcisim/e1000_tlm/dma_error";
constexpr const char* kBusMasterDisabled = "/pcisim/e1000_tlm/bus_master_disabled";
constexpr const char* kRouter = "/pcisim/tlm_router";
constexpr const char* kMmio = "/pcisim/tlm_mmio";
constexpr const char* kPciHost = "/pcisim/tlm_pci_host";
}  // namespace tlm_report

// Approximate: every register access and DMA transfer is waited out at its time; loose: the
// initiators run ahead with quantum keepers and synchronize only when they must.
enum class TlmTiming { Approximate, Loose };

}  // namespace pcisim
