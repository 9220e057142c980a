// --vcd FILE, --trace FILE and --window START_US:END_US, shared by `run` and `explain`; and
// --pcap FILE, every frame on the wire during the whole run (tools/output/pcap_writer.h).
#pragma once

#include <memory>
#include <string>

#include <boost/program_options.hpp>

#include "run/recording.h"

namespace pcisim {
class Scenario;
}

namespace pcisim::cli {

struct RecordingOptions {
    std::string vcd, trace, window, pcap;

    void add_to(boost::program_options::options_description& opts);
    bool wanted() const { return !vcd.empty() || !trace.empty(); }
    // The window asked for, or `default_us` of simulated time from the end of the warm-up.
    // Throws std::invalid_argument for a malformed --window (NaN, infinite, negative, empty).
    TimeWindow resolve(const Scenario& s, double default_us) const;
    // Writes the requested views; false (and a message on stderr) when a file cannot be written.
    bool write_views(const Recording& recording, const char* command) const;
};

}  // namespace pcisim::cli
