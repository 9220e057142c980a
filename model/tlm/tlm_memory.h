// A plain TLM-2.0 memory target in front of a HostMemory's bytes: reads and writes of any length
// (no byte enables), each annotated with the time the host bridge's memory takes for it, first
// cache line `first_line_ps` and each further line `line_ps` (reads), `line_ps` per line
// (writes).  Software running on the CPU reaches the same HostMemory directly, as an LT
// processor reaches DRAM through DMI; other initiators may ask for DMI too (the whole memory,
// read and write, with the first line's time as the read latency and one line's as the write
// latency) and read or write it by debug transport.
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "core/pci_types.h"

namespace pcisim {

class HostMemory;

struct TlmMemoryConfig {
    Picos first_line_ps = 150000;  // host.memory_latency_ns
    Picos line_ps = 30000;         // host.line_transfer_ns
    unsigned line_bytes = 64;      // host.cache_line_bytes
};

class TlmMemory : public sc_core::sc_module {
public:
    TlmMemory(sc_core::sc_module_name name, HostMemory& bytes, const TlmMemoryConfig& config);

    tlm_utils::simple_target_socket<TlmMemory> socket;

private:
    void access(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    unsigned debug(tlm::tlm_generic_payload& t);
    bool direct(tlm::tlm_generic_payload& t, tlm::tlm_dmi& dmi);

    HostMemory& bytes_;
    TlmMemoryConfig config_;
};

}  // namespace pcisim
