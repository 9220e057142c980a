// A program of its own built against an installed pcisim: it runs a scenario with the model
// (pcisim::model) and reads the same scenario as the TLM-2.0 example platform's configuration
// (pcisim::tlm), then prints what it got.
//
//   consumer SCENARIO
#include <cstdlib>
#include <iostream>

#include <systemc>

#include "core/sim_time.h"
#include "run/scenario.h"
#include "run/simulation.h"
#include "tlm/example_platform.h"

int sc_main(int argc, char* argv[]) {
    if (argc != 2) {
        std::cerr << "usage: consumer SCENARIO\n";
        return 2;
    }
    pcisim::use_picosecond_resolution();
    try {
        pcisim::Scenario scenario = pcisim::Scenario::load(argv[1]);
        pcisim::TlmExampleConfig tlm = pcisim::TlmExampleConfig::from(scenario);
        pcisim::Simulation simulation(scenario);
        nlohmann::json results = simulation.run();
        std::cout << "tx_pps " << results["tx_pps"].dump() << "\n"
                  << "tlm nic " << tlm.platform.topology.nics.front().spec->model() << "\n";
    } catch (const std::exception& e) {
        std::cerr << "consumer: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

int main(int argc, char* argv[]) {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
