#include "tools/output/verbosity.h"

#include <iostream>

namespace pcisim::output {

namespace {
bool quiet_ = false;
}

void set_quiet(bool on) { quiet_ = on; }
bool quiet() { return quiet_; }

std::ostream& null_stream() {
    // No buffer: every write only sets badbit, which nothing reads.
    static std::ostream nowhere(nullptr);
    return nowhere;
}

std::ostream& info_stream() { return quiet_ ? null_stream() : std::cerr; }

}  // namespace pcisim::output
