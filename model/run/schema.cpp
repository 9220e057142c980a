#include "run/schema.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <map>
#include <sstream>
#include <unordered_map>

#include "nic/wire_source.h"
#include "platform/cpu.h"
#include "platform/cpu_cache.h"
#include "platform/dma_master.h"
#include "platform/host_bridge.h"
#include "platform/pci_bridge.h"
#include "platform/pci_bus.h"
#include "run/nic_families.h"
#include "run/platform.h"
#include "run/topology.h"
#include "software/e1000_driver.h"
#include "software/e1000_rx_driver.h"
#include "software/pktgen.h"
#include "software/skb_pool.h"
#include "software/slab_cache.h"
#include "software/tcp_sender.h"

namespace pcisim {

using nlohmann::json;

std::vector<ParamSpec> scenario_params() {
    return {
        text("name", "", "Scenario name, shown in results."),
        text("description", "", "What the scenario is for."),
        text("platform", "", "Platform file whose values this scenario overrides (resolved "
                             "beside the file that names it, then in the data directory's "
                             "scenarios/: see pcisim --help); a platform "
                             "may name another, up to 8 in a chain, the nearer file winning."),
        notes("why", "Reasons for the values: an object from key path to a one-line reason "
                     "(datasheet, measurement, topology, fitted range)."),
        boolean("nic.enabled", true,
                "Put the e1000 on the bus with a CPU, driver and pktgen per port; false for "
                "bus-only runs (synthetic masters)."),
    };
}

const std::vector<ParamSpec>& schema() {
    static const std::vector<ParamSpec> all = [] {
        std::vector<ParamSpec> v;
        for (auto part : {scenario_params, simulation_params, bus_params, host_params, bridge_params,
                          dma_master_params, nic_family_params, driver_params, rx_driver_params,
                          pktgen_params, tcp_params, wire_source_params, cpu_params, kernel_params, cpu_cache_params,
                          slab_params, topology_params, testing_params})
            for (auto& p : part()) v.push_back(std::move(p));
        return v;
    }();
    return all;
}

namespace {

// Lookups by path, built once: a sweep worker checks every point's scenario.
struct SchemaIndex {
    std::unordered_map<std::string, const ParamSpec*> by_path;
    std::unordered_map<std::string, std::vector<SchemaChild>> children;  // by object path
};

const SchemaIndex& schema_index() {
    static const SchemaIndex index = [] {
        SchemaIndex i;
        for (const auto& p : schema()) {
            i.by_path.emplace(p.path, &p);
            std::string object;  // every object on the way down to the leaf
            for (std::size_t start = 0;;) {
                std::size_t dot = p.path.find('.', start);
                bool leaf = dot == std::string::npos;
                std::string key = p.path.substr(start, leaf ? std::string::npos : dot - start);
                auto& list = i.children[object];
                if (std::none_of(list.begin(), list.end(),
                                 [&](const SchemaChild& c) { return c.key == key; }))
                    list.push_back({key, leaf ? &p : nullptr});
                if (leaf) break;
                object = object.empty() ? key : object + "." + key;
                start = dot + 1;
            }
        }
        return i;
    }();
    return index;
}

}  // namespace

const ParamSpec* find_param(const std::string& schema_path) {
    const auto& by_path = schema_index().by_path;
    auto it = by_path.find(schema_path);
    return it == by_path.end() ? nullptr : it->second;
}

const std::vector<SchemaChild>* schema_children(const std::string& object_path) {
    const auto& children = schema_index().children;
    auto it = children.find(object_path);
    return it == children.end() ? nullptr : &it->second;
}

namespace {

// Host memory must hold what the run puts there (Platform's layout, model/run/platform.h):
// each port's descriptor ring, Platform::ring_spacing apart from 1 MiB on, and, when pktgen
// sends, the socket buffers from 4 MiB on.  pktgen keeps a buffer for every packet the ring can
// hold plus the one it is building (clone_skb N: one per N packets, plus one more that
// a ring's packets can straddle); each takes its size class (SkbPool), at least a cache line.
// A packet takes at least one descriptor per the driver's most data per descriptor
// (PortDrivers::max_data_per_descriptor), so a ring holds at most ring_size / that many packets.
constexpr std::uint64_t kMiB = 1 << 20;
constexpr std::uint64_t kRingBase = Platform::kRingBase, kSkbBase = Platform::kSkbBase;

void check_host_memory(const json& doc, std::vector<std::string>& problems) {
    if (!doc["nic"]["enabled"].get<bool>()) return;
    const PortDrivers* drivers = drivers_of_model(doc["nic"]["model"].get<std::string>());
    if (!drivers) return;  // nic.model's own check has refused it
    const std::uint64_t max_data_per_descriptor = drivers->max_data_per_descriptor;
    const std::uint64_t ports = transmitting_ports(doc);
    const auto ring = doc["driver"]["ring_size"].get<std::uint64_t>();
    std::uint64_t needed = kRingBase + (ports - 1) * Platform::ring_spacing(ports) +
                           ring * drivers->descriptor_bytes;
    std::string what = "the descriptor rings (driver.ring_size " + std::to_string(ring) + ", " +
                       std::to_string(ports) + " transmitting ports)";
    if (doc["pktgen"]["enabled"].get<bool>()) {
        const auto size = doc["packet"]["size"].get<std::uint64_t>();
        const auto clone = doc["pktgen"]["clone_skb"].get<std::uint64_t>();
        const auto line = doc["host"]["cache_line_bytes"].get<std::uint64_t>();
        const std::uint64_t packets =
            ring / ((size + max_data_per_descriptor - 1) / max_data_per_descriptor);
        const std::uint64_t buffer_bytes =
            std::max<std::uint64_t>(SkbPool::buffer_bytes(static_cast<std::uint32_t>(size) + kPktgenAllocSlack,
                                                           static_cast<unsigned>(line)),
                                    line);
        // Besides those in flight, each CPU's slab array keeps up to its limit free, and a
        // refill brings a batch more.
        const std::uint64_t buffers =
            (clone == 0 ? packets + 1 : (packets + clone - 1) / clone + 2) +
            SlabCache::array_limit(static_cast<std::uint32_t>(buffer_bytes)) * 3 / 2 + 1;
        const std::uint64_t skb_structs = buffers + 60;  // their sk_buffs, 256 B each
        needed = kSkbBase + ports * (buffers * buffer_bytes + skb_structs * SkbPool::kSkbStructBytes);
        if (doc["driver"]["copy"].get<bool>()) {
            // One static buffer per descriptor, aligned to its size (Platform).
            std::uint64_t copy_bytes = std::min<std::uint64_t>(
                max_data_per_descriptor, std::max<std::uint64_t>(2048, buffer_bytes));
            needed += ports * (ring + 1) * copy_bytes;
        }
        what = std::to_string(ports * buffers) + " socket buffers of " +
               std::to_string(buffer_bytes) + " B (driver.ring_size " + std::to_string(ring) +
               ", packet.size " + std::to_string(size) + ") above the first 4 MiB";
    }
    if (doc["wire_source"]["enabled"].get<bool>()) {  // every receive slot holds a buffer
        const auto rx_ring = doc["driver"]["rx_ring_size"].get<std::uint64_t>();
        const auto rx_len = doc["driver"]["rx_buffer_bytes"].get<std::uint32_t>();
        // dev_alloc_skb(rx_buffer_len + 2): its size class (the receive driver's alloc_rx_buffers).
        const std::uint64_t rx_bytes = SkbPool::buffer_bytes(
            rx_len + 2 + 16, doc["host"]["cache_line_bytes"].get<unsigned>());
        needed = std::max(needed, kSkbBase) + ports * rx_ring * rx_bytes;
        what += " and " + std::to_string(ports * rx_ring) + " receive buffers of " +
                std::to_string(rx_bytes) + " B (driver.rx_ring_size, driver.rx_buffer_bytes)";
    }
    const std::uint64_t needed_mib = (needed + kMiB - 1) / kMiB;
    const auto mib = doc["host"]["memory_mib"].get<std::uint64_t>();
    if (mib < needed_mib)
        problems.push_back("host.memory_mib: " + std::to_string(mib) + " does not hold " + what +
                           "; expected at least " + std::to_string(needed_mib));
}

// A bridge, a card bridge or a master is a SystemC module named by its "name", beside the
// model's own modules (model/run/platform.cpp and simulation.cpp: host, face, bus, nic, nic0..,
// cpu0.., watchdog, recorder), and its row in the results and traces goes by that name.
// SystemC renames a name that is taken ("x_0",
// warning W505) and replaces '.' and white space (W506): what a result showed would not be the
// name given, and two masters of one name would draw the same random gaps.
bool model_module_name(const std::string& name) {
    static const char* const kNames[] = {"host", "face", "bus", "nic", "watchdog", "recorder"};
    if (std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames)) return true;
    for (const std::string numbered : {"cpu", "nic"})  // cpu0.., nic0.. (nics[])
        if (name.size() > 3 && name.compare(0, 3, numbered) == 0 &&
            std::all_of(name.begin() + 3, name.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return true;
    return false;
}

void check_module_names(const json& doc, std::vector<std::string>& problems) {
    std::map<std::string, std::string> first_path;  // name -> the key that gave it first
    for (const char* list : {"bridges", "masters", "card_bridges"}) {
        auto items = doc.find(list);
        if (items == doc.end()) continue;
        for (std::size_t i = 0; i < items->size(); ++i) {
            const json& item = (*items)[i];
            if (item.contains("enabled") && !item["enabled"].get<bool>()) continue;  // not built
            const std::string path = std::string(list) + "[" + std::to_string(i) + "].name";
            const std::string name = item["name"].get<std::string>();
            std::string why;
            if (name.empty())
                why = "is empty";
            else if (std::any_of(name.begin(), name.end(), [](char c) {
                         return c == '.' || std::isspace(static_cast<unsigned char>(c));
                     }))
                why = "has a '.' or white space, which SystemC replaces";
            else if (model_module_name(name))
                why = "is the name of one of the model's own modules";
            else if (first_path.count(name))
                why = "is also " + first_path[name];
            first_path.emplace(name, path);
            if (why.empty()) continue;
            std::string shown = json(name.size() > 60 ? name.substr(0, 57) + "..." : name)
                                    .dump(-1, ' ', false, json::error_handler_t::replace);
            problems.push_back(path + ": " + shown + " " + why +
                               "; expected a name of its own without '.' or white space");
        }
    }
}

}  // namespace

void check_combinations(const json& doc, std::vector<std::string>& problems) {
    check_bus_clock(doc["bus"], "bus", problems);
    const json& sim = doc["simulation"];
    if (sim["min_window_us"].get<double>() > sim["max_window_us"].get<double>())
        problems.push_back("simulation.min_window_us: " + sim["min_window_us"].dump() +
                           " is larger than simulation.max_window_us " +
                           sim["max_window_us"].dump() + "; expected min <= max");
    // TDLEN must be a multiple of 128 bytes (SDM 13.4.38): 8 descriptors of 16 bytes.
    const json& ring = doc["driver"]["ring_size"];
    if (ring.get<long long>() % 8 != 0)
        problems.push_back("driver.ring_size: " + ring.dump() +
                           " is not a multiple of 8; expected a multiple of 8 (TDLEN is a "
                           "multiple of 128 bytes)");
    // The cache's sets index by line number bits: a power of two of them.
    const json& cache = doc["cpu"]["cache"];
    const auto kib = cache["kib"].get<std::uint64_t>();
    const auto ways = cache["ways"].get<std::uint64_t>();
    const auto line = doc["host"]["cache_line_bytes"].get<std::uint64_t>();
    const std::uint64_t sets = kib * 1024 / (ways * line);
    if (kib && (sets == 0 || (sets & (sets - 1)) || sets * ways * line != kib * 1024))
        problems.push_back("cpu.cache.kib: " + cache["kib"].dump() + " in " + cache["ways"].dump() +
                           " ways of " + std::to_string(line) +
                           "-byte lines gives no power-of-two number of sets; expected kib * "
                           "1024 / (ways * host.cache_line_bytes) a power of two");
    const json& rx_ring = doc["driver"]["rx_ring_size"];
    if (rx_ring.get<long long>() % 8 != 0)
        problems.push_back("driver.rx_ring_size: " + rx_ring.dump() +
                           " is not a multiple of 8; expected a multiple of 8 (RDLEN is a "
                           "multiple of 128 bytes)");
    check_wire_source(doc, problems);
    check_module_names(doc, problems);
    check_host_memory(doc, problems);
    check_topology(doc, problems);
}

std::string schema_markdown() {
    std::ostringstream o;
    o << "# Scenario reference\n\n"
         "Generated by `pcisim schema` from the same table the scenario checks use "
         "(model/run/schema.cpp and each module's parameter list). Keys are dotted paths; "
         "`bridges[]`, `masters[]`, `nics[]` and `card_bridges[]` are lists of objects. A default "
         "written as another key's (`nic.model`'s) is that key's value, read when the item "
         "leaves the key out.\n\n"
         "| key | type | unit | default | allowed | meaning |\n|---|---|---|---|---|---|\n";
    for (const auto& p : schema()) {
        const char* type = p.type == ParamType::Number    ? "number"
                           : p.type == ParamType::Integer ? "integer"
                           : p.type == ParamType::Boolean ? "boolean"
                           : p.type == ParamType::Text    ? "string"
                           : p.type == ParamType::Notes   ? "object of strings"
                                                          : "choice";
        std::string allowed;
        if (!p.choices.empty()) {
            for (const auto& c : p.choices) allowed += (allowed.empty() ? "" : ", ") + c;
        } else if (p.min <= p.max) {
            std::ostringstream r;
            r << p.min << " .. " << p.max;
            allowed = r.str();
        }
        std::string def = p.inherits.empty() ? "`" + p.default_value.dump() + "`"
                                             : "`" + p.inherits + "`'s";
        o << "| `" << p.path << "` | " << type << " | " << p.unit << " | " << def << " | "
          << allowed << " | " << p.meaning << " |\n";
    }
    return o.str();
}

}  // namespace pcisim
