#include "tools/explain/critical_path.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "tools/explain/cpu_placement.h"
#include "run/sustained_rate.h"
#include "tools/explain/interval_sweep.h"
#include "tools/explain/nic_bus_spans.h"
#include "tools/explain/step_intervals.h"
#include "tools/explain/window_analysis.h"

namespace pcisim {

using nlohmann::json;

namespace {

// --- NIC DMA engine --------------------------------------------------------------------
// Channels: the engine's steps in priority order (the read slot first: while a read is in
// flight the next data read cannot start), then the NIC's bus activity, reads and writes apart.
enum EngineChannel {
    kDataRead, kDescriptorFetch, kProcessing, kWriteBack, kFifoWait,
    kReadParts, kWriteParts = kReadParts + 6,  // address, decode, data, turnaround, retry, split
    kOtherMaster = kWriteParts + 6, kRequestingRead, kRequestingWrite, kCommitWait,
    kEngineChannels
};
constexpr int kIdle = kFifoWait + 1;  // step: none of the above
const char* const kSteps[] = {"data read", "descriptor fetch", "processing", "write-back",
                              "FIFO wait", "idle"};
// Mechanisms: the bus parts in channel order, then what a step does without bus activity.
enum Mechanism {
    mAddress, mDecode, mData, mTurnaround, mRetry, mSplit, mOtherMaster, mArbitration,
    mReadLatency, mCommitWait, mWriteQueued, mProcessing, mFifo, mIdle, kMechanisms
};
// The bus parts come first, in append_nic_bus_spans's order.
static_assert(int{mAddress} == kPartAddress && int{mDecode} == kPartDecode &&
              int{mData} == kPartData && int{mTurnaround} == kPartTurnaround &&
              int{mRetry} == kPartRetry && int{mSplit} == kPartSplit);
const char* const kMechanismNames[] = {
    "address/attribute phases",
    "DEVSEL, read turnaround, wait states",
    "data phases",
    "turnaround",
    "retry attempts (address, DEVSEL, STOP#, turnaround)",
    "split response",
    "bus held by another master",
    "arbitration (REQ# to FRAME#)",
    "read latency (back-off, split wait: bridge and memory)",
    "read waiting for posted writes to commit (host.write_commit_ns)",
    "waiting to request the bus (clock edge, queued behind a NIC read)",
    "internal processing (nic.packet_processing_ns)",
    "TX FIFO full",
    "no packet ready (waiting for the driver)",
};

// A NIC transaction on the bus belongs to the step that issued it (reads: the data read or
// descriptor fetch in flight; writes: the write-back); otherwise the highest-priority step.
int engine_label(const std::vector<int>& on) {
    int read_step = on[kDescriptorFetch] && !on[kDataRead] ? kDescriptorFetch : kDataRead;
    if (int part = active_bus_part(on, kReadParts); part >= 0) return read_step * kMechanisms + part;
    if (int part = active_bus_part(on, kWriteParts); part >= 0) return kWriteBack * kMechanisms + part;
    int step = kIdle;
    for (int s = kDataRead; s <= kFifoWait; ++s)
        if (on[s]) { step = s; break; }
    int requesting = step == kWriteBack ? on[kRequestingWrite] : on[kRequestingRead];
    int mech;
    switch (step) {
    case kProcessing: mech = mProcessing; break;
    case kFifoWait: mech = mFifo; break;
    case kIdle: mech = mIdle; break;
    default:
        if (requesting) mech = on[kOtherMaster] ? mOtherMaster : mArbitration;
        else if (step == kWriteBack) mech = mWriteQueued;
        else mech = on[kCommitWait] ? mCommitWait : mReadLatency;
    }
    return step * kMechanisms + mech;
}

std::vector<Span> engine_spans(const Recording& rec, const std::vector<StepInterval>& steps) {
    const std::string nic_port = rec.port().port_module;
    std::vector<Span> spans;
    for (const auto& s : steps) {
        // A read of the NIC's held up behind posted writes, wherever on its path it waits.
        if (s.step == TraceStep::WriteCommitWait) spans.push_back({s.start, s.end, kCommitWait});
        if (s.module != nic_port) continue;
        switch (s.step) {
        case TraceStep::DataRead: spans.push_back({s.start, s.end, kDataRead}); break;
        case TraceStep::Processing: spans.push_back({s.start, s.end, kProcessing}); break;
        case TraceStep::WriteBack: spans.push_back({s.start, s.end, kWriteBack}); break;
        case TraceStep::DescriptorFetch: spans.push_back({s.start, s.end, kDescriptorFetch}); break;
        case TraceStep::FifoWait: spans.push_back({s.start, s.end, kFifoWait}); break;
        default: break;
        }
    }
    append_nic_bus_spans(rec, bus_master_index(rec.bus(), rec.port().nic),
                         {kReadParts, kWriteParts, kOtherMaster, kRequestingRead, kRequestingWrite},
                         spans);
    return spans;
}

std::string engine_text(int label) {
    return std::string(kSteps[label / kMechanisms]) + ": " + kMechanismNames[label % kMechanisms];
}

// --- CPU and wire -----------------------------------------------------------------------
const char* const kCpuParts[] = {"register-read stall", "interrupt handler", "timer",
                                 "xmit (pktgen, driver)", "waiting (queue stopped)"};
const char* const kWireParts[] = {"frame (preamble, frame, FCS)", "inter-packet gap", "idle"};

// The followed port's frames: their wire ends before the window's end and their sizes, in
// recording order.
struct SentFrames {
    FrameEnds ends;
    std::vector<double> wire_bytes;
};

SentFrames sent_frames(const Recording& rec, const std::vector<StepInterval>& steps) {
    SentFrames f;
    const std::string mac = rec.port().mac_module;
    for (const auto& s : steps)
        if (s.module == mac && s.step == TraceStep::Wire && s.end < rec.window().to)
            f.ends.emplace_back(s.end, s.packet), f.wire_bytes.push_back(s.bytes);
    std::sort(f.ends.begin(), f.ends.end());
    return f;
}

// A period from the first to the last frame means something only when the frames are spread
// over the window, as a run's rate does (run/sustained_rate.h): one burst in it (bursty
// traffic: TDT batching, held-back interrupts) would be analysed as if steady.
void require_steady(const Recording& rec, const FrameEnds& ends) {
    const std::string nic_port = rec.port().port_module;
    if (ends.size() < 3)
        throw std::runtime_error("only " + std::to_string(ends.size()) +
                                 " frames left " + nic_port + " in the window; make the window longer");
    FrameCheck recorded;
    recorded.open_window();
    for (const auto& [end, packet] : ends) {
        if (recorded.window_frames > 0)
            recorded.longest_gap = std::max(recorded.longest_gap, end - recorded.last);
        if (recorded.window_frames++ == 0) recorded.first = end;
        recorded.last = end;
    }
    if (std::string bursts = unsteady_frames(recorded, rec.window().from, rec.window().to, false);
        !bursts.empty())
        throw std::runtime_error(nic_port + ": the recorded window holds no steady traffic to "
                                 "explain: " + bursts + "; choose a --window that spans many "
                                 "bursts (at most 20000 us)");
}

// The transmit side's engine, CPU and wire.
Direction transmit_direction(const Recording& rec, const std::vector<StepInterval>& steps,
                             const AnalysedSpan& span) {
    const RecordedPort& who = rec.port();
    const std::string mac = who.mac_module;
    const StepParts wire = module_step_parts(steps, mac, {TraceStep::Wire, TraceStep::Gap},
                                             kWireParts, span.a, span.b, span.n, span.bytes_per_s);
    Direction d{"packet",
                "pps_if_alone",
                {kEngineChannels, kMechanisms, kSteps, kMechanismNames, engine_label,
                 {kDescriptorFetch, kFifoWait, kDataRead, kProcessing, kWriteBack, kIdle},  // one packet
                 kIdle, kFifoWait},
                engine_spans(rec, steps),
                {"nic_engine", "NIC DMA engine (bus latency chain)", 0},
                // The engine mostly waiting for FIFO room while the wire is not saturated: the
                // FIFO is too small to keep the wire busy (store-and-forward).
                {"fifo", "TX FIFO room", 0},
                module_step_parts(steps, who.cpu,
                                  {TraceStep::MmioRead, TraceStep::InterruptHandler, TraceStep::Timer,
                                   TraceStep::Xmit},
                                  kCpuParts, span.a, span.b, span.n, span.bytes_per_s),
                "CPU (pktgen, driver, register reads)",
                wire.parts,
                {"wire", "wire (1 Gb/s)", (span.b - span.a) - wire.none}};
    return d;
}

// s: the packet size, or the mean frame on the wire (the span's frames after the first, whose
// ends bound it) when one packet becomes several frames.
double packet_size_of(const ExplainSetup& setup, const SentFrames& f, const AnalysedSpan& span) {
    if (!setup.wire_frames) return setup.packet_size;
    double sum = 0;
    for (const auto& bytes : f.wire_bytes) sum += bytes;
    return (sum - f.wire_bytes.front()) / span.n;
}

// The engine's k by mechanism: everything but the s byte-times of the packet's own data.
json engine_k(const EngineParts& engine, const AnalysedSpan& span, double packet_size) {
    json k = json::array();
    for (int m = 0; m < kMechanisms; ++m) {
        if (engine.by_mechanism[m] == 0) continue;
        double bt = span.byte_times(span.per_unit(engine.by_mechanism[m]));
        std::string what = kMechanismNames[m];
        if (m == mData) bt -= packet_size, what = "data phases beyond s (descriptors, write-backs, alignment)";
        k.push_back({{"mechanism", what}, {"byte_times", bt}});
    }
    return k;
}

// The period decomposed by the limiting resource (the NIC engine unless the wire or the CPU
// limits), and k = period - s in byte-times by what that resource spends it on.
void add_decomposition(json& out, const json& nic_engine_k, double packet_size) {
    const std::string limiter = out["limiter"];
    const std::string decomposed = limiter == "wire" || limiter == "cpu" ? limiter : "nic_engine";
    const json& parts = out["parts"][decomposed];
    double sum = 0;
    for (const auto& p : parts) sum += p["ns"].get<double>();
    json k_parts = nic_engine_k;
    if (decomposed != "nic_engine") {
        k_parts = json::array();
        for (const auto& p : parts)
            k_parts.push_back({{"mechanism", p["step"]}, {"byte_times", p["byte_times"]}});
        k_parts.push_back({{"mechanism", "minus s (the packet's own bytes)"}, {"byte_times", -packet_size}});
    }
    out["decomposition"] = {{"resource", decomposed}, {"parts", parts}, {"sum_ns", sum}};
    out["k_by_mechanism"] = k_parts;
    out["nic_engine_k_by_mechanism"] = nic_engine_k;
}

// A TCP sender also waits for its window (ACKs): then no resource is saturated.
json wire_frames_of(const SentFrames& f, const WindowAnalysis& w, const AnalysedSpan& span,
                    double packet_size) {
    double largest = *std::max_element(f.wire_bytes.begin() + 1, f.wire_bytes.end());
    double busiest = static_cast<double>(w.ranked[0].busy) / static_cast<double>(span.b - span.a);
    json wire_frames = {{"mean_bytes", packet_size}, {"largest_bytes", largest},
                        {"busiest_fraction", busiest}};
    if (busiest < 0.95)
        wire_frames["limiter_note"] =
            "no resource is saturated: the busiest is idle " +
            std::to_string(static_cast<int>(std::lround(100 * (1 - busiest)))) +
            " % of the time, the sender waiting for its window (the receiver's ACKs)";
    return wire_frames;
}

std::string transaction_detail(const BusTransaction& t, const BusInfo& bus) {
    std::ostringstream o;
    const Picos clk = bus.period;
    o << transaction_text(t, bus);
    if (t.termination != Termination::Retry && t.termination != Termination::SplitResponse)
        o << " (first data in clock " << (t.data_start - t.start) / clk << ")";
    if (t.request < t.start) o << ", REQ# " << (t.start - t.request) / clk << " clocks before";
    return o.str();
}

// A representative packet: the middle frame; one engine period from its first data read, every
// engine step, bus transaction and other module's step in it.
json timeline(const Recording& rec, const std::vector<StepInterval>& steps, const FrameEnds& ends) {
    const RecordedPort& who = rec.port();
    const std::string nic_port = who.port_module, mac = who.mac_module;
    const BusInfo& bus = rec.bus();
    std::int64_t packet = ends[ends.size() / 2].second;
    auto first_read = [&](std::int64_t p) -> const StepInterval* {
        for (const auto& s : steps)
            if (s.module == nic_port && s.step == TraceStep::DataRead && s.packet == p) return &s;
        return nullptr;
    };
    Picos t0 = ends[ends.size() / 2 - 1].first, t1 = ends[ends.size() / 2].first;
    const StepInterval *r0 = first_read(packet), *r1 = first_read(packet + 1);
    if (r0 && r1) t0 = r0->start, t1 = r1->start;
    json entries = json::array();
    auto entry = [&](Picos s, Picos e, const std::string& track, const std::string& what) {
        entries.push_back({{"t_ns", ns(s) - ns(t0)}, {"dur_ns", ns(e - s)}, {"track", track},
                           {"what", what}, {"byte_times", ns(e - s) * bus.bytes_per_s() / 1e9}});
    };
    for (const auto& s : sweep_spans(engine_spans(rec, steps), kEngineChannels, t0, t1, engine_label))
        entry(s.start, s.end, "critical path (NIC engine)", engine_text(s.label));
    for (const auto& t : rec.transactions())
        if (t.end > t0 && t.start < t1) entry(t.start, t.end, "bus", transaction_detail(t, bus));
    for (const auto& s : steps) {
        bool own = s.packet == packet && s.port == who.port && (s.module == nic_port || s.module == mac);
        bool overlaps = s.end >= t0 && s.start < t1 && s.module.find(nic_port) == std::string::npos;
        if (!own && !overlaps) continue;
        std::string what = to_string(s.step);
        if (s.packet >= 0) what += " #" + std::to_string(s.packet);
        entry(s.start, s.end, s.module, what);
    }
    std::stable_sort(entries.begin(), entries.end(), [](const json& x, const json& y) {
        return x["t_ns"].get<double>() < y["t_ns"].get<double>();
    });
    return {{"packet", packet}, {"start_us", ns(t0) / 1000}, {"period_ns", ns(t1 - t0)},
            {"entries", entries}};
}

}  // namespace

json explain(const Recording& rec, const ExplainSetup& setup) {
    const std::vector<StepInterval> steps = step_intervals(rec);
    const SentFrames frames = sent_frames(rec, steps);
    require_steady(rec, frames.ends);
    const AnalysedSpan span(frames.ends, rec.bus());
    const double packet_size = packet_size_of(setup, frames, span);
    const WindowAnalysis w =
        analyse_window(rec, span, transmit_direction(rec, steps, span), setup.measured_pps);

    json out = w.report;
    const double period_bt = span.byte_times(span.period_ns());
    out["packet_size"] = packet_size;
    out["period_byte_times"] = period_bt;
    out["k_byte_times"] = period_bt - packet_size;
    out["window"] = {{"from_us", ns(rec.window().from) / 1000}, {"to_us", ns(rec.window().to) / 1000},
                     {"analysed_from_us", ns(span.a) / 1000}, {"analysed_to_us", ns(span.b) / 1000},
                     {"packets", frames.ends.size() - 1}, {"port", rec.port().port_module}};
    add_decomposition(out, engine_k(w.engine, span, packet_size), packet_size);
    out["timeline"] = timeline(rec, steps, frames.ends);
    if (setup.wire_frames) out["wire_frames"] = wire_frames_of(frames, w, span, packet_size);
    return out;
}

namespace {

// The bus, the window, the period and, for a TCP stream, what its packets are.
void print_period(std::ostream& o, const json& x) {
    const json& bus = x["bus"];
    double s = x["packet_size"].get<double>();
    o << "bus " << bus["kind"].get<std::string>() << " " << bus["width_bits"] << "/"
      << bus["clock_mhz"].get<double>() << ": B = " << bus["bytes_per_s"].get<double>() / 1e6
      << " MB/s, one byte-time = " << std::setprecision(3) << bus["byte_time_ns"].get<double>()
      << " ns" << std::setprecision(1) << "; s = " << s << " B\n";
    const json& w = x["window"];
    o << "window " << w["analysed_from_us"].get<double>() << " - " << w["analysed_to_us"].get<double>()
      << " us (first to last frame end of " << w["port"].get<std::string>() << "): "
      << w["packets"] << " packets\n";
    o << "period " << x["period_ns"].get<double>() << " ns per packet (run: 1/its tx_pps = "
      << x["measured_period_ns"].get<double>() << " ns) = " << x["period_byte_times"].get<double>()
      << " byte-times = s + k, k = " << x["k_byte_times"].get<double>() << "\n";
    if (x.contains("tcp")) {
        const json& t = x["tcp"];
        o << "TCP stream: packets are frames on the wire, s their mean size; the run's "
          << t["segments"] << " segments came from " << t["frames_to_driver"]
          << " frames the stack handed the driver, " << std::setprecision(2)
          << t["segments_per_frame"].get<double>() << std::setprecision(1) << " segments per frame"
          << (t["tso"].get<bool>() ? " (TSO: the NIC cuts each frame of up to 64 KB into MSS-sized segments)"
                                   : " (TSO off: one segment each)")
          << ";\n"
          << "frames in the window: mean " << x["wire_frames"]["mean_bytes"].get<double>()
          << " B, largest " << x["wire_frames"]["largest_bytes"].get<double>() << " B\n";
    }
    o << "\n";
}

// The resources, the far-end receiver of a TCP stream, the limiter and the next bottleneck.
void print_limiter(std::ostream& o, const json& x) {
    o << "resources, busy per packet:\n";
    print_resources(o, x["resources"], "busy_ns_per_packet", "pps_if_alone", "pps");
    // The far end, for a TCP stream: not per packet of this window but of the run's.
    bool receiver_limits = false;
    if (x.contains("tcp") && x["tcp"].contains("receiver")) {
        const json& r = x["tcp"]["receiver"];
        const double busy = r["busy_fraction"].get<double>();
        receiver_limits = busy >= 0.95;
        o << "  far-end receiver, per segment          " << std::setw(9)
          << 1000 * r["segment_us"].get<double>() << " ns  " << std::setw(5) << 100 * busy
          << " % of the run's window (tcp.receiver_segment_us)\n";
    }
    if (receiver_limits)
        o << "limited by: the far-end receiver, which sets the TCP throughput ("
          << x["tcp"]["throughput_mbit_s"].get<double>()
          << " Mbit/s); the sender's frames in this window, which can run ahead of it while the "
             "window fills: "
          << x["limiter_name"].get<std::string>();
    else
        o << "limited by: " << x["limiter_name"].get<std::string>();
    if (x.contains("wire_frames") && x["wire_frames"].contains("limiter_note"))
        o << "; " << x["wire_frames"]["limiter_note"].get<std::string>();
    o << "\nnext bottleneck: " << x["next_bottleneck_name"].get<std::string>() << "\n\n";
}

// The limiting resource's period by part, and k by mechanism.
void print_decomposition(std::ostream& o, const json& x) {
    const json& d = x["decomposition"];
    o << "one period, decomposed (" << d["resource"].get<std::string>() << "), per packet:\n";
    for (const auto& p : d["parts"]) {
        std::string what = p["step"].get<std::string>();
        if (p.contains("mechanism")) what += ": " + p["mechanism"].get<std::string>();
        o << "  " << std::left << std::setw(76) << what << std::right << std::setw(9)
          << p["ns"].get<double>() << " ns " << std::setw(8) << p["byte_times"].get<double>() << " byte-times\n";
    }
    o << "  " << std::left << std::setw(76) << "sum" << std::right << std::setw(9)
      << d["sum_ns"].get<double>() << " ns\n\n";

    o << "k = " << x["k_byte_times"].get<double>() << " byte-times, by mechanism ("
      << d["resource"].get<std::string>() << "):\n";
    for (const auto& p : x["k_by_mechanism"])
        o << "  " << std::left << std::setw(76) << p["mechanism"].get<std::string>() << std::right
          << std::setw(8) << p["byte_times"].get<double>() << "\n";
}

// Where the bytes are (the host's caches and slab, the snoop on the DMA read).
void print_host_data(std::ostream& o, const json& h) {
    o << "\nwhere the bytes are, per packet (CPU time; the snoop's on the DMA read):\n"
      << std::setprecision(2) << "  cache misses         " << std::setw(7)
      << h["cache_misses_per_packet"].get<double>() << "  " << std::setprecision(1)
      << std::setw(8) << h["cache_miss_ns_per_packet"].get<double>() << " ns\n"
      << std::setprecision(2) << "  slab refills/flushes " << std::setw(7)
      << h["slab_batches_per_packet"].get<double>() << "  " << std::setprecision(1)
      << std::setw(8) << h["slab_batch_ns_per_packet"].get<double>() << " ns\n"
      << std::setprecision(2) << "  snoop hits           " << std::setw(7)
      << h["snoop_hits_per_packet"].get<double>() << "  " << std::setprecision(1)
      << std::setw(8) << h["snoop_extra_ns_per_packet"].get<double>()
      << " ns beyond the memory latency\n";
}

// The representative packet's engine period, entry by entry.
void print_timeline(std::ostream& o, const json& t) {
    o << "\ntimeline of packet " << t["packet"] << " (one engine period of "
      << t["period_ns"].get<double>() << " ns from its data read at " << std::setprecision(3)
      << t["start_us"].get<double>() << " us):\n" << std::setprecision(1);
    o << "  " << std::setw(9) << "t ns" << std::setw(9) << "dur ns" << "  track: what\n";
    for (const auto& e : t["entries"])
        o << "  " << std::setw(9) << e["t_ns"].get<double>() << std::setw(9) << e["dur_ns"].get<double>()
          << "  " << e["track"].get<std::string>() << ": " << e["what"].get<std::string>() << "\n";
}

}  // namespace

std::string explain_text(const json& x) {
    std::ostringstream o;
    o << std::fixed << std::setprecision(1);
    print_period(o, x);
    print_limiter(o, x);
    print_decomposition(o, x);
    if (x.contains("host_data") && !x["host_data"].is_null()) print_host_data(o, x["host_data"]);
    if (x.contains("cpus")) print_cpu_placement(o, x["cpus"]);
    print_timeline(o, x["timeline"]);
    return o.str();
}

}  // namespace pcisim
