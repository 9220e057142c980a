// A synthetic bus master: reads or writes `bytes` at `addr` again and again, with a gap
// between the end of one request and the next.  Used by the bus demo, by tests, and as
// background load from other devices sharing the NIC's bus.
#pragma once

#include <vector>

#include <cstdint>
#include <random>
#include <string>

#include <systemc>

#include "core/pci_types.h"

namespace pcisim {

class ScenarioView;
struct ParamSpec;

// This module's scenario keys (unit, default, range, meaning), collected by run/schema.cpp.
std::vector<ParamSpec> dma_master_params();  // masters[].*

class DmaMaster : public sc_core::sc_module, public BusMaster {
public:
    struct Config {
        std::string name = "dma";
        bool read = true;
        std::uint64_t addr = 0x100000;
        std::uint32_t bytes = 512;
        Picos gap_ps = 0;   // from one request's completion to the next request (the mean
                            // when random)
        bool random_gap = false;  // exponentially distributed gaps (independent arrivals)
        std::uint64_t seed = 1;
        Picos start_ps = 0;
        std::uint64_t count = 0;  // requests to make; 0 = no end
        unsigned width_bits = 0;  // 0 = bus width
        static Config from(const ScenarioView& s, const std::string& prefix);
    };
    SC_HAS_PROCESS(DmaMaster);
    DmaMaster(sc_core::sc_module_name name, const Config& config, BusPort& bus);

    void read_done(std::uint64_t tag, const DmaStats& stats, std::uint32_t dword) override;
    void write_done(std::uint64_t tag, const DmaStats& stats) override;

    struct Totals {
        std::uint64_t requests = 0, bytes = 0, transactions = 0, retries = 0, disconnects = 0,
                      preemptions = 0;
        Picos latency_sum = 0;   // issued to finished, summed
        Picos arbitration_sum = 0;
    };
    const Totals& totals() const { return totals_; }
    void reset_totals() { totals_ = Totals{}; }
    const Config& config() const { return config_; }

private:
    void issue();
    void account(const DmaStats& stats);

    Config config_;
    BusPort& bus_;
    int id_;
    std::uint64_t issued_ = 0;
    Totals totals_;
    std::mt19937_64 rng_;
    sc_core::sc_event next_event_{"next"};
};

}  // namespace pcisim
