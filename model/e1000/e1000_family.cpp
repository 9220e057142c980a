#include "e1000/e1000_family.h"

#include <stdexcept>

#include "config/scenario_view.h"
#include "e1000/e1000.h"
#include "e1000/e1000_statistics.h"
#include "platform/pci_bus.h"

namespace pcisim::e1000 {

std::uint64_t E1000Spec::port_register_bytes() const { return E1000::kBarBytes; }

std::uint64_t E1000Spec::bar_bytes() const { return params_.traits.ports * E1000::kBarBytes; }

// The part reports the segment it sits on in STATUS (BusSlot).
std::unique_ptr<Nic> E1000Spec::make(const std::string& name, PciBus& segment, DmaMemory& memory,
                                     std::uint64_t bar,
                                     std::vector<InterruptSink*> irq_per_port) const {
    E1000Params params = params_;
    const BusConfig& bus = segment.config();
    params.slot = {bus.kind == BusKind::PciX, bus.width_bits, bus.clock_mhz};
    return std::make_unique<E1000>(name.c_str(), params, segment, memory, bar,
                                   std::move(irq_per_port));
}

namespace {

bool has_model(const std::string& model) {
    for (const ModelTraits& m : kModels)
        if (model == m.model) return true;
    return false;
}

std::shared_ptr<const NicSpec> read(const ScenarioView& s, const std::string& prefix) {
    return std::make_shared<E1000Spec>(E1000Params::from(s, prefix));
}

// The statistics of e1000_statistics.h, for the NICs of this family.
const StatGroup<const Nic*>& nic_statistics() {
    static const StatGroup<const Nic*> g = StatGroup<const Nic*>().group<NicCounters>(
        "", statistics(), [](const Nic* nic) -> std::optional<NicCounters> {
            const auto* e1000 = dynamic_cast<const E1000*>(nic);
            if (!e1000) return std::nullopt;
            return NicCounters::of(*e1000);
        });
    return g;
}

}  // namespace

const NicFamily& family() {
    static const NicFamily f{"e1000", has_model, read, nic_statistics, nic_params, check_nic};
    return f;
}

const E1000Params& params_of(const NicSpec& spec) {
    const auto* e1000 = dynamic_cast<const E1000Spec*>(&spec);
    if (!e1000)
        throw std::invalid_argument("nic.model " + spec.model() + " is not an e1000 part");
    return e1000->params();
}

}  // namespace pcisim::e1000
