// pcisim fit: the latency formula pps = B/(s+k) of every curve in a sweep CSV, regime by regime.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <boost/program_options.hpp>

#include "tools/cli/commands.h"
#include "tools/cli/provenance.h"
#include "tools/cli/numeric_options.h"
#include "tools/cli/options.h"
#include "tools/fit/curve_fit.h"
#include "tools/fit/sweep_curves.h"
#include "tools/output/json_text.h"
#include "tools/output/output_file.h"
#include "tools/output/output_paths.h"
#include "tools/sweep/csv.h"
#include "tools/sweep/sweep_axes.h"
#include "tools/sweep/sweep_table.h"

namespace po = boost::program_options;

namespace pcisim::cli {

namespace {

// The largest sweep CSV fit reads (docs/robustness.md): a file is read one record at a time, so
// memory holds the curves' samples (24 bytes per row), but a file must end.
constexpr std::uintmax_t kMaxSweepCsvBytes = std::uintmax_t(1) << 30;

std::vector<std::string> split_commas(const std::string& text) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, ',');)
        if (!part.empty()) parts.push_back(part);
    return parts;
}

// A warning when the sweep did not finish every point: rows whose status is not ok (the fit
// leaves them out) and, from the sweep's JSON beside the CSV when there is one, points with no
// row at all (an interrupted sweep).  The fit of the rest is still made, but must not pass for
// the whole sweep's.  "" when the sweep is complete.
std::string incompleteness(const std::string& csv_path) {
    std::ifstream in(csv_path);
    sweep::CsvReader reader(in);
    sweep::CsvRow header, row;
    if (!reader.next(header)) return "";
    const auto status = std::find(header.begin(), header.end(), "status") - header.begin();
    std::size_t rows = 0, not_ok = 0;
    for (; reader.next(row); ++rows)
        if (static_cast<std::size_t>(status) < row.size() && row[status] != "ok") ++not_ok;
    std::size_t missing = 0, expected = 0;
    if (std::ifstream(sweep::json_path_for(csv_path))) {
        const sweep::SweepTable table = sweep::read_table_header(csv_path);
        expected =
            sweep::shard_point_count(table.points_total, table.shard.value_or(sweep::Shard{}));
        if (expected > rows) missing = expected - rows;
    }
    if (not_ok == 0 && missing == 0) return "";
    std::ostringstream o;
    o << csv_path << " is incomplete:";
    if (not_ok) o << " " << not_ok << " row(s) with a status other than ok;";
    if (missing) o << " " << missing << " of " << expected << " points have no row;";
    o << " fitting the " << (rows - not_ok) << " finished points only"
      << (missing ? " (finish the sweep with 'pcisim sweep ... --resume')" : "");
    return o.str();
}

}  // namespace

int fit(const Args& args) {
    std::string csv_path, json_out, group_by, bus_rate;
    bool json_given = false;
    fit::CurveColumns cols;
    po::options_description opts(
        "pcisim fit SWEEP.csv [--group-by KEYS] [--x packet.size] [--y tx_pps]\n"
        "           [--wire-pps-column wire_limit_pps] [--bus-bytes-per-s B] [--json OUT]");
    opts.add_options()("help,h", "this help")(
        "group-by", po::value<std::string>(&group_by),
        "comma-separated columns that tell curves apart (default: the varied keys other "
        "than --x)")("x", po::value<std::string>(&cols.x)->default_value(cols.x),
                     "packet size column, bytes")(
        "y", po::value<std::string>(&cols.y)->default_value(cols.y), "packet rate column, pps")(
        "wire-pps-column", po::value<std::string>(&cols.wire)->default_value(cols.wire),
        "wire-limit column; 125e6/(s+24) where absent")(
        "bus-bytes-per-s", po::value<std::string>(&bus_rate),
        "B for the fixed-B fits when the CSV has no bus.width_bits and bus.clock_mhz columns")(
        "json", po::value<std::string>(&json_out),
        "write the fits as JSON to this file ('-': to stdout, the text then to stderr)")(
        "sweep", po::value<std::string>(&csv_path), "sweep CSV");
    po::positional_options_description pos;
    pos.add("sweep", 1);
    try {
        po::variables_map vm;
        if (!parse_options(args, opts, vm, &pos)) return 0;
        // Not ->required(): boost would name a '--sweep' option the usage never shows.
        if (csv_path.empty()) throw po::error("missing SWEEP.csv, the sweep to fit");
        json_given = vm.count("json") > 0;
        if (vm.count("bus-bytes-per-s"))
            cols.bus_bytes_per_s = parse_finite("--bus-bytes-per-s", bus_rate, 0, true);
        if (vm.count("group-by")) cols.group_by = split_commas(group_by);
    } catch (const po::error& e) {
        std::cerr << "pcisim fit: " << e.what() << "\n";
        return 2;
    }

    // The sweep's CSV and the JSON beside it are read: the fit's JSON may be neither.
    try {
        std::vector<output::OutputFile> outputs;
        if (json_given) outputs.push_back({"--json", json_out});
        output::check_outputs(outputs, {csv_path, sweep::json_path_for(csv_path)});
    } catch (const output::OutputError& e) {
        std::cerr << "pcisim fit: " << e.what() << "\n";
        return 2;
    }
    // Read one record at a time, so memory holds the samples; the file is bounded all the same
    // (a device such as /dev/zero has no end).
    std::error_code error;
    std::string refused;
    if (!std::filesystem::is_regular_file(csv_path, error))
        refused = error ? error.message() + "; expected a sweep's CSV file"
                        : "not a regular file; expected a sweep's CSV file";
    else if (const auto size = std::filesystem::file_size(csv_path, error); size > kMaxSweepCsvBytes)
        refused = std::to_string(size) + " bytes; expected a CSV file of at most " +
                  std::to_string(kMaxSweepCsvBytes) + " bytes (1 GiB)";
    if (!refused.empty()) {
        std::cerr << "pcisim fit: " << csv_path << ": " << refused << "\n";
        return 2;
    }
    std::ifstream in(csv_path);
    if (!in) {
        std::cerr << "pcisim fit: cannot read " << csv_path << "\n";
        return 2;
    }
    nlohmann::json doc = {{"sweep", csv_path}, {"x", cols.x}, {"y", cols.y}, {"curves", nlohmann::json::array()}};
    try {
        for (const auto& curve : fit::read_curves(in, cols)) {
            nlohmann::json f = fit::fit_curve(curve);
            output::report_stream(json_out) << fit::describe(f);
            doc["curves"].push_back(f);
        }
    } catch (const std::runtime_error& e) {
        std::cerr << "pcisim fit: " << csv_path << ": " << e.what() << "\n";
        return 2;
    }
    try {
        if (const std::string warning = incompleteness(csv_path); !warning.empty())
            std::cerr << "pcisim fit: warning: " << warning << "\n";
    } catch (const std::runtime_error& e) {
        std::cerr << "pcisim fit: " << e.what() << "\n";
        return 2;
    }
    if (doc["curves"].empty()) {
        std::cerr << "pcisim fit: " << csv_path << ": no successful points to fit\n";
        return 1;
    }
    doc["provenance"] = provenance();
    if (json_given) {
        try {
            output::write_output(json_out, output::json_text(doc, 2, json_out) + "\n");
        } catch (const output::OutputError& e) {
            std::cerr << "pcisim fit: " << e.what() << "\n";
            return 1;
        }
    }
    return 0;
}

}  // namespace pcisim::cli
