// The link partner at the far end of a port's cable: sends frames of one size to the port at a
// rate up to the line rate, evenly spaced or in bursts of back-to-back frames, as a traffic
// generator on the wire would (the receive side's counterpart of pktgen).  It hands each frame
// to the NIC when its last byte has arrived; on the wire each frame takes preamble/SFD (8),
// max(size, 60), FCS (4) and the minimum inter-frame gap (12) byte times.
//
// It is not a Workload (software/workload.h) beside pktgen and the TCP sender, though it is the
// receive side's counterpart of pktgen: a workload is software a CPU runs above the driver
// (process-context loop, interrupt handler, timer, skb free, placed on CPUs), and the wire source
// is another machine at the far end of the cable, which no CPU of the platform runs and which
// talks to the NIC, not to a driver.  What it needs of the NIC is the Nic interface's
// receive_frame, so it serves any family; it is the peer of the TCP stream's receiver
// (software/tcp_receiver.h), the far end a transmitting port's frames go to.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>
#include <systemc>

#include "core/pci_types.h"
#include "nic/nic.h"

namespace pcisim {

class ScenarioView;
struct ParamSpec;

// This module's scenario keys (unit, default, range, meaning), collected by run/schema.cpp.
std::vector<ParamSpec> wire_source_params();  // wire_source.*
// The wire source's rate against the line rate and its ports against the driven ones.
void check_wire_source(const nlohmann::json& doc, std::vector<std::string>& problems);

struct WireSourceConfig {
    bool enabled = false;
    std::uint32_t size = 60;      // frame without FCS
    double rate_pps = 0;          // average frames per second; 0 = the line rate
    unsigned burst_frames = 0;    // frames back to back per burst; 0 or 1 = evenly spaced
    std::uint64_t count = 0;      // frames to send; 0 = no end
    unsigned ports = 1;           // receiving ports of each NIC, from first_port
    unsigned first_port = 0;
    bool receive_only = false;    // the receiving ports run no pktgen
    bool receives(unsigned port) const {
        return enabled && port >= first_port && port < first_port + ports;
    }
    static WireSourceConfig from(const ScenarioView& s);
};

class WireSource : public sc_core::sc_module {
public:
    // Sends to port `port` of `nic`; `byte_time` is one byte on the wire at the link speed.
    WireSource(sc_core::sc_module_name name, const WireSourceConfig& config, Nic& nic,
               unsigned port, Picos byte_time);

    std::uint64_t frames_sent() const { return sent_; }
    // Whether it still sends (wire_source.count not reached).
    bool sending() const { return config_.enabled && (config_.count == 0 || sent_ < config_.count); }
    const Nic& nic() const { return nic_; }
    unsigned port() const { return port_; }
    // The time between frames at the line rate, and the frames per second that makes.
    Picos frame_interval() const { return min_interval_; }
    // Called with every frame sent (its bytes without FCS, and when its preamble started), for
    // a capture of the wire; nothing is built for it otherwise.
    void on_frame(std::function<void(const std::uint8_t*, unsigned, Picos)> fn) {
        on_frame_ = std::move(fn);
    }

private:
    void send();  // SC_METHOD: one frame's last byte arrives
    Picos arrival(std::uint64_t k) const;  // of frame k (0-based), from time zero

    WireSourceConfig config_;
    Nic& nic_;
    unsigned port_;
    Picos min_interval_;    // back to back at the line rate
    Picos burst_period_;    // start of one burst to the next (one frame when evenly spaced)
    unsigned burst_;        // frames per burst
    std::uint64_t sent_ = 0;
    sc_core::sc_event next_{"next"};
    std::function<void(const std::uint8_t*, unsigned, Picos)> on_frame_;
    std::vector<std::uint8_t> frame_;  // on_frame_'s frame, reused
};

}  // namespace pcisim
