#include "tools/explain/receive_path.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "tools/explain/interval_sweep.h"
#include "tools/explain/nic_bus_spans.h"
#include "tools/explain/step_intervals.h"
#include "tools/explain/window_analysis.h"

namespace pcisim {

using nlohmann::json;

// Named, so that its tables (kSteps, kIdle, engine_label, ...) may share their names with the
// transmit side's (critical_path.cpp) when a unity build compiles the two together.
namespace receive_explanation {
namespace {

// --- NIC receive DMA engine ------------------------------------------------------------
// Channels: the receive steps in priority order, then the NIC's bus activity (writes and
// reads apart, six parts each), another master's, and the NIC requesting the bus.
enum RxChannel {
    kData, kWriteBack, kFetch, kHeld,
    kWriteParts, kReadParts = kWriteParts + 6,  // address, decode, data, turnaround, retry, split
    kOtherMaster = kReadParts + 6, kRequestingWrite, kRequestingRead, kRxChannels
};
constexpr int kIdle = kHeld + 1;
const char* const kSteps[] = {"data write", "write-back", "descriptor fetch",
                              "frame in FIFO, no descriptor", "idle"};
enum Mechanism {
    mAddress, mDecode, mData, mTurnaround, mRetry, mSplit, mOtherMaster, mArbitration, mQueued,
    mReadLatency, mNoDescriptor, mIdle, kMechanisms
};
// The bus parts come first, in append_nic_bus_spans's order.
static_assert(int{mAddress} == kPartAddress && int{mDecode} == kPartDecode &&
              int{mData} == kPartData && int{mTurnaround} == kPartTurnaround &&
              int{mRetry} == kPartRetry && int{mSplit} == kPartSplit);
const char* const kMechanismNames[] = {
    "address/attribute phases",
    "DEVSEL, turnaround, wait states",
    "data phases",
    "turnaround",
    "retry attempts",
    "split response",
    "bus held by another master (or this NIC's transmit DMA)",
    "arbitration (REQ# to FRAME#)",
    "posted, queued in the NIC's bus interface",
    "read latency (back-off, split wait: bridge and memory)",
    "waiting for the descriptor cache (fetch not yet in)",
    "no frame in the FIFO (waiting for the wire)",
};

int engine_label(const std::vector<int>& on) {
    int step = kIdle;
    for (int s = kData; s <= kHeld; ++s)
        if (on[s]) { step = s; break; }
    // The NIC's writes serve the data write in flight, else the write-back; its reads the fetch.
    if (int part = active_bus_part(on, kWriteParts); part >= 0) {
        if (on[kData]) return kData * kMechanisms + part;
        if (on[kWriteBack]) return kWriteBack * kMechanisms + part;
        return step * kMechanisms + mOtherMaster;  // the transmit side's write-back
    }
    if (int part = active_bus_part(on, kReadParts); part >= 0) {
        if (on[kFetch]) return kFetch * kMechanisms + part;
        return step * kMechanisms + mOtherMaster;  // the transmit side's reads
    }
    int mech;
    switch (step) {
    case kData:
    case kWriteBack:
        mech = on[kRequestingWrite] ? (on[kOtherMaster] ? mOtherMaster : mArbitration) : mQueued;
        break;
    case kFetch:
        mech = on[kRequestingRead] ? (on[kOtherMaster] ? mOtherMaster : mArbitration) : mReadLatency;
        break;
    case kHeld: mech = mNoDescriptor; break;
    default: mech = mIdle;
    }
    return step * kMechanisms + mech;
}

std::vector<Span> engine_spans(const Recording& rec, const std::vector<StepInterval>& steps,
                               const std::string& rx_module) {
    std::vector<Span> spans;
    for (const auto& s : steps) {
        if (s.module != rx_module || s.instant) continue;
        switch (s.step) {
        case TraceStep::RxDataWrite: spans.push_back({s.start, s.end, kData}); break;
        case TraceStep::WriteBack: spans.push_back({s.start, s.end, kWriteBack}); break;
        case TraceStep::DescriptorFetch: spans.push_back({s.start, s.end, kFetch}); break;
        case TraceStep::RxFifo: spans.push_back({s.start, s.end, kHeld}); break;
        default: break;
        }
    }
    append_nic_bus_spans(rec, bus_master_index(rec.bus(), rec.receive_port()->nic),
                         {kReadParts, kWriteParts, kOtherMaster, kRequestingRead, kRequestingWrite},
                         spans);
    return spans;
}

// --- CPU and wire ------------------------------------------------------------------------
const std::vector<TraceStep> kCpuOrder = {TraceStep::MmioRead, TraceStep::RxRefill,
                                          TraceStep::RxClean, TraceStep::InterruptHandler,
                                          TraceStep::Timer, TraceStep::Xmit};
const char* const kCpuParts[] = {"register-read stall (ICR, STATUS)",
                                 "refill (alloc_rx_buffers, RDT writes)",
                                 "clean_rx_irq (frames with DD)",
                                 "rest of the interrupt handler (entry/exit, poll, mask)",
                                 "timer",
                                 "xmit (pktgen, driver)",
                                 "waiting"};
// A frame's share of the line (gap, preamble, frame, FCS), by what became of it.
const char* const kWireParts[] = {"frames received", "frames missed (FIFO full)",
                                  "frames missed (no descriptor)",
                                  "frames still in the NIC when the span ends", "idle"};
enum WirePart { wReceived, wMissedFifo, wMissedDescriptor, wStillIn, wIdle };

// The receiving port's data writes crossing the bus inside the window, and their mean size.
struct DeliveredFrames {
    FrameEnds ends;
    double mean_bytes = 0;
};

DeliveredFrames delivered_frames(const Recording& rec, const std::vector<StepInterval>& steps,
                                 const std::string& rx) {
    DeliveredFrames f;
    for (const auto& s : steps)
        if (s.module == rx && s.step == TraceStep::RxDataWrite && s.end < rec.window().to &&
            s.start > rec.window().from) {
            f.ends.emplace_back(s.end, s.packet);
            f.mean_bytes += s.bytes;
        }
    std::sort(f.ends.begin(), f.ends.end());
    if (f.ends.size() < 3)
        throw std::runtime_error("only " + std::to_string(f.ends.size()) + " frames reached host memory from " +
                                 rx + " in the window; make the window longer");
    f.mean_bytes /= static_cast<double>(f.ends.size());
    return f;
}

// The wire: a frame's share of the line by what became of it; only the received frames' share
// is time the wire spent on the rate.
struct WireTime {
    json parts;
    Picos received;  // busy: n received frames' mean share
};

WireTime wire_time(const Recording& rec, const std::vector<StepInterval>& steps,
                   const DeliveredFrames& frames, const AnalysedSpan& span) {
    const RecordedPort& who = *rec.receive_port();
    const std::string rx = who.rx_module;
    std::map<std::int64_t, int> missed_as;
    for (const auto& s : steps)
        if (s.module == rx && s.step == TraceStep::RxMissFifoFull) missed_as[s.packet] = wMissedFifo;
        else if (s.module == rx && s.step == TraceStep::RxMissNoDescriptor) missed_as[s.packet] = wMissedDescriptor;
    std::set<std::int64_t> delivered;  // by the span's end
    for (const auto& [end, packet] : frames.ends) delivered.insert(packet);
    std::vector<Span> wire_spans;
    for (const auto& s : steps)
        if (s.module == who.wire && s.step == TraceStep::RxWire) {
            auto it = missed_as.find(s.packet);
            int part = it != missed_as.end() ? it->second : delivered.count(s.packet) ? wReceived : wStillIn;
            wire_spans.push_back({s.start, s.end, part});
        }
    WireTime w{json::array(), 0};
    for (const auto& [label, total] : totals(sweep_spans(wire_spans, wIdle, span.a, span.b, first_active))) {
        double v = span.per_unit(total);
        w.parts.push_back({{"step", kWireParts[label]}, {"ns", v}, {"byte_times", span.byte_times(v)}});
    }
    // Busy: each received frame's share of the line, whenever it arrived (a frame delivered in
    // the span may have waited in the FIFO since before it).
    Picos share_sum = 0;
    std::size_t shares = 0;
    for (const auto& s : wire_spans)
        if (s.start > rec.window().from) share_sum += s.end - s.start, ++shares;
    if (shares)
        w.received = static_cast<Picos>(
            std::llround(static_cast<double>(share_sum) / static_cast<double>(shares) * span.n));
    return w;
}

// The receive side's engine, CPU and wire.
Direction receive_direction(const Recording& rec, const std::vector<StepInterval>& steps,
                            const DeliveredFrames& frames, const AnalysedSpan& span) {
    const RecordedPort& who = *rec.receive_port();
    const WireTime wire = wire_time(rec, steps, frames, span);
    return {"frame",
            "fps_if_alone",
            {kRxChannels, kMechanisms, kSteps, kMechanismNames, engine_label,
             {kHeld, kData, kWriteBack, kFetch, kIdle},  // the order of one frame
             kIdle, kHeld},
            engine_spans(rec, steps, who.rx_module),
            {"nic_rx_engine", "NIC receive DMA engine", 0},
            // Frames mostly held in the FIFO for want of a descriptor while the wire is not
            // saturated: the driver's refill sets the pace (the receive side's counterpart of a
            // TX FIFO limit).
            {"descriptors", "receive descriptors (the driver's refill: RDT)", 0},
            module_step_parts(steps, who.cpu, kCpuOrder, kCpuParts, span.a, span.b, span.n,
                              span.bytes_per_s),
            "CPU (receive path and all else it runs)",
            wire.parts,
            {"wire", "wire (the received frames)", wire.received}};
}

// What arrived and what was missed in the span, by cause (MPC; RNBC when no descriptor).
void add_arrivals(json& out, const Recording& rec, const std::vector<StepInterval>& steps,
                  const AnalysedSpan& span) {
    const RecordedPort& who = *rec.receive_port();
    const std::string rx = who.rx_module;
    std::uint64_t arrived = 0, missed_fifo = 0, missed_descriptor = 0;
    for (const auto& s : steps) {
        bool in = s.end > span.a && s.end <= span.b;
        if (!in) continue;
        if (s.module == who.wire && s.step == TraceStep::RxWire) ++arrived;
        if (s.module == rx && s.step == TraceStep::RxMissFifoFull) ++missed_fifo;
        if (s.module == rx && s.step == TraceStep::RxMissNoDescriptor) ++missed_descriptor;
    }
    out["frames_arrived"] = arrived;
    out["missed"] = {{"fifo_full", missed_fifo}, {"no_descriptor", missed_descriptor}};
}

// Posted writes against reads: what the data write costs the engine per frame, and that no
// read latency is on its path; the descriptor reads are shared by the frames of one fetch.
json dma_costs(const std::vector<StepInterval>& steps, const std::string& rx,
               const EngineParts& engine, const AnalysedSpan& span) {
    std::uint64_t fetches = 0, fetched = 0;
    for (const auto& s : steps)
        if (s.module == rx && s.step == TraceStep::DescriptorFetch && s.end > span.a && s.end <= span.b)
            ++fetches, fetched += s.bytes / 16;
    Picos data_bus = 0, data_waiting = 0;
    for (int m = 0; m < kMechanisms; ++m) {
        auto it = engine.by_label.find(kData * kMechanisms + m);
        if (it == engine.by_label.end()) continue;
        (m <= mSplit ? data_bus : data_waiting) += it->second;
    }
    return {{"data_write_ns_per_frame", span.per_unit(engine.by_step[kData])},
            {"data_write_bus_clocks_ns_per_frame", span.per_unit(data_bus)},
            {"data_write_waiting_ns_per_frame", span.per_unit(data_waiting)},
            {"write_back_ns_per_frame", span.per_unit(engine.by_step[kWriteBack])},
            {"descriptor_fetch_ns_per_frame", span.per_unit(engine.by_step[kFetch])},
            {"descriptor_fetches", fetches},
            {"descriptors_per_fetch", fetches ? static_cast<double>(fetched) / static_cast<double>(fetches) : 0.0}};
}

// The bus transactions overlapping the chain's `stages` (its data write and write-back), from t0.
json bus_lines(const Recording& rec, Picos t0, std::initializer_list<const StepInterval*> stages) {
    json lines = json::array();
    for (const auto& t : rec.transactions()) {
        bool overlaps = false;
        for (const StepInterval* s : stages)
            overlaps = overlaps || (s && t.end > s->start && t.start < s->end);
        if (overlaps)
            lines.push_back({{"t_ns", ns(t.start) - ns(t0)}, {"dur_ns", ns(t.end - t.start)},
                             {"what", transaction_text(t, rec.bus())}});
    }
    return lines;
}

// One frame's chain: the middle frame from its arrival to the refill after its cleaning, and
// the bus transactions of its data write and write-back.
json chain(const Recording& rec, const std::vector<StepInterval>& steps, const FrameEnds& ends) {
    const RecordedPort& who = *rec.receive_port();
    const std::string rx = who.rx_module;
    const std::int64_t frame = ends[ends.size() / 2].second;
    auto find = [&](const std::string& module, TraceStep step, std::int64_t packet,
                    Picos not_before) -> const StepInterval* {
        for (const auto& s : steps)
            if (s.module == module && s.step == step && (packet < 0 || s.packet == packet) &&
                s.start >= not_before)
                return &s;
        return nullptr;
    };
    json stages = json::array();
    Picos t0 = 0;
    auto stage = [&](const std::string& what, const StepInterval* s) {
        if (!s) return;
        if (stages.empty()) t0 = s->start;
        // A step that began before the window shows from the window's start.
        bool cut = s->start == rec.window().from && !s->instant;
        stages.push_back({{"stage", cut ? what + " (began before the window)" : what},
                          {"t_ns", ns(s->start) - ns(t0)}, {"dur_ns", ns(s->end - s->start)}});
    };
    const StepInterval* arrival = find(who.wire, TraceStep::RxWire, frame, 0);
    stage("wire arrival (gap, preamble, frame, FCS)", arrival);
    const StepInterval* held = find(rx, TraceStep::RxFifo, frame, 0);
    stage("receive FIFO (last byte in to the data write's issue)", held);
    const StepInterval* data = find(rx, TraceStep::RxDataWrite, frame, 0);
    stage("DMA write of the data (posted)", data);
    const StepInterval* wb = data ? find(rx, TraceStep::WriteBack, -1, data->end) : nullptr;
    stage("descriptor write-back (posted, DD)", wb);
    const StepInterval* irq = nullptr;
    if (wb)
        for (const auto& s : steps)
            if (s.step == TraceStep::Interrupt && s.module.rfind(who.port_module, 0) == 0 &&
                s.start >= wb->end) { irq = &s; break; }
    stage("next interrupt (INTA#, after RDTR/ITR moderation)", irq);
    const StepInterval* cleaned = find(who.cpu, TraceStep::RxFrameCleaned, frame, 0);
    if (cleaned) {
        const StepInterval* poll = nullptr;
        for (const auto& s : steps)
            if (s.module == who.cpu && s.step == TraceStep::RxClean && s.start <= cleaned->start &&
                s.end >= cleaned->start) { poll = &s; break; }
        stage("poll: clean_rx_irq", poll);
        stage("driver takes the frame", cleaned);
        stage("refill and RDT write (alloc_rx_buffers)",
              find(who.cpu, TraceStep::RxRefill, -1, cleaned->start));
    }
    return {{"frame", frame}, {"stages", stages}, {"bus", bus_lines(rec, t0, {data, wb})}};
}

}  // namespace
}  // namespace receive_explanation

json explain_receive(const Recording& rec, const ReceiveSetup& setup) {
    using namespace receive_explanation;
    const RecordedPort* who = rec.receive_port();
    if (!who) throw std::runtime_error("no port receives on the recorded bus segment");
    const std::vector<StepInterval> steps = step_intervals(rec);
    const DeliveredFrames frames = delivered_frames(rec, steps, who->rx_module);
    const AnalysedSpan span(frames.ends, rec.bus());
    const WindowAnalysis w =
        analyse_window(rec, span, receive_direction(rec, steps, frames, span), setup.measured_pps);

    json out = w.report;
    out["frame_bytes"] = frames.mean_bytes;
    out["window"] = {{"analysed_from_us", ns(span.a) / 1000}, {"analysed_to_us", ns(span.b) / 1000},
                     {"frames", frames.ends.size() - 1}, {"port", who->rx_module}};
    add_arrivals(out, rec, steps, span);
    out["run_rx"] = setup.run_rx.is_object() ? setup.run_rx : json();
    out["dma"] = dma_costs(steps, who->rx_module, w.engine, span);
    out["chain"] = chain(rec, steps, frames.ends);
    return out;
}

std::string explain_receive_text(const json& x) {
    std::ostringstream o;
    o << std::fixed << std::setprecision(1);
    const json& w = x["window"];
    const json& bus = x["bus"];
    o << "receive: " << w["port"].get<std::string>() << " on " << bus["kind"].get<std::string>()
      << " " << bus["width_bits"] << "/" << bus["clock_mhz"].get<double>() << " (B = "
      << bus["bytes_per_s"].get<double>() / 1e6 << " MB/s), frames of "
      << x["frame_bytes"].get<double>() << " B in host memory (with CRC)\n";
    o << "window " << w["analysed_from_us"].get<double>() << " - " << w["analysed_to_us"].get<double>()
      << " us (first to last data write of " << w["port"].get<std::string>() << "): "
      << w["frames"] << " frames received, " << x["frames_arrived"] << " arrived\n";
    o << "period " << x["period_ns"].get<double>() << " ns per received frame (run: 1/its rx_pps = "
      << x["measured_period_ns"].get<double>() << " ns)\n";
    const json& m = x["missed"];
    o << "missed in the window (MPC): " << m["fifo_full"] << " with the FIFO full, "
      << m["no_descriptor"] << " with no descriptor either";
    if (x["run_rx"].is_object() && x["run_rx"].contains("missed_by_cause")) {
        const json& r = x["run_rx"];
        o << " (whole run: " << r["missed_frames"] << " of " << r["frames_arrived"] << ": "
          << r["missed_by_cause"]["fifo_full"] << " fifo_full, "
          << r["missed_by_cause"]["no_descriptor"] << " no_descriptor)";
    }
    o << "\n\nresources, busy per received frame:\n";
    print_resources(o, x["resources"], "busy_ns_per_frame", "fps_if_alone", "frames/s");
    o << "limited by: " << x["limiter_name"].get<std::string>()
      << "\nnext bottleneck: " << x["next_bottleneck_name"].get<std::string>() << "\n";

    const json& d = x["dma"];
    o << "\nposted writes, no read on the frame's path: the data write takes the engine "
      << d["data_write_ns_per_frame"].get<double>() << " ns per frame ("
      << d["data_write_bus_clocks_ns_per_frame"].get<double>() << " ns of bus clocks, "
      << d["data_write_waiting_ns_per_frame"].get<double>()
      << " ns waiting for the bus or queued);\n  the write-back "
      << d["write_back_ns_per_frame"].get<double>() << " ns; the only reads are descriptor fetches, "
      << d["descriptor_fetch_ns_per_frame"].get<double>() << " ns per frame (" << d["descriptor_fetches"]
      << " fetches of " << d["descriptors_per_fetch"].get<double>()
      << " descriptors, overlapping the writes)\n";

    for (const char* resource : {"nic_rx_engine", "cpu", "wire"}) {
        o << "\n" << resource << ", per received frame:\n";
        for (const auto& p : x["parts"][resource]) {
            std::string what = p["step"].get<std::string>();
            if (p.contains("mechanism")) what += ": " + p["mechanism"].get<std::string>();
            o << "  " << std::left << std::setw(76) << what << std::right << std::setw(9)
              << p["ns"].get<double>() << " ns\n";
        }
    }

    const json& c = x["chain"];
    o << "\nchain of frame " << c["frame"] << " (from its arrival on the wire):\n";
    o << "  " << std::setw(9) << "t ns" << std::setw(9) << "dur ns" << "  stage\n";
    for (const auto& e : c["stages"])
        o << "  " << std::setw(9) << e["t_ns"].get<double>() << std::setw(9) << e["dur_ns"].get<double>()
          << "  " << e["stage"].get<std::string>() << "\n";
    for (const auto& e : c["bus"])
        o << "  " << std::setw(9) << e["t_ns"].get<double>() << std::setw(9) << e["dur_ns"].get<double>()
          << "  bus: " << e["what"].get<std::string>() << "\n";
    return o.str();
}

}  // namespace pcisim
