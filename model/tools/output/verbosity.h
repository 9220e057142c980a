// -q (--quiet, every command): the readable reports and the progress lines go nowhere; errors,
// warnings and validate's verdict still do, and every file asked for is still written.
#pragma once

#include <ostream>

namespace pcisim::output {

void set_quiet(bool on);
bool quiet();
// Where a command's informational lines go (progress, "wrote ..."): the standard error, or
// nowhere with -q.
std::ostream& info_stream();
// A stream that drops what is written to it.
std::ostream& null_stream();

}  // namespace pcisim::output
