// Runs the platform a scenario describes (run/platform.h builds it) to a steady state and
// measures it: warm-up until the rings have filled, then batches until the rate is stable, the
// watchdog and the conservation checks throughout; run/results.h reports what was measured.
// Simulations may follow one another in a process, each in a SystemC context of its own
// (run/kernel_context.h); one at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/pci_types.h"
#include "run/kernel_context.h"
#include "run/results.h"
#include "run/scenario.h"

namespace pcisim {

class Recording;

// simulation.* (simulation_params() lists units, defaults and ranges) and the test-only crash.
struct RunConfig {
    Picos warmup_ps = 0, max_warmup_ps = 0, batch_ps = 0;
    double min_window_us = 0, max_window_us = 0;
    double stability = 0;        // the rate's relative change in a batch that counts as stable
    double watchdog_us = 0;      // 0 = off
    double max_wall_s = 0;       // 0 = no limit
    Picos crash_at_ps = 0;       // testing.crash_at_us; 0 = never
    static RunConfig from(const Scenario& s);
};

// A frame on a NIC port's cable: sent by the port (as it left, TSO segments one by one) or
// received from the wire source at the far end.  `data` (no FCS) lives only during the call.
struct WireFrame {
    std::string interface;  // "<nic>.port<p>", e.g. "nic.port0"
    bool received = false;
    const std::uint8_t* data = nullptr;
    unsigned len = 0;
    Picos start = 0;  // its preamble started on the wire
};

class Simulation {
public:
    // Keeps a reference to `scenario`, which must outlive it: a temporary is refused.
    explicit Simulation(const Scenario& scenario);
    explicit Simulation(Scenario&&) = delete;
    ~Simulation();

    // Warm-up, then batches until the measured rate is stable; the results as JSON.
    nlohmann::json run();
    // For benchmarks: simulates from time zero, in batches of simulation.batch_us, until at
    // least `frames` frames have left the wire; returns the frames sent (warm-up not discarded).
    std::uint64_t run_frames(std::uint64_t frames);
    // Records the bus and the NIC/CPU steps while the recording's window is open; run() goes
    // on at least until the window has closed.  Call before run().
    void attach_recorder(Recording& recording);
    // Called with every frame on a wire (--pcap), in each direction of each port in the order
    // they leave; the directions and ports may interleave out of time order (the MACs finish
    // their frames lazily).  Call before run().
    void on_wire_frame(std::function<void(const WireFrame&)> fn);
    // For callers that read only rates (validate): the per-packet distributions are not kept
    // and their lists in the results (packet_latency_ns_by_port, frame_interval_ns_by_port,
    // packet_stages_ns_by_port) come out empty.  Their ten P-square estimators a packet cost
    // about a tenth of a 60-byte run's instructions; nothing else changes.  Call before run().
    void rates_only();

private:
    struct Parts;
    void take_shortcuts();      // lazy MAC wire, CPU run-ahead (unless recording)
    void step(Picos duration);  // simulate, then catch up what is kept lazily
    double measured_rate() const;  // what stability is judged on
    void open_window();
    bool ring_filled() const;  // every transmitting port's queue has stopped once
    void check_conservation() const;
    void check_receive_conservation() const;
    std::vector<RxPortWindow> receive_window() const;  // per receiving port, since open_window
    bool stalled_in_batch(std::uint64_t frames_before) const;
    bool enough_frames() const;
    std::vector<std::string> unmeasured_rates() const;
    void check_results(double window_us) const;

    // Fewer frames than this in a port's window measure no rate worth printing.
    static constexpr std::uint64_t kMinWindowFrames = 10;

    KernelContext kernel_;  // first: its SystemC context outlives every module of the run
    const Scenario& scenario_;
    RunConfig config_;
    std::unique_ptr<Parts> parts_;
    double warmup_us_ = 0;
};

}  // namespace pcisim
