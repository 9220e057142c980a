// Builds the platform a scenario describes (host bridge, bridges, the NIC's bus segment, its
// masters) and runs it to a steady state.  SystemC elaborates once per process: one
// Simulation per process.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/pci_types.h"
#include "run/scenario.h"

namespace pcisim {

class Recording;

class Simulation {
public:
    explicit Simulation(const Scenario& scenario);
    ~Simulation();

    // Warm-up, then batches until the measured rate is stable; the results as JSON.
    nlohmann::json run();
    // For benchmarks: simulates from time zero, in batches of simulation.batch_us, until at
    // least `frames` frames have left the wire; returns the frames sent (warm-up not discarded).
    std::uint64_t run_frames(std::uint64_t frames);
    // Records the bus and the NIC/CPU steps while the recording's window is open; run() goes
    // on at least until the window has closed.  Call before run().
    void attach_recorder(Recording& recording);

private:
    struct Parts;
    void take_shortcuts();      // lazy MAC wire, CPU run-ahead (unless recording)
    void step(Picos duration);  // simulate, then catch up what is kept lazily
    double measured_rate() const;  // what stability is judged on
    nlohmann::json results(double window_us, double last_change) const;
    void reset_statistics();
    bool ring_filled() const;  // every transmitting port's queue has stopped once
    void build_nic();
    void add_nic_results(nlohmann::json& r, double window_s) const;

    const Scenario& scenario_;
    std::unique_ptr<Parts> parts_;
    double warmup_us_ = 0;
};

// The readable summary of a results document.
std::string summarize(const nlohmann::json& results);

}  // namespace pcisim
