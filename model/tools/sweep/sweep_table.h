// The results of a sweep (one row per point) and their two files: OUT.csv for spreadsheets,
// fit and plots, OUT.json with the same rows plus what is needed to rebuild or merge the sweep.
//
// CSV columns: every varied key (in --vary order), "status" (ok/failed), "error", then the
// metrics: every numeric scalar of the results JSON outside "scenario", flattened with dots
// ("bus.utilisation", "masters.0.bytes_per_s"), the headline ones first (headline_metrics(),
// those the run has), then the others sorted by name; or only those --columns names, in its
// order.  A metric with the same name as a varied key is left out: the varied column already
// holds it.  OUT.json always holds every metric.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/sweep/sweep_axes.h"

namespace pcisim::sweep {

struct SweepRow {
    std::size_t index = 0;                 // point index in the full product
    std::vector<nlohmann::json> values;    // one per axis
    bool ok = false;
    std::string error;                     // why it failed; empty when ok
    std::map<std::string, nlohmann::json> metrics;
};

struct SweepTable {
    std::string scenario_file;
    std::vector<std::string> sets;   // the --set overrides common to every point
    std::vector<Axis> axes;
    nlohmann::json base_scenario;    // resolved, before the point's own values
    std::size_t points_total = 0;    // of the whole product, whatever the shard
    std::optional<Shard> shard;
    std::vector<SweepRow> rows;      // in point order
    // What ran the sweep (cli/provenance.h); not part of its identity.  A resumed sweep keeps
    // its first run's: the command line that set up the points.  null when not known.
    nlohmann::json provenance;
    // --columns: the metrics the CSV has, in this order; empty: all of them.  Not part of the
    // sweep's identity (it chooses what the CSV shows, not what ran).
    std::vector<std::string> csv_columns;
};

// The metrics a reader looks at first (the rates, the throughput, the bus's load), in the
// order the CSV puts them when the rows have them.
const std::vector<std::string>& headline_metrics();

// Numeric scalars of a results document outside its "scenario" subtree, by dotted name.
std::map<std::string, nlohmann::json> flatten_metrics(const nlohmann::json& results);

std::vector<std::string> columns(const SweepTable& table);
// What makes two runs the same sweep: scenario file, --set, axes, points, shard and the
// resolved base scenario (so an edited scenario file is a different sweep).
nlohmann::json identity_json(const SweepTable& table);
// One row as OUT.json and the journal hold it; row_from_json throws std::runtime_error.
nlohmann::json row_json(const std::vector<Axis>& axes, const SweepRow& row);
SweepRow row_from_json(const std::vector<Axis>& axes, const nlohmann::json& row);
nlohmann::json to_json(const SweepTable& table);
// Throws std::runtime_error naming what is missing or malformed.
SweepTable table_from_json(const nlohmann::json& doc);

// A file beside a sweep's CSV: beside("out.csv", ".lock") is "out.lock".
std::string beside(const std::string& csv_path, const std::string& extension);
// The JSON file beside a CSV file: out.csv -> out.json.
std::string json_path_for(const std::string& csv_path);
// Writes the JSON, then the CSV, each to a temporary file flushed to the disk and renamed into
// place, so a reader (or a power cut) never sees half a file.  Throws std::runtime_error
// (output::OutputError) naming the file, and then changes neither when a string is not UTF-8.
void write_table(const SweepTable& table, const std::string& csv_path);
// Reads the JSON beside a sweep CSV.  Throws std::runtime_error.
SweepTable read_table(const std::string& csv_path);

}  // namespace pcisim::sweep
