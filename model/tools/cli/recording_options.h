// --vcd FILE, --trace FILE and --window START_US:END_US, shared by `run` and `explain`; and
// --pcap FILE, every frame on the wire during the whole run (tools/output/pcap_writer.h).
#pragma once

#include <memory>
#include <string>

#include <boost/program_options.hpp>

#include "run/recording.h"
#include "tools/output/output_paths.h"

namespace pcisim {
class Scenario;
}

namespace pcisim::cli {

// A recording keeps every bus transaction and step of the window: about 5 MB per simulated ms
// on a busy bus.  A window is at most this long, so that memory stays bounded.
constexpr double kMaxRecordingUs = 20000;

struct RecordingOptions {
    std::string vcd, trace, window, pcap;
    bool vcd_given = false, trace_given = false, pcap_given = false;

    void add_to(boost::program_options::options_description& opts);
    // Notes which options were given (an empty --vcd "" is given, and refused by check_outputs).
    void note_given(const boost::program_options::variables_map& vm);
    bool wanted() const { return vcd_given || trace_given; }
    // --vcd, --trace and --pcap as outputs to check (output::check_outputs).
    std::vector<output::OutputFile> outputs() const;
    // The window asked for, or `default_us` of simulated time from the end of the warm-up.
    // Throws std::invalid_argument for a malformed --window (NaN, infinite, negative, empty),
    // one longer than kMaxRecordingUs or one ending after the latest time the run can reach.
    TimeWindow resolve(const Scenario& s, double default_us) const;
    // Writes the requested views ("-": the standard output); false (and a message on stderr)
    // when a file cannot be written.
    bool write_views(const Recording& recording, const char* command) const;
};

}  // namespace pcisim::cli
