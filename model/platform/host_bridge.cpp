#include "platform/host_bridge.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "platform/cpu_cache.h"
#include "config/scenario_view.h"
#include "config/param_spec.h"
#include "core/sim_time.h"

namespace pcisim {

std::vector<ParamSpec> host_params() {
    std::vector<ParamSpec> p = {
        integer("host.memory_mib", "MiB", 64, 1, 4096, "Simulated host memory size."),
        one_of_integers("host.cache_line_bytes", "bytes", 64, {32, 64, 128},
                        "CPU cache line: the unit the host bridge reads memory in."),
        integer("host.numa_nodes", "nodes", 1, 1, 8,
                "Memory nodes (NUMA, the Opterons' memory controller per CPU): host memory is "
                "split evenly, node n behind CPU n; slab pages come from the allocating CPU's "
                "node. 1: one memory for all (also a BIOS's node interleaving, which 2.6.9 sees "
                "as one node)."),
        number("host.numa_hop_ns", "ns", 0, 0, 1000,
               "With host.numa_nodes > 1: what a DMA read of memory behind another node than the "
               "I/O hub's (node 0), or a CPU's miss of another node's memory, takes more (one "
               "HyperTransport hop each way)."),
        number("host.memory_latency_ns", "ns", 150, 0, 5000,
               "DMA read initial latency at the host bridge: DRAM access plus CPU cache "
               "snoop, until the first cache line is ready."),
        number("host.line_transfer_ns", "ns", 30, 0, 1000,
               "Time to stream each further cache line from memory (memory rate)."),
        number("host.write_commit_ns", "ns", 0, 0, 2000,
               "Time to commit one cache line of a posted DMA write to memory (a partial line, "
               "such as a descriptor write-back, is a read-modify-write with a snoop). A DMA "
               "read arriving behind posted writes waits until they are committed."),
        number("host.read_jitter_ns", "ns", 0, 0, 1000,
               "Spread of DMA read latency: each delayed or split read waits an extra time "
               "drawn uniformly from [0, this), seeded by simulation.seed (other traffic in the "
               "host bridge and memory). Keeps retry polling from quantizing the rate to the "
               "retry period."),
        number("host.snoop_hit_ns", "ns", 150, 0, 5000,
               "Coherent DMA: latency to the first cache line of a DMA read when a CPU cache "
               "holds that line modified (the snoop hit: implicit write-back or cache-to-bridge "
               "transfer), instead of host.memory_latency_ns. Only with cpu.cache.kib > 0."),
        number("host.snoop_line_ns", "ns", 0, 0, 5000,
               "Coherent DMA: how much later than the memory stream each further line of a DMA "
               "read comes when a CPU cache holds it modified (its snoop hit's implicit "
               "write-back crosses the CPU bus in turn); the lines after it wait behind it. 0: "
               "as fast as memory. Only with cpu.cache.kib > 0."),
        number("host.mmio_down_ns", "ns", 100, 0, 10000,
               "CPU to the host bridge's output for a register access (posted write or "
               "read request)."),
        number("host.mmio_up_ns", "ns", 100, 0, 10000,
               "Register read completion from the host bridge back into the CPU."),
    };
    for (auto& f : face_params("host")) p.push_back(f);
    return p;
}

HostConfig HostConfig::from(const ScenarioView& s) {
    HostConfig c;
    c.memory_bytes = static_cast<std::uint64_t>(s.integer("host.memory_mib")) << 20;
    c.cache_line_bytes = static_cast<unsigned>(s.integer("host.cache_line_bytes"));
    c.memory_latency_ps = ns_to_ps(s.number("host.memory_latency_ns"));
    c.line_transfer_ps = ns_to_ps(s.number("host.line_transfer_ns"));
    c.write_commit_ps = ns_to_ps(s.number("host.write_commit_ns"));
    c.read_jitter_ps = ns_to_ps(s.number("host.read_jitter_ns"));
    c.snoop_hit_ps = ns_to_ps(s.number("host.snoop_hit_ns"));
    c.snoop_line_ps = ns_to_ps(s.number("host.snoop_line_ns"));
    c.seed = static_cast<std::uint64_t>(s.integer("simulation.seed"));
    c.mmio_down_ps = ns_to_ps(s.number("host.mmio_down_ns"));
    c.mmio_up_ps = ns_to_ps(s.number("host.mmio_up_ns"));
    c.numa_nodes = static_cast<unsigned>(s.integer("host.numa_nodes"));
    c.numa_hop_ps = ns_to_ps(s.number("host.numa_hop_ns"));
    c.face = FaceConfig::from(s, "host", c.cache_line_bytes);
    return c;
}

HostBridge::HostBridge(sc_core::sc_module_name name, const HostConfig& config)
    : sc_core::sc_module(name), config_(config) {}

Picos HostBridge::read_time(std::uint64_t addr, std::uint32_t bytes) const {
    // Whole lines are read: a buffer that crosses one more line boundary costs one more line.
    std::uint64_t first = addr / config_.cache_line_bytes;
    std::uint64_t last = (addr + (bytes ? bytes : 1) - 1) / config_.cache_line_bytes;
    const Picos hop = config_.node_of(addr) != 0 ? config_.numa_hop_ps : 0;
    return config_.memory_latency_ps + hop + (last - first) * config_.line_transfer_ps;
}

void HostBridge::posted_write(std::uint64_t addr, std::uint32_t bytes, Picos at) {
    for (CpuCache* c : caches_) c->invalidate(addr, bytes);
    std::uint64_t first = addr / config_.cache_line_bytes;
    std::uint64_t last = (addr + (bytes ? bytes : 1) - 1) / config_.cache_line_bytes;
    writes_committed_ =
        std::max(writes_committed_, at) + (last - first + 1) * config_.write_commit_ps;
}

bool HostBridge::modified_in_a_cache(std::uint64_t line_number, Picos at) const {
    for (const CpuCache* c : caches_)
        if (c->modified_at(line_number * config_.cache_line_bytes, at)) return true;
    return false;
}

MemoryPath::Snoop HostBridge::snoop_read(std::uint64_t addr, std::uint32_t bytes,
                                         Picos at) const {
    Snoop s;
    if (caches_.empty()) return s;
    s.further.delay = config_.snoop_line_ps;
    const std::uint64_t line = config_.cache_line_bytes;
    const std::uint64_t first = addr / line, last = (addr + (bytes ? bytes : 1) - 1) / line;
    if (last - first >= ModifiedLines::kMaxLines)
        throw std::logic_error(std::string(name()) + ": a DMA read of " + std::to_string(bytes) +
                               " bytes, more lines than a read may cover");
    if (modified_in_a_cache(first, at)) s.first = config_.snoop_hit_ps;
    // A further line modified in a cache comes snoop_line_ps later than memory would bring it:
    // with 0 it comes in time and changes nothing, so the caches are not asked about it here
    // (read_taken still counts it).
    if (config_.snoop_line_ps == 0) return s;
    for (std::uint64_t n = first + 1; n <= last; ++n)
        if (modified_in_a_cache(n, at)) s.further.set(n - first);
    return s;
}

void HostBridge::read_taken(std::uint64_t addr, std::uint32_t bytes, Picos at) {
    if (caches_.empty()) return;
    const std::uint64_t line = config_.cache_line_bytes;
    const std::uint64_t first = addr / line, last = (addr + (bytes ? bytes : 1) - 1) / line;
    for (std::uint64_t n = first; n <= last; ++n) {
        if (!modified_in_a_cache(n, at)) continue;
        // snoop_hit_ps 0: the first line comes from memory (snoop_read), no hit to count.
        if (n == first && config_.snoop_hit_ps == 0) continue;
        ++snoop_hits_;
        snoop_extra_ps_ += n == first ? static_cast<double>(config_.snoop_hit_ps) -
                                            static_cast<double>(config_.memory_latency_ps)
                                      : static_cast<double>(config_.snoop_line_ps);
    }
    for (CpuCache* c : caches_) c->written_back(addr, bytes, at);
}

Picos HostBridge::read_start(Picos at) const { return std::max(at, writes_committed_); }

// A stateless draw (SplitMix64 of seed and n): the n-th read gets the same extra latency
// however often it is asked, so a target's promise and its later completion agree.
Picos HostBridge::read_jitter(std::uint64_t n) const {
    if (config_.read_jitter_ps == 0) return 0;
    std::uint64_t z = config_.seed * 0x9e3779b97f4a7c15ull + n + 1;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return static_cast<Picos>(z % static_cast<std::uint64_t>(config_.read_jitter_ps));
}

void HostBridge::bind_mmio(MmioTarget& face, Picos down, Picos up) {
    face_ = &face;
    route_down_ = down;
    route_up_ = up;
}

void HostBridge::end_of_elaboration() {
    if (!face_)
        throw std::logic_error(std::string(name()) +
                               ": register accesses have nowhere to go (bind_mmio not called)");
}

void HostBridge::mmio_write(std::uint64_t addr, std::uint32_t value, Picos issued,
                            unsigned cpu) {
    face_->mmio_write(addr, value, issued + route_down_, cpu);
}

void HostBridge::mmio_read(std::uint64_t addr, MmioClient* client, std::uint64_t tag,
                           Picos issued, unsigned cpu) {
    face_->mmio_read(addr, issued + route_down_, cpu, route_up_, client, tag);
}

}  // namespace pcisim
