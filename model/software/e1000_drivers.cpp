#include "software/e1000_drivers.h"

#include <algorithm>

#include "core/ethernet.h"
#include "e1000/e1000_family.h"
#include "software/e1000_driver.h"
#include "software/e1000_rx_driver.h"
#include "software/pktgen.h"
#include "software/tcp_frame.h"
#include "software/tcp_sender.h"
#include "config/param_spec.h"

namespace pcisim {

namespace {

// The copy driver sizes its buffers for the largest frame, one descriptor's worth.
DriverOptions options_for(const DriverOptions& keys, const NicSpec& nic, bool pcix,
                          std::uint32_t largest_frame_buffer) {
    DriverOptions d = keys;
    d.probe(nic.device_id(), pcix);
    d.copy_buffer_bytes = std::min<std::uint32_t>(E1000Driver::kMaxDataPerDescriptor,
                                                  std::max<std::uint32_t>(2048, largest_frame_buffer));
    return d;
}

std::unique_ptr<TxDriver> make_tx(const DriverOptions& options, std::uint64_t bar,
                                  std::uint64_t ring_base, std::function<void(const Skb&)> free_skb,
                                  std::function<std::uint64_t(std::uint32_t)> static_buffer) {
    return std::make_unique<E1000Driver>(options, bar, ring_base, std::move(free_skb),
                                         std::move(static_buffer));
}

// The receive half beside the port's transmit half, whose NAPI poll polls it.
std::unique_ptr<RxDriver> make_rx(TxDriver& tx, const RxDriverOptions& options, std::uint64_t bar,
                                  std::uint64_t ring_base, SkbPool& skbs) {
    auto rx = std::make_unique<E1000RxDriver>(options, bar, ring_base, skbs);
    static_cast<E1000Driver&>(tx).attach_receive(rx.get());
    return rx;
}

// A receiving port needs a receive buffer that holds a frame.
void check_receive_buffer(const NicTraffic& t, const e1000::E1000Params& p,
                          std::vector<std::string>& problems) {
    if (!t.receives) return;
    const std::uint64_t frame = std::max<std::uint64_t>(t.wire_size, kMinFrameBytes) + kFcsBytes;
    const std::uint64_t fifo = std::uint64_t(p.pba_rx_kb) * 1024;
    if (fifo < frame)
        problems.push_back(t.key("pba_rx_kb") + ": " + std::to_string(p.pba_rx_kb) +
                           " KB of receive buffer holds no " + bytes_text(frame) +
                           " frame of wire_source.size " + std::to_string(t.wire_size) +
                           " (every frame would be missed); expected at least " +
                           std::to_string((frame + 1023) / 1024));
}

// A TCP stream's largest skb and its segments: a segment must fit the TX FIFO (with TSPMT.TSPBP's
// room for a TSO segment, SDM 13.4.45), and the data descriptors of one skb must fit the
// descriptor cache, which holds a packet whole before it starts.
void check_tcp_frames(const NicTraffic& t, const e1000::E1000Params& p,
                      std::vector<std::string>& problems) {
    if (!t.tcp) return;
    const TcpStreamOptions& tcp = *t.tcp;
    const std::uint32_t segment = tcp_frame::kHeaderBytes + tcp.mss;
    const std::uint32_t skb = tcp_frame::kHeaderBytes + tcp.size_goal();
    const std::uint32_t fifo = p.tx_fifo_bytes(p.pba_rx_kb);
    const std::uint32_t padding = tcp.tso ? p.tspmt >> 16 : 0;
    if (segment + padding > fifo)
        problems.push_back("tcp.mss: " + std::to_string(tcp.mss) + " makes " + bytes_text(segment) +
                           " segments" +
                           (padding ? " (with TSPMT.TSPBP's " + bytes_text(padding) + ")" : "") +
                           ", which never fit the " + bytes_text(fifo) + " transmit FIFO (" +
                           t.key("pba_rx_kb") + " " + std::to_string(p.pba_rx_kb) +
                           "); expected tcp.mss at most " +
                           std::to_string(fifo - padding - tcp_frame::kHeaderBytes));
    const unsigned context = 1;  // checksum offload or TSO: taken before the packet's data
    const unsigned data =
        E1000Driver::descriptors_needed(t.driver, skb, tcp.tso ? tcp.mss : 0, tcp.checksum_offload) -
        (tcp.tso || tcp.checksum_offload ? context : 0);
    if (data > p.descriptor_cache_entries)
        problems.push_back(
            t.key("descriptor_cache_entries") + ": " + std::to_string(p.descriptor_cache_entries) +
            " cannot hold the " + std::to_string(data) + " descriptors of a " + bytes_text(skb) +
            (tcp.tso ? " TSO frame (tcp.mss " + std::to_string(tcp.mss) + ": at most " +
                           std::to_string(E1000Driver::max_data_per_descriptor(tcp.mss)) +
                           " B per descriptor)"
                     : " frame") +
            ", and a packet starts only once all of them are on chip; expected at least " +
            std::to_string(data) + (tcp.tso ? ", a larger tcp.mss or driver.tso false" : ""));
}

// A pktgen packet's descriptors against the descriptor cache, as for TCP above.
void check_pktgen_descriptors(const NicTraffic& t, const e1000::E1000Params& p,
                              std::vector<std::string>& problems) {
    if (!t.pktgen) return;
    const unsigned data = E1000Driver::descriptors_needed(t.driver, t.pktgen->size, 0, false);
    if (data > p.descriptor_cache_entries)
        problems.push_back(t.key("descriptor_cache_entries") + ": " +
                           std::to_string(p.descriptor_cache_entries) + " cannot hold the " +
                           std::to_string(data) + " descriptors of a packet of " + "packet.size " +
                           std::to_string(t.pktgen->size) + "; expected at least " +
                           std::to_string(data));
}

void check(const NicTraffic& traffic, std::vector<std::string>& problems) {
    const e1000::E1000Params& p = e1000::params_of(traffic.nic);
    check_receive_buffer(traffic, p, problems);
    check_tcp_frames(traffic, p, problems);
    check_pktgen_descriptors(traffic, p, problems);
}

}  // namespace

const PortDrivers& e1000_drivers() {
    static const PortDrivers d{E1000Driver::kDescriptorBytes,
                               E1000Driver::kMaxDataPerDescriptor,
                               options_for,
                               make_tx,
                               make_rx,
                               E1000Driver::descriptors_needed,
                               check};
    return d;
}

}  // namespace pcisim
