// The skeleton explain's two directions share (critical_path.h transmits, receive_path.h
// receives): the analysed span between a port's first and last frame, the NIC engine's time
// swept and decomposed by step and mechanism, the resources ranked by busy time per unit (a
// packet or a frame), the limiter and the next bottleneck, and the part of the JSON both
// report.  A direction supplies only what differs: its frames, its engine's tables and spans,
// its CPU and wire parts and its resources' names.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "run/recording.h"
#include "tools/explain/interval_sweep.h"
#include "tools/explain/step_intervals.h"

namespace pcisim {

inline double ns(Picos t) { return static_cast<double>(t) * 1e-3; }

// The ends of the followed port's frames with their packet numbers, in time order.
using FrameEnds = std::vector<std::pair<Picos, std::int64_t>>;

// [a, b]: the first and the last frame's end, n units (packets or frames) apart; times per unit
// in ns and in byte-times of the recorded bus.
struct AnalysedSpan {
    Picos a, b;
    double n;
    double bytes_per_s;
    AnalysedSpan(const FrameEnds& ends, const BusInfo& bus);
    double period_ns() const { return ns(b - a) / n; }
    double per_unit(Picos total) const { return ns(total) / n; }
    double byte_times(double ns_value) const { return ns_value * bytes_per_s / 1e9; }
};

// A direction's NIC DMA engine: its sweep channels, its steps and mechanisms by name, how an
// instant is labelled (step * mechanisms + mechanism), the order its steps take in one unit
// (idle last), the step of no work and the wait its busy time leaves out (the transmit FIFO
// full, a received frame held for a descriptor).
struct EngineTables {
    int channels, mechanisms;
    const char* const* step_names;
    const char* const* mechanism_names;
    std::function<int(const std::vector<int>&)> label;
    std::vector<int> unit_order;
    int idle, held;
};

// The engine's time in the span: `parts` per unit (step, mechanism, ns, byte-times) in the order
// of one unit, and the totals by label, by step and by mechanism.
struct EngineParts {
    nlohmann::json parts;
    std::map<int, Picos> by_label;
    std::vector<Picos> by_step, by_mechanism;
};

// A resource and its busy time in the span.
struct Resource {
    std::string key, name;
    Picos busy;
};

// What one direction brings to the analysis.
struct Direction {
    const char* unit;       // "packet" or "frame": the resources' busy_ns_per_<unit>
    const char* rate_key;   // the resources' rate when alone: "pps_if_alone", "fps_if_alone"
    EngineTables engine;
    std::vector<Span> engine_spans;
    Resource engine_resource;  // its busy time is filled in from the decomposition
    // The limiter when the engine's held wait fills over half the span and the wire is not the
    // busiest: the engine is waiting for room or for descriptors, not working.
    Resource held_limiter;
    StepParts cpu;
    std::string cpu_name;
    nlohmann::json wire_parts;
    Resource wire;
};

struct WindowAnalysis {
    EngineParts engine;
    std::vector<Resource> ranked;  // busiest first
    // bus, period_ns, measured_period_ns, limiter(_name), next_bottleneck(_name), resources,
    // parts (the engine's under its resource key, cpu, wire).
    nlohmann::json report;
};

// Sweeps the direction's engine over the span, ranks wire, engine, CPU and bus by busy time and
// names the limiter; `measured_pps` is the run's rate of the followed port (0: unknown).
WindowAnalysis analyse_window(const Recording& rec, const AnalysedSpan& span, Direction direction,
                              double measured_pps);

// The resources of a report, one a line: name, busy ns per unit (`busy_key`), busy fraction and
// the rate alone (`rate_key`, in `rate_unit`).
void print_resources(std::ostream& o, const nlohmann::json& resources, const char* busy_key,
                     const char* rate_key, const char* rate_unit);

// One bus transaction in a line: master, command, termination, bytes, clocks.
std::string transaction_text(const BusTransaction& t, const BusInfo& bus);

}  // namespace pcisim
