// The host bridge (memory controller hub): DMA reads pay an initial latency (DRAM access plus
// the coherence snoop of the CPU caches) and then stream whole cache lines at the memory rate,
// after the posted DMA writes ahead of them are committed; it is also where CPU register
// accesses leave for the I/O buses.
#pragma once

#include <string>

#include <cstdint>
#include <vector>

#include <systemc>

#include "platform/bridge_face.h"
#include "platform/memory_path.h"

namespace pcisim {

class ScenarioView;
struct ParamSpec;

// This module's scenario keys (unit, default, range, meaning), collected by run/schema.cpp.
std::vector<ParamSpec> host_params();  // host.*
class CpuCache;

// host.* (host_params() lists units, defaults and ranges).
struct HostConfig {
    std::uint64_t memory_bytes = 64ull << 20;
    unsigned cache_line_bytes = 64;
    Picos memory_latency_ps = 150000;  // to the first cache line of a DMA read
    Picos line_transfer_ps = 30000;    // each further line
    Picos mmio_down_ps = 100000;       // CPU to the host bridge's output
    Picos mmio_up_ps = 100000;         // a register read's value back into the CPU
    Picos write_commit_ps = 0;         // committing one line of a posted DMA write
    Picos read_jitter_ps = 0;          // a DMA read's extra latency is drawn from [0, this)
    Picos snoop_hit_ps = 150000;       // first line of a DMA read modified in a CPU cache
    Picos snoop_line_ps = 0;           // each further modified line holds the stream up this long
    std::uint64_t seed = 1;            // simulation.seed, for the draws
    // NUMA (the Opterons): memory split evenly over this many nodes, node n behind CPU n's
    // memory controller; the I/O hub hangs off node 0, and a DMA read or a CPU's miss of
    // another node's memory crosses one HyperTransport hop more.
    unsigned numa_nodes = 1;
    Picos numa_hop_ps = 0;
    unsigned node_of(std::uint64_t addr) const {
        return numa_nodes > 1 ? static_cast<unsigned>(addr / (memory_bytes / numa_nodes)) : 0;
    }
    FaceConfig face;                   // its face on the segment below it (host.* keys too)
    static HostConfig from(const ScenarioView& s);
};

class HostBridge : public sc_core::sc_module, public MemoryPath {
public:
    HostBridge(sc_core::sc_module_name name, const HostConfig& config);

    Picos read_time(std::uint64_t addr, std::uint32_t bytes) const override;
    // Posted DMA writes are committed to memory one after another, write_commit_ps per line
    // they touch; reads queue behind them (MemoryPath::read_start).
    void posted_write(std::uint64_t addr, std::uint32_t bytes, Picos at) override;
    Picos read_start(Picos at) const override;
    Picos read_jitter(std::uint64_t n) const override;
    // Coherent DMA: the CPU caches (platform/cpu_cache.h) this bridge snoops, once for every
    // line a DMA read touches.  A clean line comes from memory; a line modified in a CPU cache
    // is a snoop hit, supplied by that cache's implicit write-back.  The read's first line then
    // takes snoop_hit_ps instead of the memory latency; a further modified line holds the
    // stream up by snoop_line_ps (the write-back of that line takes the CPU bus in its turn, and
    // the lines are delivered in order, so the lines after it wait too).  A DMA write
    // invalidates the lines it covers.
    void snoop(CpuCache& cache) { caches_.push_back(&cache); }
    Snoop snoop_read(std::uint64_t addr, std::uint32_t bytes, Picos at) const override;
    void read_taken(std::uint64_t addr, std::uint32_t bytes, Picos at) override;
    std::uint64_t snoop_hits() const { return snoop_hits_; }  // modified lines DMA reads took
    // What the snoop hits added to the DMA reads, over memory (may be < 0: a cache faster
    // than memory), in ps.
    double snoop_extra_ps() const { return snoop_extra_ps_; }
    void reset_snoop_hits() { snoop_hits_ = 0; snoop_extra_ps_ = 0; }

    // Where register accesses go: the face on the devices' segment, `down` after the CPU issues
    // them (this bridge's and every bridge's on the way); a read's value is back at the CPU `up`
    // after the face has it.  Must be bound before the simulation starts (checked then).
    void bind_mmio(MmioTarget& face, Picos down, Picos up);
    // A CPU connects: the number its register accesses carry (MmioTarget: simultaneous
    // arrivals go on in this order).
    unsigned attach_cpu() { return cpus_++; }
    // `issued` is when CPU `cpu` issues the access (>= now: a CPU may be ahead of the kernel).
    void mmio_write(std::uint64_t addr, std::uint32_t value, Picos issued, unsigned cpu);  // posted
    void mmio_read(std::uint64_t addr, MmioClient* client, std::uint64_t tag, Picos issued,
                   unsigned cpu);

    const HostConfig& config() const { return config_; }

private:
    void end_of_elaboration() override;
    // Does a CPU cache hold line `line_number` (addr / cache_line_bytes) modified at `at`?
    bool modified_in_a_cache(std::uint64_t line_number, Picos at) const;

    HostConfig config_;
    MmioTarget* face_ = nullptr;
    Picos route_down_ = 0, route_up_ = 0;
    unsigned cpus_ = 0;
    Picos writes_committed_ = 0;  // the last posted write is in memory then
    std::vector<CpuCache*> caches_;
    std::uint64_t snoop_hits_ = 0;
    double snoop_extra_ps_ = 0;
};

}  // namespace pcisim
