// Builds the platform a scenario describes (host bridge, bridges, the NIC's bus segment, its
// masters) and runs it to a steady state.  SystemC elaborates once per process: one
// Simulation per process, or several built in named scopes and run side by side
// (run_together).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "pci_types.h"
#include "scenario.h"

namespace pcisim {

class Recording;

class Simulation {
public:
    explicit Simulation(const Scenario& scenario);
    // Built inside a module named `scope` ("point3"), so that several platforms can share one
    // elaboration without their modules' names clashing.
    Simulation(const Scenario& scenario, const std::string& scope);
    ~Simulation();

    // Warm-up, then batches until the measured rate is stable; the results as JSON.
    nlohmann::json run();
    // Runs several platforms (built with distinct scopes) side by side in this process's one
    // elaboration, each with exactly the pauses and checks run() would give it alone, so each
    // gets the results run() gives it; a platform whose run is done is stopped (its processes
    // suspended) while the others go on.  A sweep worker so pays for its fork and SystemC's
    // start-up once per group of points.  A failure of any platform throws (the group's state
    // is then unusable); the caller runs the group's scenarios one by one to find it.
    static std::vector<nlohmann::json> run_together(const std::vector<Simulation*>& group);
    // For benchmarks: simulates from time zero, in batches of simulation.batch_us, until at
    // least `frames` frames have left the wire; returns the frames sent (warm-up not discarded).
    std::uint64_t run_frames(std::uint64_t frames);
    // Records the bus and the NIC/CPU steps while the recording's window is open; run() goes
    // on at least until the window has closed.  Call before run().
    void attach_recorder(Recording& recording);

private:
    struct Parts;
    enum class Phase { WarmingUp, Measuring, Done };
    void build();
    void start_run();  // the first pause is the end of the warm-up
    bool at_pause();   // run()'s checks at a batch end; true once the results are taken
    void suspend();    // every process of the platform, so that it adds no more events
    double measured_rate() const;  // what stability is judged on
    nlohmann::json results(double window_us, double last_change) const;
    void reset_statistics();
    bool ring_filled() const;  // every transmitting port's queue has stopped once
    void build_nic();
    void add_nic_results(nlohmann::json& r, double window_s) const;

    const Scenario& scenario_;
    std::unique_ptr<Parts> parts_;
    double warmup_us_ = 0;
    Phase phase_ = Phase::WarmingUp;
    Picos next_pause_ = 0;  // simulated time of the run's next batch end
    double previous_rate_ = -1;
    nlohmann::json results_;
};

// Builds a platform per scenario in its own scope and runs them together (run_together).
std::vector<nlohmann::json> simulate_together(const std::vector<Scenario>& scenarios);

// The readable summary of a results document.
std::string summarize(const nlohmann::json& results);

}  // namespace pcisim
