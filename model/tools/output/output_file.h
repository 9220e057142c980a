// Where a command's output files may go, and how they are written: checked before any work
// starts, and replaced in one step, so that a crash or a power cut leaves either the old file
// or the whole new one.
#pragma once

#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace pcisim::output {

// An output that cannot be written; the message names the option, the path and what was
// expected.
class OutputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws OutputError unless `path` (given with `option`, e.g. "-o") can be an output: its folder
// exists and is writable, and the path is either absent or a regular file (a device node, a
// FIFO or a folder would be replaced by the rename) that is none of `inputs` (the files the
// command reads).
void check_output_path(const std::string& option, const std::string& path,
                       const std::vector<std::string>& inputs);

// Writes `text` to a temporary file in path's folder, flushes it to the disk (fsync), renames it
// onto `path` and flushes the folder, so the new file survives a power cut once this returns.
// Throws OutputError.
void write_file_durably(const std::string& path, const std::string& text);

// Removes the temporary files (PATH.tmp-PID) that write_file_durably left when its process was
// killed mid-write.  Only for a caller that holds the output's lock: no one else writes them.
void remove_stale_temporaries(const std::string& path);

// Writes `text` to `path` as it is (a pipe or /dev/stdout works too).  Throws OutputError naming
// the path when the write fails.
void write_text_file(const std::string& path, const std::string& text);

// "-" as a command's --json names the standard output: the JSON goes there and nothing else
// does, so the command's readable report goes to the standard error instead (with -q nowhere:
// tools/output/verbosity.h).
bool is_stdout(const std::string& path);
std::ostream& report_stream(const std::string& json_path);
// Writes `text` to the standard output for "-", else as write_text_file does.
void write_output(const std::string& path, const std::string& text);

// Flushes the folder holding `path` (a file created, renamed or removed in it) to the disk.
void sync_folder_of(const std::string& path);

}  // namespace pcisim::output
