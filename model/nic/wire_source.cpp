#include "nic/wire_source.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/ethernet.h"
#include "core/sim_time.h"
#include "core/trace_hooks.h"
#include "config/scenario_view.h"
#include "config/param_spec.h"

namespace pcisim {

std::vector<ParamSpec> wire_source_params() {
    return {
        boolean("wire_source.enabled", false,
                "Send frames to the NIC from the wire: the driver sets up its receive ring "
                "and cleans it (driver.rx_*); false: transmit only."),
        integer("wire_source.size", "bytes", 60, 60, 1514,
                "Frame size without the 4-byte FCS (60 = minimum frame)."),
        number("wire_source.rate_pps", "packets/s", 0, 0, 1.5e6,
               "Average frames per second per port; 0 = the line rate, 1e9/8/(size+24) at "
               "1 Gb/s (1488095 for 60 B)."),
        integer("wire_source.burst_frames", "frames", 0, 0, 1000000,
                "Frames sent back to back at the line rate, then a gap that keeps the average "
                "at rate_pps; 0 or 1 = evenly spaced frames."),
        integer("wire_source.count", "frames", 0, 0, 1LL << 40,
                "Frames to send to each port; 0 = no end."),
        integer("wire_source.ports", "ports", 1, 1, 2,
                "Receiving ports of each NIC, from wire_source.first_port; each needs its "
                "driver, so first_port + ports is at most pktgen.ports (set pktgen.enabled "
                "false to receive only)."),
        integer("wire_source.first_port", "port", 0, 0, 3,
                "The first receiving port of each NIC (1: the second port of an 82546)."),
        boolean("wire_source.receive_only", false,
                "The receiving ports run no pktgen, so with pktgen.enabled only the other ports "
                "transmit (e.g. transmit on port 0 and receive on port 1 of an 82546); false: "
                "every port transmits."),
    };
}

// The rate against the line rate of the size, and receiving ports against the ports that have a
// driver (a NIC's driver runs on the ports pktgen.ports names).
void check_wire_source(const nlohmann::json& doc, std::vector<std::string>& problems) {
    const nlohmann::json& w = doc["wire_source"];
    if (!w["enabled"].get<bool>()) return;
    const auto size = w["size"].get<unsigned>();
    const double mbps = doc["nic"]["link_mbps"].get<double>();
    const double line = mbps * 1e6 / 8 / wire_byte_times(size);
    const double rate = w["rate_pps"].get<double>();
    if (rate > line * (1 + 1e-9))
        problems.push_back("wire_source.rate_pps: " + w["rate_pps"].dump() + " is above the line "
                           "rate of " + std::to_string(static_cast<long long>(line)) + " frames/s "
                           "for wire_source.size " + std::to_string(size) + " at nic.link_mbps " +
                           doc["nic"]["link_mbps"].dump() + "; expected at most that, or 0 for "
                           "the line rate");
    // Each NIC receives on ports first_port .. first_port + ports - 1, each of which needs its
    // driver: pktgen.ports of the one nic.* NIC, or each nics[] entry's own ports (a NIC with
    // fewer would have a port that silently receives nothing).
    const auto ports = w["ports"].get<unsigned>();
    const auto first = w["first_port"].get<unsigned>();
    const unsigned driven = doc["pktgen"]["ports"].get<unsigned>();
    unsigned fewest = driven;
    std::string fewest_key = "pktgen.ports";
    if (doc.contains("nics") && doc["nics"].is_array() && !doc["nics"].empty()) {
        fewest = ~0u;
        for (std::size_t i = 0; i < doc["nics"].size(); ++i) {
            const nlohmann::json& item = doc["nics"][i];
            const bool own = item.is_object() && item.contains("ports") &&
                             item["ports"].is_number_unsigned();
            const unsigned n = own ? item["ports"].get<unsigned>() : driven;  // inherits
            if (n < fewest)
                fewest = n, fewest_key = own ? "nics[" + std::to_string(i) + "].ports" : "pktgen.ports";
        }
    }
    if (first + ports > fewest) {
        const std::string last = std::to_string(first + ports - 1);
        problems.push_back(first == 0
            ? "wire_source.ports: " + std::to_string(ports) + " is more than the " +
                  std::to_string(fewest) + " port(s) with a driver (" + fewest_key +
                  "); expected at most " + std::to_string(fewest) + " (or " + fewest_key + " " +
                  std::to_string(ports) + ", with pktgen.enabled false to only receive)"
            : "wire_source.first_port: " + std::to_string(first) + " with wire_source.ports " +
                  std::to_string(ports) + " receives on port " + last + ", but only " +
                  std::to_string(fewest) + " port(s) have a driver (" + fewest_key +
                  "); expected " + fewest_key + " at least " + std::to_string(first + ports));
    }
    // Forwarding sends port p's frames out of port p ^ 1, which needs its driver too, on every
    // NIC.
    const unsigned egress = std::max(first ^ 1u, (first + ports - 1) ^ 1u);
    if (doc["driver"]["rx_mode"] == "forward" && egress >= fewest)
        problems.push_back("driver.rx_mode: forward sends the frames of port p out of port p ^ 1, "
                           "but only " + std::to_string(fewest) + " port(s) of a NIC have a "
                           "driver (pktgen.ports, nics[].ports); expected pktgen.ports at least " +
                           std::to_string(egress + 1) + " (pktgen.enabled false: forwarding only)");
    if (!doc["nic"]["enabled"].get<bool>())
        problems.push_back("wire_source.enabled: true with nic.enabled false; expected a NIC to "
                           "receive the frames");
}

WireSourceConfig WireSourceConfig::from(const ScenarioView& s) {
    WireSourceConfig c;
    c.enabled = s.boolean("wire_source.enabled");
    c.size = static_cast<std::uint32_t>(s.integer("wire_source.size"));
    c.rate_pps = s.number("wire_source.rate_pps");
    c.burst_frames = static_cast<unsigned>(s.integer("wire_source.burst_frames"));
    c.count = static_cast<std::uint64_t>(s.integer("wire_source.count"));
    c.ports = static_cast<unsigned>(s.integer("wire_source.ports"));
    c.first_port = static_cast<unsigned>(s.integer("wire_source.first_port"));
    c.receive_only = s.boolean("wire_source.receive_only");
    return c;
}

WireSource::WireSource(sc_core::sc_module_name name, const WireSourceConfig& config, Nic& nic,
                       unsigned port, Picos byte_time)
    : sc_module(name), config_(config), nic_(nic), port_(port),
      min_interval_(Picos(wire_byte_times(config.size)) * byte_time),
      burst_(std::max(1u, config.burst_frames)) {
    // The burst period at the average rate, never shorter than the burst at the line rate.
    Picos at_rate = config.rate_pps > 0
                        ? static_cast<Picos>(std::llround(burst_ * 1e12 / config.rate_pps))
                        : 0;
    burst_period_ = std::max(at_rate, burst_ * min_interval_);
    SC_HAS_PROCESS(WireSource);
    SC_METHOD(send);
    sensitive << next_;
    dont_initialize();
    if (config_.enabled) next_.notify(ps(arrival(0)));
}

Picos WireSource::arrival(std::uint64_t k) const {
    return Picos(k / burst_) * burst_period_ + Picos(k % burst_ + 1) * min_interval_;
}

void WireSource::send() {
    const Picos now = now_ps();
    // The frame's share of the line: the gap before it, preamble, bytes and FCS.
    trace::emit(TraceStep::RxWire, TracePhase::Begin, name(), now - min_interval_, port_,
                static_cast<std::int64_t>(sent_), config_.size);
    trace::emit(TraceStep::RxWire, TracePhase::End, name(), now, port_, static_cast<std::int64_t>(sent_));
    nic_.receive_frame(port_, config_.size, static_cast<std::uint32_t>(sent_));
    if (on_frame_) {
        // The frame as the NIC takes it (Nic::receive_frame): zeros but for its number where
        // pktgen's header has the sequence number; padded to the minimum frame on the wire.
        const unsigned wire_bytes = std::max(config_.size, kMinFrameBytes);
        frame_.assign(wire_bytes, 0);
        const auto seq = static_cast<std::uint32_t>(sent_);
        if (config_.size >= kFrameSeqOffset + sizeof seq)
            std::memcpy(&frame_[kFrameSeqOffset], &seq, sizeof seq);
        // Now its FCS has arrived: its preamble (8), the frame and the FCS (4) took the time before.
        const Picos byte_time = min_interval_ / (wire_bytes + kWireOverheadBytes);
        on_frame_(frame_.data(), wire_bytes, now - byte_time * (kPreambleBytes + wire_bytes + kFcsBytes));
    }
    ++sent_;
    if (config_.count && sent_ >= config_.count) return;
    next_.notify(ps(arrival(sent_) - now));
}

}  // namespace pcisim
