#include "e1000/e1000_mac.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/sim_time.h"
#include "core/trace_hooks.h"

namespace pcisim::e1000 {

namespace {
constexpr std::size_t kMinFrameBytes = 60;  // padded to 64 with the FCS (IEEE 802.3 4.2.3.3)
constexpr std::size_t kFcsBytes = 4;
constexpr std::size_t kPreambleBytes = 8;   // preamble + SFD
}  // namespace

Mac::Mac(sc_core::sc_module_name name, unsigned port, const E1000Params& params, TxFifo& fifo,
         TxStats& stats, const FrameObserver& observer)
    : sc_module(name), port_(port), params_(params), fifo_(fifo), stats_(stats),
      observer_(observer) {
    SC_HAS_PROCESS(Mac);
    SC_METHOD(advance);
    sensitive << wake_;
    dont_initialize();
}

void Mac::enqueue(std::vector<std::uint8_t> frame, Picos ready) {
    // Only an idle MAC has anything to do now: start the frame (or line it up behind the gap).
    // While a frame is on the wire a wake-up is armed (or, lazily, the frame is finished when
    // someone looks), and the MAC looks at the queue then.
    Picos now = now_ps();
    if (ready > now && !lazy_)
        throw std::logic_error(std::string(name()) + ": a frame ready later needs the lazy wire");
    catch_up();
    bool idle = !sending_ && queue_.empty();
    queue_.push_back({std::move(frame), ready});
    if (!idle) return;
    start_next(now);
    arm(now);
}

void Mac::set_enabled(bool on) {
    catch_up();
    enabled_ = on;
    // A frame lined up behind the inter-packet gap has not started yet: it waits for TCTL.EN.
    if (!on && sending_ && now_ps() < send_start_) sending_ = false;
    wake_.notify(sc_core::SC_ZERO_TIME);
}

void Mac::set_ipgt(unsigned bytes) {
    catch_up();  // the gaps after frames that have left were the old ones
    ipgt_ = bytes;
}

void Mac::set_lazy(bool on) {
    catch_up();
    lazy_ = on;
    arm(now_ps());
}

void Mac::wait_for_room() {
    if (room_wanted_) return;  // asked already: the wake-up is armed, or arms with the next frame
    room_wanted_ = true;
    arm(now_ps());
}

Picos Mac::frame_time(std::size_t len) const {
    return (std::max(len, kMinFrameBytes) + kFcsBytes + kPreambleBytes) * params_.byte_time;
}

double Mac::wire_limit_pps(std::size_t len) const {
    Picos gap = Picos(ipgt_ + params_.ipg_extra_bytes) * params_.byte_time;
    return 1e12 / static_cast<double>(frame_time(len) + gap);
}

void Mac::advance() {
    Picos now = now_ps();
    bool freed = finish_frames(now);
    bool tell = lazy_ ? room_wanted_ : freed;
    room_wanted_ = false;
    if (tell && room_freed_) room_freed_();
    // A zero-delay wake (enable) cancels a pending timed one: always re-arm.
    if (!sending_) start_next(now);
    arm(now);
}

bool Mac::finish_frames(Picos upto) {
    bool any = false;
    while (sending_ && send_end_ <= upto) {
        Picos end = send_end_;
        sending_ = false;
        std::vector<std::uint8_t> frame = std::move(queue_.front().frame);
        queue_.pop_front();
        Picos gap = Picos(ipgt_ + params_.ipg_extra_bytes) * params_.byte_time;
        wire_free_ = end + gap;
        auto seq = static_cast<std::int64_t>(frames_sent_);
        if (lined_up_)
            trace::emit(TraceStep::Wire, TracePhase::Begin, name(), send_start_, port_, seq,
                        static_cast<std::uint32_t>(frame.size()));
        trace::emit(TraceStep::Wire, TracePhase::End, name(), end, port_, seq);
        trace::emit(TraceStep::Gap, TracePhase::Begin, name(), end, port_, seq);
        trace::emit(TraceStep::Gap, TracePhase::End, name(), wire_free_, port_, seq);
        ++frames_sent_;
        ++stats_.tx_frames;
        stats_.tx_bytes += frame.size();
        stats_.wire += frame_time(frame.size()) + gap;
        fifo_.release(static_cast<std::uint32_t>(frame.size()));
        if (observer_) observer_(port_, frame.data(), static_cast<unsigned>(frame.size()), end);
        if (frame_sent_) frame_sent_(std::move(frame));
        any = true;
        start_next(end);
    }
    return any;
}

void Mac::start_next(Picos now) {
    if (enabled_ && !queue_.empty()) {
        // The next frame starts when the gap is over (and it is there).  Lined up now, it needs
        // no wake-up of its own at that time (one activation per frame at full load); its trace
        // begin is written when it ends.
        const Queued& next = queue_.front();
        send_start_ = std::max({now, wire_free_, next.ready});
        lined_up_ = send_start_ > now;
        sending_ = true;
        send_end_ = send_start_ + frame_time(next.frame.size());
        if (!lined_up_)
            trace::emit(TraceStep::Wire, TracePhase::Begin, name(), now, port_,
                        static_cast<std::int64_t>(frames_sent_),
                        static_cast<std::uint32_t>(next.frame.size()));
    }
}

void Mac::arm(Picos now) {
    if (sending_ && (!lazy_ || room_wanted_)) wake_.notify(ps(send_end_ - now));
}

}  // namespace pcisim::e1000
