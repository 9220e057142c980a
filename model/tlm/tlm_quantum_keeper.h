// A TLM-2.0 quantum keeper with a quantum of its own rather than the platform's global one
// (tlm_global_quantum is one value for the whole simulation, which the component must not set
// for the platform).
#pragma once

#include <tlm_utils/tlm_quantumkeeper.h>

namespace pcisim {

class OwnQuantumKeeper : public tlm_utils::tlm_quantumkeeper {
public:
    explicit OwnQuantumKeeper(const sc_core::sc_time& quantum) : quantum_(quantum) { reset(); }

protected:
    sc_core::sc_time compute_local_quantum() override { return quantum_; }

private:
    sc_core::sc_time quantum_;
};

}  // namespace pcisim
