#include "tools/sweep/sweep_table.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "tools/output/json_text.h"
#include "tools/output/output_file.h"
#include "tools/sweep/csv.h"

namespace pcisim::sweep {

using nlohmann::json;

namespace {

void flatten(const json& node, const std::string& prefix,
             std::map<std::string, json>& out) {
    auto name = [&](const std::string& key) { return prefix.empty() ? key : prefix + "." + key; };
    if (node.is_object()) {
        for (auto it = node.begin(); it != node.end(); ++it) flatten(*it, name(it.key()), out);
    } else if (node.is_array()) {
        for (std::size_t i = 0; i < node.size(); ++i) flatten(node[i], name(std::to_string(i)), out);
    } else if (node.is_number()) {
        out[prefix] = node;
    }
}

std::string cell(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::string csv_text(const SweepTable& table) {
    std::vector<std::string> cols = columns(table);
    std::ostringstream out;
    out << csv_line(cols) << "\n";
    std::size_t first_metric = table.axes.size() + 2;
    for (const auto& row : table.rows) {
        CsvRow cells;
        for (const auto& v : row.values) cells.push_back(cell(v));
        cells.push_back(row.ok ? "ok" : "failed");
        cells.push_back(row.error);
        for (std::size_t c = first_metric; c < cols.size(); ++c) {
            auto it = row.metrics.find(cols[c]);
            cells.push_back(it == row.metrics.end() ? "" : cell(it->second));
        }
        out << csv_line(cells) << "\n";
    }
    return out.str();
}

}  // namespace

std::map<std::string, json> flatten_metrics(const json& results) {
    std::map<std::string, json> out;
    for (auto it = results.begin(); it != results.end(); ++it)
        if (it.key() != "scenario") flatten(*it, it.key(), out);
    return out;
}

std::vector<std::string> columns(const SweepTable& table) {
    std::vector<std::string> cols;
    std::set<std::string> keys;
    for (const auto& a : table.axes) {
        cols.push_back(a.key);
        keys.insert(a.key);
    }
    cols.push_back("status");
    cols.push_back("error");
    if (!table.csv_columns.empty()) {
        for (const auto& name : table.csv_columns)
            if (!keys.count(name)) cols.push_back(name);
        return cols;
    }
    std::set<std::string> metrics;  // sorted: the same columns whichever rows are present
    for (const auto& row : table.rows)
        for (const auto& [name, value] : row.metrics)
            if (!keys.count(name)) metrics.insert(name);
    for (const auto& name : headline_metrics())
        if (metrics.erase(name)) cols.push_back(name);
    cols.insert(cols.end(), metrics.begin(), metrics.end());
    return cols;
}

const std::vector<std::string>& headline_metrics() {
    static const std::vector<std::string> headline = {
        "tx_pps", "tx_mbps", "wire_limit_pps", "rx.rx_pps", "rx.offered_pps",
        "tcp.throughput_mbit_s", "tcp.send_cpu_pct", "tcp.send_service_demand_us_per_kb",
        "bus.utilisation_fraction"};
    return headline;
}

json identity_json(const SweepTable& table) {
    json doc;
    doc["scenario_file"] = table.scenario_file;
    doc["sets"] = table.sets;
    doc["vary"] = json::array();
    for (const auto& a : table.axes) doc["vary"].push_back({{"key", a.key}, {"values", a.values}});
    doc["points_total"] = table.points_total;
    if (table.shard)
        doc["shard"] = {{"index", table.shard->index}, {"count", table.shard->count}};
    doc["base_scenario"] = table.base_scenario;
    return doc;
}

json row_json(const std::vector<Axis>& axes, const SweepRow& row) {
    json values = json::object();
    for (std::size_t i = 0; i < axes.size(); ++i) values[axes[i].key] = row.values[i];
    return {{"point", row.index},
            {"values", values},
            {"status", row.ok ? "ok" : "failed"},
            {"error", row.error},
            {"metrics", row.metrics}};
}

SweepRow row_from_json(const std::vector<Axis>& axes, const json& r) {
    SweepRow row;
    try {
        row.index = r.at("point").get<std::size_t>();
        for (const auto& a : axes) row.values.push_back(r.at("values").at(a.key));
        row.ok = r.at("status").get<std::string>() == "ok";
        row.error = r.at("error").get<std::string>();
        row.metrics = r.at("metrics").get<std::map<std::string, json>>();
    } catch (const json::exception& e) {
        throw std::runtime_error(std::string("not a pcisim sweep row: ") + e.what());
    }
    return row;
}

json to_json(const SweepTable& table) {
    json doc = identity_json(table);
    doc["columns"] = columns(table);
    doc["rows"] = json::array();
    for (const auto& row : table.rows) doc["rows"].push_back(row_json(table.axes, row));
    if (!table.provenance.is_null()) doc["provenance"] = table.provenance;
    return doc;
}

SweepTable table_from_json(const json& doc) {
    SweepTable t;
    try {
        t.scenario_file = doc.at("scenario_file").get<std::string>();
        t.sets = doc.at("sets").get<std::vector<std::string>>();
        for (const auto& a : doc.at("vary"))
            t.axes.push_back({a.at("key").get<std::string>(), a.at("values").get<std::vector<json>>()});
        t.points_total = doc.at("points_total").get<std::size_t>();
        if (doc.contains("shard"))
            t.shard = Shard{doc["shard"].at("index").get<std::size_t>(),
                            doc["shard"].at("count").get<std::size_t>()};
        t.base_scenario = doc.at("base_scenario");
        t.provenance = doc.value("provenance", json());
        for (const auto& r : doc.at("rows")) t.rows.push_back(row_from_json(t.axes, r));
    } catch (const json::exception& e) {
        throw std::runtime_error(std::string("not a pcisim sweep result: ") + e.what());
    }
    return t;
}

std::string beside(const std::string& csv_path, const std::string& extension) {
    const std::string ext = ".csv";
    if (csv_path.size() > ext.size() &&
        csv_path.compare(csv_path.size() - ext.size(), ext.size(), ext) == 0)
        return csv_path.substr(0, csv_path.size() - ext.size()) + extension;
    return csv_path + extension;
}

std::string json_path_for(const std::string& csv_path) { return beside(csv_path, ".json"); }

void write_table(const SweepTable& table, const std::string& csv_path) {
    const std::string json_path = json_path_for(csv_path);
    // Both texts first: a table that cannot be written leaves both files as they were.
    std::string json_doc = output::json_text(to_json(table), 2, json_path) + "\n";
    std::string csv = csv_text(table);
    output::write_file_durably(json_path, json_doc);
    output::write_file_durably(csv_path, csv);
}

SweepTable read_table(const std::string& csv_path) {
    std::string path = json_path_for(csv_path);
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot read (the JSON written beside " + csv_path + ")");
    json doc;
    try {
        doc = json::parse(in);
    } catch (const json::exception& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
    try {
        return table_from_json(doc);
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
}

}  // namespace pcisim::sweep
