// Which pcisim this is: the version and the commit the build was configured from.
#pragma once

namespace pcisim::cli {

const char* pcisim_version();  // "0.1.0"
const char* pcisim_git();      // `git describe --always --dirty`, or "unknown" outside a checkout

}  // namespace pcisim::cli
