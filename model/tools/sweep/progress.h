// Sweep progress on stderr: a redrawn bar on a terminal, one plain line per finished point
// otherwise (logs, CI, Slurm output files).
#pragma once

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

namespace pcisim::sweep {

class Progress {
public:
    Progress(std::ostream& out, bool terminal, std::size_t total);
    // One more point finished; `label` names it ("packet.size=60 ok").
    void point_done(bool ok, const std::string& label);
    // Ends the bar's line.
    void finish();

private:
    std::string counts() const;  // "5/20 points (1 failed), 3.2/s, ETA 5 s"
    std::ostream& out_;
    bool terminal_;
    std::size_t total_, done_ = 0, failed_ = 0;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace pcisim::sweep
