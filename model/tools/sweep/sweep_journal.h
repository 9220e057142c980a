// The journal of a running sweep (OUT.journal beside OUT.csv): one JSON line per finished
// point, each flushed to the disk (fsync) before the point is counted, so that whatever stops
// the sweep (SIGKILL, SIGHUP, a crash, a power cut) loses at most the points in flight.
// `pcisim sweep --resume` reads it; the sweep removes it once OUT.csv and OUT.json hold its rows.
//
// Line 1 is the sweep's identity (identity_json); every further line is a row (row_json).  A
// power cut can tear only the last line; a torn line and anything after it are dropped when the
// journal is read or continued.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "tools/sweep/sweep_table.h"

namespace pcisim::sweep {

class SweepJournal {
public:
    // Starts a journal at `path` for the sweep `table` describes (replacing any journal there),
    // or continues the one there when `continue_existing` and it belongs to the same sweep.
    // Throws std::runtime_error when it cannot be written.
    SweepJournal(const std::string& path, const SweepTable& table, bool continue_existing);
    ~SweepJournal();
    SweepJournal(const SweepJournal&) = delete;
    SweepJournal& operator=(const SweepJournal&) = delete;

    // Appends the row and flushes it to the disk.  Throws std::runtime_error, and then leaves
    // the journal as it was before (a torn line is cut off): every line in it is whole.
    void append(const SweepRow& row);
    // Rows appended by this run and flushed.
    std::size_t appended() const { return appended_; }
    // Deletes the journal: the outputs hold its rows now.
    void remove();

    // The rows recorded at `path` by the sweep `table` describes, by point index (a later line
    // for a point replaces an earlier one).  Empty when there is no journal or its header is
    // torn.  Throws std::runtime_error when it belongs to a different sweep.
    static std::map<std::size_t, SweepRow> read(const std::string& path, const SweepTable& table);
    // The provenance the journal at `path` was started with (its header), or null.
    static nlohmann::json recorded_provenance(const std::string& path);

private:
    std::string path_;
    std::vector<Axis> axes_;
    int fd_ = -1;
    off_t good_bytes_ = 0;  // the length of its whole lines
    std::size_t appended_ = 0;
};

}  // namespace pcisim::sweep
