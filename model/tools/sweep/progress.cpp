#include "tools/sweep/progress.h"

#include <cstdio>
#include <sstream>

namespace pcisim::sweep {

namespace {

constexpr int kBarWidth = 30;

std::string duration(double s) {
    char buf[32];
    if (s < 120)
        std::snprintf(buf, sizeof buf, "%.0f s", s);
    else if (s < 7200)
        std::snprintf(buf, sizeof buf, "%.1f min", s / 60);
    else
        std::snprintf(buf, sizeof buf, "%.1f h", s / 3600);
    return buf;
}

}  // namespace

Progress::Progress(std::ostream& out, bool terminal, std::size_t total)
    : out_(out), terminal_(terminal), total_(total), start_(std::chrono::steady_clock::now()) {}

std::string Progress::counts() const {
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    double rate = elapsed > 0 ? done_ / elapsed : 0;
    std::ostringstream s;
    s << done_ << "/" << total_ << " points";
    if (failed_) s << " (" << failed_ << " failed)";
    char r[32];
    std::snprintf(r, sizeof r, "%.1f", rate);
    s << ", " << r << " points/s";
    if (done_ < total_ && rate > 0) s << ", ETA " << duration((total_ - done_) / rate);
    if (done_ == total_) s << ", " << duration(elapsed);
    return s.str();
}

void Progress::point_done(bool ok, const std::string& label) {
    ++done_;
    if (!ok) ++failed_;
    if (!terminal_) {
        out_ << "sweep: " << counts() << ": " << label << "\n" << std::flush;
        return;
    }
    int filled = total_ ? static_cast<int>(kBarWidth * done_ / total_) : kBarWidth;
    out_ << "\r[" << std::string(filled, '#') << std::string(kBarWidth - filled, '.') << "] "
         << counts() << "\x1b[K" << std::flush;  // erase what a longer line left behind
}

void Progress::finish() {
    if (terminal_ && done_) out_ << "\n" << std::flush;
}

}  // namespace pcisim::sweep
