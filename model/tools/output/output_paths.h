// The files one command writes, checked together before it does any work: no output may name
// an input of the command (its scenario, a platform file, the CSV it fits) or another of its
// outputs, whatever the spelling (./a, a symlink, a hard link).  docs/robustness.md lists the
// rules; tests/fuzz/fuzz_output_paths.cpp writes through whatever this lets pass.
#pragma once

#include <string>
#include <vector>

#include "tools/output/output_file.h"

namespace pcisim::output {

struct OutputFile {
    std::string option;  // as the user gave it: "--json", "--vcd", "-o"
    std::string path;
    // Written to a temporary file and renamed onto the path (write_file_durably): only a
    // regular file or a new name will do.  Otherwise the file is opened and written in place,
    // so a pipe, a FIFO or a terminal (or "-", the standard output) is fine too.
    bool replaced = false;
};

// Throws OutputError (one line: the option, the path and what was expected) unless every
// output can be written and none is an input or another output: not empty, "-" at most once
// and never for a replaced output, its folder there and writable, not a folder.  Character
// devices (/dev/null, a terminal) may take several outputs.
void check_outputs(const std::vector<OutputFile>& outputs, const std::vector<std::string>& inputs);

// A name for the file `path` is or would be: its device and inode when it exists (following
// symbolic links), else its absolute path with the symbolic links of its existing part (and a
// dangling link at its end) resolved.  Two paths with the same identity write the same file.
std::string file_identity(const std::string& path);

}  // namespace pcisim::output
