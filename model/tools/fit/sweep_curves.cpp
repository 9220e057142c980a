#include "tools/fit/sweep_curves.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>

#include "tools/fit/regimes.h"
#include "tools/sweep/csv.h"

namespace pcisim::fit {

namespace {

std::runtime_error bad_cell(const std::string& cell, const std::string& column,
                            std::size_t line, const std::string& why) {
    return std::runtime_error("line " + std::to_string(line) + ", column " + column + ": \"" +
                              cell + "\" " + why);
}

// A finite number: stod also takes "inf" and "nan", which would turn every fit into NaN.
double number_in(const std::string& cell, const std::string& column, std::size_t line) {
    try {
        std::size_t used = 0;
        double v = std::stod(cell, &used);
        if (used == cell.size() && std::isfinite(v)) return v;
    } catch (const std::exception&) {
    }
    throw bad_cell(cell, column, line, "is not a finite number");
}

// The byte rate of the bus a row ran on, when the CSV says it.
std::optional<double> bus_rate(const sweep::CsvRow& row, std::optional<std::size_t> width,
                               std::optional<std::size_t> clock, std::size_t line) {
    if (!width || !clock || row[*width].empty() || row[*clock].empty()) return std::nullopt;
    return number_in(row[*width], "bus.width_bits", line) / 8 *
           number_in(row[*clock], "bus.clock_mhz", line) * 1e6;
}

}  // namespace

std::vector<Curve> read_curves(std::istream& csv, const CurveColumns& columns) {
    // One record at a time: memory holds the curves' samples, not the sweep's every metric.
    sweep::CsvReader reader(csv);
    sweep::CsvRow header;
    if (!reader.next(header)) throw std::runtime_error("the CSV is empty");
    auto find = [&](const std::string& name) -> std::optional<std::size_t> {
        auto it = std::find(header.begin(), header.end(), name);
        if (it == header.end()) return std::nullopt;
        return static_cast<std::size_t>(it - header.begin());
    };
    auto need = [&](const std::string& name, const char* option) {
        if (auto i = find(name)) return *i;
        throw std::runtime_error("no column \"" + name + "\" (choose one with " + option + ")");
    };
    std::size_t x = need(columns.x, "--x"), y = need(columns.y, "--y");
    std::optional<std::size_t> status = find("status"), wire = find(columns.wire);
    std::optional<std::size_t> width = find("bus.width_bits"), clock = find("bus.clock_mhz");

    std::vector<std::size_t> group_cols;
    if (columns.group_by) {
        for (const auto& name : *columns.group_by) group_cols.push_back(need(name, "--group-by"));
    } else if (status) {
        for (std::size_t c = 0; c < *status; ++c)
            if (c != x) group_cols.push_back(c);
    }

    std::vector<Curve> curves;
    std::map<std::vector<std::string>, std::size_t> curve_of;
    for (sweep::CsvRow row; reader.next(row);) {
        const std::size_t line = reader.line();
        if (row.size() != header.size())
            throw std::runtime_error("line " + std::to_string(line) + " has " +
                                     std::to_string(row.size()) + " cells; the header has " +
                                     std::to_string(header.size()));
        if ((status && row[*status] != "ok") || row[y].empty()) continue;
        std::vector<std::string> key;
        for (std::size_t c : group_cols) key.push_back(row[c]);
        auto [it, added] = curve_of.emplace(key, curves.size());
        if (added) {
            Curve c;
            for (std::size_t i = 0; i < group_cols.size(); ++i)
                c.group.emplace_back(header[group_cols[i]], key[i]);
            c.bus_bytes_per_s = bus_rate(row, width, clock, line);
            if (!c.bus_bytes_per_s) c.bus_bytes_per_s = columns.bus_bytes_per_s;
            curves.push_back(std::move(c));
        }
        Curve& c = curves[it->second];
        double s = number_in(row[x], columns.x, line), p = number_in(row[y], columns.y, line);
        // 1/pps is what the fits work on: a point that sent nothing has no place on the curve,
        // and leaving it out quietly would hide that the sweep went wrong there.
        if (!(p > 0))
            throw bad_cell(row[y], columns.y, line,
                           "is not a packet rate > 0; expected every ok point to have sent "
                           "packets (see why this one did not, or remove its row)");
        c.samples.push_back({s, p});
        c.wire_pps.push_back(wire && !row[*wire].empty() ? number_in(row[*wire], columns.wire, line)
                                                        : wire_limit_pps(s));
        std::optional<double> rate = bus_rate(row, width, clock, line);
        if (rate && c.bus_bytes_per_s && *rate != *c.bus_bytes_per_s)
            throw std::runtime_error("line " + std::to_string(line) +
                                     ": the bus changes inside one curve; add its keys to "
                                     "--group-by (e.g. bus.width_bits,bus.clock_mhz)");
    }
    for (Curve& c : curves) {
        std::vector<std::size_t> order(c.samples.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return c.samples[a].size < c.samples[b].size;
        });
        Curve sorted = c;
        for (std::size_t i = 0; i < order.size(); ++i) {
            sorted.samples[i] = c.samples[order[i]];
            sorted.wire_pps[i] = c.wire_pps[order[i]];
        }
        c = std::move(sorted);
    }
    curves.erase(std::remove_if(curves.begin(), curves.end(),
                                [](const Curve& c) { return c.samples.empty(); }),
                 curves.end());
    return curves;
}

}  // namespace pcisim::fit
