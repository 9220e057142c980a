// Where pcisim finds its data: the scenarios, the platform presets (scenarios/platforms/), the
// calibration set (scenarios/calibration.json) and the reference measurements it names
// (docs/data/).  A data directory is one that holds scenarios/.  In this order:
//
//   1. the one given with --data-dir (set_data_dir);
//   2. $PCISIM_DATA_DIR;
//   3. the installation the executable belongs to: <prefix>/share/pcisim beside <prefix>/bin
//      (found from /proc/self/exe, so an installed tree can be moved or copied as a whole);
//   4. the source tree the build was configured from;
//   5. the configured installation prefix (a program of its own linked against an installed
//      pcisim).
//
// A directory named by 1 or 2 that holds no scenarios/ is an error, never passed over.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace pcisim {

class DataDirError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// --data-dir: the directory to use before any other (empty: none given).
void set_data_dir(const std::string& dir);

struct DataDir {
    std::filesystem::path path;  // empty when none was found
    std::string found_by;        // "--data-dir", "PCISIM_DATA_DIR", "installation", ...
};

// The data directory by the rules above; throws DataDirError when --data-dir or PCISIM_DATA_DIR
// names one without scenarios/.
DataDir find_data_dir();

// `relative` (e.g. "scenarios/platforms/phi.json") inside the data directory; when there is
// none, inside the source tree (whose absence the caller's "not found" then reports).
std::filesystem::path data_path(const std::filesystem::path& relative);

}  // namespace pcisim
