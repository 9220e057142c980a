#include "core/invariants.h"

#include <sstream>

#include "core/sim_time.h"

namespace pcisim {

namespace {
std::string message(Picos when, const std::string& module, const std::string& state) {
    std::ostringstream o;
    o.setf(std::ios::fixed);
    o.precision(3);
    o << "invariant violated at " << ps_to_us(when) << " us in " << module << ": " << state;
    return o.str();
}
}  // namespace

InvariantViolation::InvariantViolation(const std::string& module, const std::string& state)
    : std::runtime_error(message(now_ps(), module, state)),
      when_(now_ps()),
      module_(module),
      state_(state) {}

}  // namespace pcisim
