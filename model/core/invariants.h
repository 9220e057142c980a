// Model invariants checked during every run (packets conserved and in order, the TX ring never
// overrun, the FIFO never above its size, no descriptor processed twice, one bus master at a
// time, register reads that complete, progress).  A broken one stops the run with this
// exception instead of carrying on with a state that no longer means anything.
#pragma once

#include <stdexcept>
#include <string>

#include "core/pci_types.h"

namespace pcisim {

class InvariantViolation : public std::runtime_error {
public:
    // `module` names where it was found (a SystemC module name); `state` says what was wrong
    // and the state that shows it.  The simulated time is taken when it is thrown.
    InvariantViolation(const std::string& module, const std::string& state);

    Picos when() const { return when_; }
    const std::string& module() const { return module_; }
    const std::string& state() const { return state_; }

private:
    Picos when_;
    std::string module_, state_;
};

}  // namespace pcisim
