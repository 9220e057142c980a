#include "tools/cli/build_identity.h"

// CMake defines these for this file only (CMakeLists.txt): the git hash changes with every
// commit, and no other file should recompile for it.  The file includes nothing heavy, since it
// compiles on its own (a file with definitions of its own stays out of a unity batch).
#ifndef PCISIM_VERSION
#error "PCISIM_VERSION is defined by CMakeLists.txt"
#endif
#ifndef PCISIM_GIT
#error "PCISIM_GIT is defined by CMakeLists.txt"
#endif

namespace pcisim::cli {

const char* pcisim_version() { return PCISIM_VERSION; }
const char* pcisim_git() { return PCISIM_GIT; }

}  // namespace pcisim::cli
