#include "platform/dma_master.h"

#include <cmath>
#include <functional>

#include "config/scenario_view.h"
#include "config/param_spec.h"
#include "core/sim_time.h"

namespace pcisim {

std::vector<ParamSpec> dma_master_params() {
    return {
        text("masters[].name", "dma", "Name in results."),
        choice("masters[].op", "read", {"read", "write"}, "What the master does."),
        integer("masters[].addr", "byte address", 0x100000, 0, 1LL << 40,
                "Host memory address of each request."),
        integer("masters[].bytes", "bytes", 512, 1, 65536, "Bytes per request."),
        number("masters[].gap_ns", "ns", 0, 0, 1e9,
               "Pause between one request's completion and the next request (the mean when "
               "random)."),
        choice("masters[].gap", "fixed", {"fixed", "random"},
               "'random': exponentially distributed pauses (a device whose requests arrive "
               "independently), drawn from simulation.seed."),
        number("masters[].start_ns", "ns", 0, 0, 1e9, "Time of the first request."),
        integer("masters[].count", "requests", 0, 0, 1LL << 40, "Requests to make; 0 = no end."),
        one_of_integers("masters[].width_bits", "bits", 0, {0, 32, 64},
                        "Master's data path; 0 = the bus width."),
        boolean("masters[].enabled", true, "Set false to leave the master off the bus."),
    };
}

DmaMaster::Config DmaMaster::Config::from(const ScenarioView& s, const std::string& prefix) {
    Config c;
    c.name = s.text(prefix + ".name");
    c.read = s.text(prefix + ".op") == "read";
    c.addr = static_cast<std::uint64_t>(s.integer(prefix + ".addr"));
    c.bytes = static_cast<std::uint32_t>(s.integer(prefix + ".bytes"));
    c.gap_ps = ns_to_ps(s.number(prefix + ".gap_ns"));
    c.random_gap = s.text(prefix + ".gap") == "random";
    c.seed = static_cast<std::uint64_t>(s.integer("simulation.seed")) * 7919 + std::hash<std::string>{}(c.name);
    c.start_ps = ns_to_ps(s.number(prefix + ".start_ns"));
    c.count = static_cast<std::uint64_t>(s.integer(prefix + ".count"));
    c.width_bits = static_cast<unsigned>(s.integer(prefix + ".width_bits"));
    return c;
}

DmaMaster::DmaMaster(sc_core::sc_module_name name, const Config& config, BusPort& bus)
    : sc_core::sc_module(name), config_(config), bus_(bus), rng_(config.seed) {
    MasterConfig mc;
    mc.name = config_.name;
    mc.width_bits = config_.width_bits;
    id_ = bus_.attach_master(this, mc);
    SC_METHOD(issue);
    sensitive << next_event_;
    dont_initialize();
    next_event_.notify(ps(config_.start_ps));
}

void DmaMaster::issue() {
    if (config_.count && issued_ >= config_.count) return;
    ++issued_;
    if (config_.read)
        bus_.read(id_, config_.addr, config_.bytes, issued_);
    else
        bus_.write(id_, config_.addr, config_.bytes, issued_);
}

void DmaMaster::account(const DmaStats& stats) {
    ++totals_.requests;
    totals_.bytes += config_.bytes;
    totals_.transactions += stats.transactions;
    totals_.retries += stats.retries;
    totals_.disconnects += stats.disconnects;
    totals_.preemptions += stats.preemptions;
    totals_.latency_sum += stats.finished - stats.issued;
    totals_.arbitration_sum += stats.arbitration;
    Picos gap = config_.gap_ps;
    if (config_.random_gap) {
        // Inverse transform of a uniform draw: the same seed gives the same gaps everywhere.
        double u = (static_cast<double>(rng_() >> 11) + 0.5) * (1.0 / 9007199254740992.0);
        gap = static_cast<Picos>(-std::log(u) * static_cast<double>(config_.gap_ps));
    }
    next_event_.notify(ps(gap));
}

void DmaMaster::read_done(std::uint64_t, const DmaStats& stats, std::uint32_t) { account(stats); }
void DmaMaster::write_done(std::uint64_t, const DmaStats& stats) { account(stats); }

}  // namespace pcisim
