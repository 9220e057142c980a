// What a run measures while it runs: the frames each port puts on the wire (checked to leave
// once and in pktgen's order), the rate over the measurement window, and the distributions of
// per-packet times in it.
#pragma once

#include <cstdint>
#include <deque>
#include <iterator>
#include <optional>
#include <vector>

#include <boost/accumulators/accumulators.hpp>
#include <boost/accumulators/statistics/count.hpp>
#include <boost/accumulators/statistics/extended_p_square.hpp>
#include <boost/accumulators/statistics/max.hpp>
#include <boost/accumulators/statistics/mean.hpp>
#include <boost/accumulators/statistics/stats.hpp>

#include "core/pci_types.h"
#include "nic/frame_timeline.h"

namespace pcisim {

// Per-packet times in the window, in ns: the exact mean and maximum, and the 50th, 90th and
// 99th percentiles as the extended P-square algorithm estimates them (Boost.Accumulators; Jain
// and Chlamtac, CACM 28(10), 1985).  It keeps 9 markers instead of the samples, so memory stays
// flat however long the window; an estimate lies between observed values and may not equal
// any of them.
class Distribution {
public:
    static constexpr double kProbabilities[] = {0.50, 0.90, 0.99};
    Distribution();
    void add(double ns) { samples_(ns); }
    std::uint64_t count() const;
    double mean() const;  // 0 without samples
    double max() const;   // 0 without samples
    // kProbabilities[i]'s estimate; nullopt until the algorithm has its 9 markers.
    std::optional<double> percentile(std::size_t i) const;

private:
    using Stats = boost::accumulators::stats<
        boost::accumulators::tag::count, boost::accumulators::tag::mean,
        boost::accumulators::tag::max, boost::accumulators::tag::extended_p_square>;
    boost::accumulators::accumulator_set<double, Stats> samples_;
};

// The stages of a packet's way from pktgen's xmit call to its last byte on the wire, in order:
// each ends where the next begins (FrameTimeline), so a packet's stages add up to its
// latency.  `key` names it in the results (packet_stages_ns_by_port[].<key>).
struct PacketStage {
    const char* key;
    const char* meaning;
};
inline constexpr PacketStage kPacketStages[] = {
    {"tail_write", "from pktgen's hard_start_xmit call to the NIC seeing the tail (TDT) write "
                   "that hands over the packet's last descriptor: driver code, the posted "
                   "register write's way down, and any TDT batching"},
    {"descriptor", "from the end of tail_write to the packet's last descriptor in the NIC's "
                   "descriptor cache: waiting in the host ring for a fetch, and the fetch"},
    {"engine_wait", "from the end of descriptor to the DMA engine turning to the packet: the "
                    "packets before it still being fetched (with TXDMAC.DPP set, also finished "
                    "and written back)"},
    {"fifo_wait", "the DMA engine waiting for TX FIFO room for the whole packet"},
    {"data_read", "from the packet's first data read asked for to its last data byte in: "
                  "arbitration, read latency (retries, split wait) and data phases of its buffers"},
    {"processing", "from the last data byte to the commit to the MAC: nic.packet_processing_ns, "
                   "after the packet before it has been finished"},
    {"in_fifo", "from the commit to the first preamble byte on the wire: frames before it "
                "still sending and the inter-packet gap (store-and-forward)"},
    {"wire", "the frame on the wire: preamble, frame and FCS at the link speed"},
};
inline constexpr std::size_t kPacketStageCount = std::size(kPacketStages);

// One port's per-packet distributions.  Per port, because a run that keeps the wire lazily
// finishes one port's frames before the next port's, and P-square depends on the order of its
// samples: only each port's own order is the same with and without the shortcuts.
struct PacketTimes {
    Distribution latency;         // pktgen's xmit call to the frame's last byte on the wire
    Distribution frame_interval;  // a frame's last byte to the next one's, on the same port
    Distribution stages[kPacketStageCount];  // kPacketStages, in that order
    // The stages of a packet queued by pktgen at `xmit`.
    void add_stages(Picos xmit, const FrameTimeline& t);
};

// Every frame leaving one port's MAC: counted, and checked to be the next in pktgen's order.
// Frames leave in the order pktgen queued them (checked when each has its own number), so a
// frame's xmit time is the oldest one not yet matched; preloaded frames have none.
struct FrameCheck {
    unsigned port = 0;
    bool check_order = false;
    std::uint32_t expected_seq = 0;
    std::uint64_t preloaded = 0;   // frames in the FIFO at time zero, sent before pktgen's
    std::uint64_t frames = 0;      // since time zero
    Picos first = 0, last = 0;     // in the window
    std::uint64_t window_frames = 0;
    std::uint64_t window_bytes = 0;  // those frames' bytes without the FCS (their mean size)
    unsigned window_min_bytes = 0;   // the smallest of them (the highest rate the wire allows)
    Picos longest_gap = 0;           // between two of them (sustained_rate.h)
    bool measuring = false;        // the window is open: per-packet times go to `times`
    bool packet_times = true;      // whether `times` is kept at all (Simulation::rates_only)
    std::deque<Picos> xmit_times;  // of pktgen's packets not yet on the wire
    PacketTimes times;             // in the window
    void queued(Picos xmit) { xmit_times.push_back(xmit); }
    void seen(const std::uint8_t* frame, unsigned len, const FrameTimeline& times);
    void open_window() {
        window_frames = window_bytes = 0, window_min_bytes = 0, first = last = 0, measuring = true;
        longest_gap = 0;
    }
};

// One port's frames per second over the window: between the first and the last frame it sent
// in it, which is free of the +-1 frame a window boundary would add (0.6 % at 80 kpps over
// 2 ms); with fewer than two frames, the count over the whole window of `window_s` seconds.
double port_frame_rate(const FrameCheck& port, double window_s);
// The ports' rates added up.  Each port is measured on its own: one interval from the first
// frame of any port to the last of any would count a frame more than the ports' intervals hold
// (two ports at the wire limit came out above twice the limit).
double window_frame_rate(const std::vector<FrameCheck>& ports, double window_s);
std::uint64_t window_frames(const std::vector<FrameCheck>& ports);
std::uint64_t frames_since_start(const std::vector<FrameCheck>& ports);

}  // namespace pcisim
