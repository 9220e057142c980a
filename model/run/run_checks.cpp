#include "run/run_checks.h"

#include <algorithm>
#include <cstdint>
#include <exception>

#include "e1000/e1000_family.h"
#include "run/platform.h"
#include "run/scenario.h"
#include "run/simulation.h"
#include "software/slab_cache.h"

namespace pcisim {

namespace {

std::string bytes(std::uint64_t n) { return std::to_string(n) + " B"; }

// The key of NIC n's parameter `name`: nic.NAME for the single nic.* NIC, else nics[n].NAME
// (which, left out, is nic.NAME's value).
std::string nic_key(const PlatformConfig& c, std::size_t n, const std::string& name) {
    return c.topology.nics[n].name == "nic" ? "nic." + name
                                            : "nics[" + std::to_string(n) + "]." + name;
}

// The NICs' ports a wire source sends to (wire_source.*): each of those needs a receive buffer
// that holds a frame, and a ring whose tail the driver moves.
void check_receivers(const PlatformConfig& c, std::vector<std::string>& problems) {
    if (!c.wire.enabled) return;
    // alloc_rx_buffers writes RDT only at a slot that is a multiple of rx_rdt_batch: with one
    // at or above the ring size that is slot 0 alone, RDT stays where RDH is, and the NIC never
    // gets a descriptor (every frame missed).
    if (c.rx_driver.rdt_batch >= c.rx_driver.ring_size)
        problems.push_back("driver.rx_rdt_batch: " + std::to_string(c.rx_driver.rdt_batch) +
                           " is not below driver.rx_ring_size " +
                           std::to_string(c.rx_driver.ring_size) +
                           ": the driver writes RDT only at slots that are multiples of it, so "
                           "RDT never moves from 0 and the NIC gets no receive descriptor; "
                           "expected less than " + std::to_string(c.rx_driver.ring_size));
    const std::uint64_t frame = std::max<std::uint64_t>(c.wire.size, 60) + 4;  // with its CRC
    for (std::size_t n = 0; n < c.topology.nics.size(); ++n) {
        const NicPlacement& nic = c.topology.nics[n];
        if (c.wire.first_port >= nic.ports) continue;  // none of its ports receives
        const e1000::E1000Params& p = e1000::params_of(*nic.spec);
        const std::uint64_t fifo = std::uint64_t(p.pba_rx_kb) * 1024;
        const std::string key = nic_key(c, n, "pba_rx_kb");
        if (fifo < frame)
            problems.push_back(key + ": " + std::to_string(p.pba_rx_kb) +
                               " KB of receive buffer holds no " + bytes(frame) +
                               " frame of wire_source.size " + std::to_string(c.wire.size) +
                               " (every frame would be missed); expected at least " +
                               std::to_string((frame + 1023) / 1024));
    }
}

// A TCP stream's largest skb and its segments against each NIC: a segment must fit the TX FIFO
// (with TSPMT.TSPBP's room for a TSO segment, SDM 13.4.45), and the data descriptors of one
// skb must fit the descriptor cache, which holds a packet whole before it starts.
void check_tcp_frames(const PlatformConfig& c, std::vector<std::string>& problems) {
    if (!c.tcp.enabled) return;
    const std::uint32_t segment = tcp_frame::kHeaderBytes + c.tcp.mss;
    const std::uint32_t skb = tcp_frame::kHeaderBytes + c.tcp.size_goal();
    for (std::size_t n = 0; n < c.topology.nics.size(); ++n) {
        const e1000::E1000Params& p = e1000::params_of(*c.topology.nics[n].spec);
        const std::uint32_t fifo = p.tx_fifo_bytes(p.pba_rx_kb);
        const std::uint32_t padding = c.tcp.tso ? p.tspmt >> 16 : 0;
        if (segment + padding > fifo)
            problems.push_back("tcp.mss: " + std::to_string(c.tcp.mss) + " makes " +
                               bytes(segment) + " segments" +
                               (padding ? " (with TSPMT.TSPBP's " + bytes(padding) + ")" : "") +
                               ", which never fit the " + bytes(fifo) + " transmit FIFO (" +
                               nic_key(c, n, "pba_rx_kb") + " " + std::to_string(p.pba_rx_kb) +
                               "); expected tcp.mss at most " +
                               std::to_string(fifo - padding - tcp_frame::kHeaderBytes));
        const DriverOptions driver = c.driver_for(n);
        const unsigned context = 1;  // checksum offload or TSO: taken before the packet's data
        const unsigned data =
            E1000Driver::descriptors_needed(driver, skb, c.tcp.tso ? c.tcp.mss : 0,
                                            c.tcp.checksum_offload) -
            (c.tcp.tso || c.tcp.checksum_offload ? context : 0);
        if (data > p.descriptor_cache_entries)
            problems.push_back(
                nic_key(c, n, "descriptor_cache_entries") + ": " +
                std::to_string(p.descriptor_cache_entries) +
                " cannot hold the " + std::to_string(data) + " descriptors of a " + bytes(skb) +
                (c.tcp.tso ? " TSO frame (tcp.mss " + std::to_string(c.tcp.mss) +
                                 ": at most " +
                                 std::to_string(E1000Driver::max_data_per_descriptor(c.tcp.mss)) +
                                 " B per descriptor)"
                           : " frame") +
                ", and a packet starts only once all of them are on chip; expected at least " +
                std::to_string(data) + (c.tcp.tso ? ", a larger tcp.mss or driver.tso false" : ""));
    }
}

// A pktgen packet's descriptors against each NIC's descriptor cache, as for TCP above.
void check_pktgen_descriptors(const PlatformConfig& c, std::vector<std::string>& problems) {
    if (c.tcp.enabled || !c.pktgen.enabled) return;
    for (std::size_t n = 0; n < c.topology.nics.size(); ++n) {
        const e1000::E1000Params& p = e1000::params_of(*c.topology.nics[n].spec);
        const unsigned data = E1000Driver::descriptors_needed(c.driver_for(n), c.pktgen.size, 0, false);
        if (data > p.descriptor_cache_entries)
            problems.push_back(
                nic_key(c, n, "descriptor_cache_entries") + ": " +
                std::to_string(p.descriptor_cache_entries) +
                " cannot hold the " + std::to_string(data) + " descriptors of a packet of " +
                "packet.size " + std::to_string(c.pktgen.size) + "; expected at least " +
                std::to_string(data));
    }
}

// The TCP stream's host memory above the socket buffers' base (Platform::kSkbBase), per port:
// the user buffer it copies from (tcp.message_bytes; none with sendfile) and the skbs alive at
// once: those its send buffer holds, those the ring still holds after their ACK, and what each
// CPU's slab array keeps.
void check_tcp_memory(const PlatformConfig& c, std::vector<std::string>& problems) {
    if (!c.tcp.enabled || c.topology.nics.empty()) return;
    const std::uint32_t skb = tcp_frame::kHeaderBytes + c.tcp.size_goal();
    const std::uint64_t buffer = std::max<std::uint64_t>(SkbPool::buffer_bytes(skb, c.host.cache_line_bytes),
                                                   c.host.cache_line_bytes);
    const std::uint64_t queued = c.tcp.send_buffer() / (c.tcp.mss + c.tcp.skb_overhead_bytes) + 2;
    const unsigned per_frame = E1000Driver::descriptors_needed(
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
                           "port a " + bytes(user) + " user buffer (tcp.message_bytes) and " +
                           std::to_string(buffers) + " socket buffers of " + bytes(buffer) +
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
    check_receivers(c, problems);
    check_tcp_frames(c, problems);
    check_pktgen_descriptors(c, problems);
    check_tcp_memory(c, problems);
}

}  // namespace pcisim
