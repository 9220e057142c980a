#include "run/run_checks.h"

#include <algorithm>
#include <cstdint>
#include <exception>

#include "run/nic_families.h"
#include "run/platform.h"
#include "run/scenario.h"
#include "run/simulation.h"
#include "software/slab_cache.h"
#include "config/param_spec.h"

namespace pcisim {

namespace {

// The key of NIC n's parameter `name`: nic.NAME for the single nic.* NIC, else nics[n].NAME
// (which, left out, is nic.NAME's value).
std::string nic_key(const PlatformConfig& c, std::size_t n, const std::string& name) {
    return c.topology.nics[n].name == "nic" ? "nic." + name
                                            : "nics[" + std::to_string(n) + "]." + name;
}

// The receive driver's ring: alloc_rx_buffers writes RDT only at a slot that is a multiple of
// rx_rdt_batch: with one at or above the ring size that is slot 0 alone, RDT stays where RDH
// is, and the NIC never gets a descriptor (every frame missed).
void check_receive_ring(const PlatformConfig& c, std::vector<std::string>& problems) {
    if (!c.wire.enabled) return;
    if (c.rx_driver.rdt_batch >= c.rx_driver.ring_size)
        problems.push_back("driver.rx_rdt_batch: " + std::to_string(c.rx_driver.rdt_batch) +
                           " is not below driver.rx_ring_size " +
                           std::to_string(c.rx_driver.ring_size) +
                           ": the driver writes RDT only at slots that are multiples of it, so "
                           "RDT never moves from 0 and the NIC gets no receive descriptor; "
                           "expected less than " + std::to_string(c.rx_driver.ring_size));
}

// Each NIC's traffic against its buffers and descriptor cache, by its family's drivers: the
// frames a wire source sends to its ports, and the TCP stream's or pktgen's packets.
void check_nic_traffic(const PlatformConfig& c, std::vector<std::string>& problems) {
    for (std::size_t n = 0; n < c.topology.nics.size(); ++n) {
        const NicPlacement& nic = c.topology.nics[n];
        const DriverOptions driver = c.driver_for(n);
        const NicTraffic traffic{*nic.spec,
                                 driver,
                                 [&c, n](const std::string& name) { return nic_key(c, n, name); },
                                 c.wire.enabled && c.wire.first_port < nic.ports,
                                 c.wire.size,
                                 c.tcp.enabled ? &c.tcp : nullptr,
                                 !c.tcp.enabled && c.pktgen.enabled ? &c.pktgen : nullptr};
        drivers_of(*nic.spec).check(traffic, problems);
    }
}

// The TCP stream's host memory above the socket buffers' base (Platform::kSkbBase), per port:
// the user buffer it copies from (tcp.message_bytes; none with sendfile) and the skbs alive at
// once: those its send buffer holds, those the ring still holds after their ACK (a packet's
// descriptors as the first NIC's driver counts them), and what each CPU's slab array keeps.
void check_tcp_memory(const PlatformConfig& c, std::vector<std::string>& problems) {
    if (!c.tcp.enabled || c.topology.nics.empty()) return;
    const std::uint32_t skb = tcp_frame::kHeaderBytes + c.tcp.size_goal();
    const std::uint64_t buffer = std::max<std::uint64_t>(SkbPool::buffer_bytes(skb, c.host.cache_line_bytes),
                                                   c.host.cache_line_bytes);
    const std::uint64_t queued = c.tcp.send_buffer() / (c.tcp.mss + c.tcp.skb_overhead_bytes) + 2;
    const unsigned per_frame = drivers_of(*c.topology.nics[0].spec).descriptors_needed(
        c.driver, skb, c.tcp.tso ? c.tcp.mss : 0, c.tcp.checksum_offload);
    const std::uint64_t in_ring = c.driver.ring_size / std::max(1u, per_frame);
    const std::uint64_t buffers =
        queued + in_ring + SlabCache::array_limit(static_cast<std::uint32_t>(buffer)) * 3 / 2 + 1;
    const std::uint64_t user = c.tcp.source == TcpStreamOptions::Source::Sendfile ? 0 : c.tcp.message_bytes;
    // With NUMA each node's memory holds the buffers of the ports whose CPUs it serves (the
    // first node also the rings below kSkbBase).
    const std::uint64_t nodes = std::max(1u, c.host.numa_nodes);
    const std::uint64_t ports = (c.topology.port_cpu.size() + nodes - 1) / nodes;
    const std::uint64_t needed =
        Platform::kSkbBase +
        ports * ((user + c.host.cache_line_bytes) + buffers * buffer +
                 (buffers + 60) * SkbPool::kSkbStructBytes);
    const std::uint64_t mib = 1 << 20;
    if (c.host.memory_bytes / nodes < needed)
        problems.push_back("host.memory_mib: " + std::to_string(c.host.memory_bytes / mib) +
                           " does not hold the TCP stream's buffers above the first 4 MiB: per "
                           "port a " + bytes_text(user) + " user buffer (tcp.message_bytes) and " +
                           std::to_string(buffers) + " socket buffers of " + bytes_text(buffer) +
                           " (tcp.socket_buffer_bytes, driver.ring_size); expected at least " +
                           std::to_string((nodes * needed + mib - 1) / mib));
}

}  // namespace

void check_runnable(const Scenario& s, std::vector<std::string>& problems) {
    PlatformConfig c;
    try {
        c = PlatformConfig::from(s);
        RunConfig::from(s);
    } catch (const ScenarioError& e) {
        problems.insert(problems.end(), e.problems().begin(), e.problems().end());
        return;
    } catch (const std::exception& e) {  // a config that refuses without naming a key
        problems.push_back(s.origin() + ": " + e.what());
        return;
    }
    check_receive_ring(c, problems);
    check_nic_traffic(c, problems);
    check_tcp_memory(c, problems);
}

}  // namespace pcisim
