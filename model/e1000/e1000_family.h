// The e1000 family (the 8254x parts of kModels, e1000_params.h) as the harness builds it
// (nic/nic_family.h): a NIC's E1000Params read from the scenario, the E1000 made from them, and
// the statistics it reports (e1000_statistics.h).
#pragma once

#include "e1000/e1000_params.h"
#include "nic/nic_family.h"

namespace pcisim::e1000 {

class E1000Spec : public NicSpec {
public:
    explicit E1000Spec(E1000Params params) : params_(std::move(params)) {}
    const E1000Params& params() const { return params_; }

    const std::string& model() const override { return params_.model; }
    std::uint16_t device_id() const override { return params_.traits.identity.device_id; }
    std::uint64_t port_register_bytes() const override;
    std::uint64_t bar_bytes() const override;
    Picos byte_time_ps() const override { return params_.byte_time_ps; }
    std::unique_ptr<Nic> make(const std::string& name, PciBus& segment, DmaMemory& memory,
                              std::uint64_t bar,
                              std::vector<InterruptSink*> irq_per_port) const override;

private:
    E1000Params params_;
};

const NicFamily& family();

// The E1000Params of a NIC of this family (what the TLM component and tests build an E1000
// from); throws std::invalid_argument for another family's.
const E1000Params& params_of(const NicSpec& spec);

}  // namespace pcisim::e1000
