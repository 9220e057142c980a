#include "run/measurement.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>

#include "core/invariants.h"
#include "core/sim_time.h"
#include "software/pktgen.h"

namespace pcisim {

namespace acc = boost::accumulators;

Distribution::Distribution()
    : samples_(acc::extended_p_square_probabilities = kProbabilities) {}

std::uint64_t Distribution::count() const { return acc::count(samples_); }

double Distribution::mean() const { return count() ? acc::mean(samples_) : 0.0; }

double Distribution::max() const { return count() ? acc::max(samples_) : 0.0; }

std::optional<double> Distribution::percentile(std::size_t i) const {
    constexpr std::size_t markers = 2 * std::size(kProbabilities) + 3;
    if (count() < markers) return std::nullopt;
    return acc::extended_p_square(samples_)[i];
}

void PacketTimes::add_stages(Picos xmit, const FrameTimeline& t) {
    const Picos bounds[kPacketStageCount + 1] = {xmit,           t.tail_written,
                                                 t.descriptors_fetched, t.engine_ready,
                                                 t.data_started, t.data_in,
                                                 t.committed,    t.wire_start,
                                                 t.wire_end};
    for (std::size_t i = 0; i < kPacketStageCount; ++i) {
        if (bounds[i + 1] < bounds[i])
            throw InvariantViolation("packet stages", std::string(kPacketStages[i].key) +
                                                          " ends at " + std::to_string(bounds[i + 1]) +
                                                          " ps, before it begins at " +
                                                          std::to_string(bounds[i]) + " ps");
        stages[i].add(ps_to_ns(bounds[i + 1] - bounds[i]));
    }
}

void FrameCheck::seen(const std::uint8_t* frame, unsigned len, const FrameTimeline& t) {
    const Picos when = t.wire_end;
    ++frames;
    std::optional<Picos> xmit;
    if (frames > preloaded && !xmit_times.empty()) {
        xmit = xmit_times.front();
        xmit_times.pop_front();
    }
    if (check_order) {
        std::uint32_t seq;
        std::memcpy(&seq, frame + kPktgenSeqOffset, sizeof seq);
        if (len < kPktgenSeqOffset + 4 || seq != expected_seq)
            throw InvariantViolation("nic port " + std::to_string(port),
                                     "sent packet " + std::to_string(seq) + " where packet " +
                                         std::to_string(expected_seq) + " was next");
        ++expected_seq;
    }
    if (measuring && packet_times) {
        if (xmit) {
            times.latency.add(ps_to_ns(when - *xmit));
            times.add_stages(*xmit, t);
        }
        if (window_frames > 0) times.frame_interval.add(ps_to_ns(when - last));
    }
    window_bytes += len;
    if (window_frames > 0) longest_gap = std::max(longest_gap, when - last);
    if (window_frames == 0 || len < window_min_bytes) window_min_bytes = len;
    if (window_frames++ == 0) first = when;
    last = when;
}

std::uint64_t window_frames(const std::vector<FrameCheck>& ports) {
    std::uint64_t n = 0;
    for (const auto& f : ports) n += f.window_frames;
    return n;
}

std::uint64_t frames_since_start(const std::vector<FrameCheck>& ports) {
    std::uint64_t n = 0;
    for (const auto& f : ports) n += f.frames;
    return n;
}

double port_frame_rate(const FrameCheck& port, double window_s) {
    if (port.window_frames > 1 && port.last > port.first)
        return static_cast<double>(port.window_frames - 1) /
               (static_cast<double>(port.last - port.first) * 1e-12);
    return static_cast<double>(port.window_frames) / window_s;
}

double window_frame_rate(const std::vector<FrameCheck>& ports, double window_s) {
    double rate = 0;
    for (const auto& f : ports) rate += port_frame_rate(f, window_s);
    return rate;
}

}  // namespace pcisim
