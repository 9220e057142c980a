#include "e1000/e1000_mac.h"

#include <algorithm>
#include <string>

#include "core/ethernet.h"
#include "core/trace_hooks.h"

namespace pcisim::e1000 {

Mac::Mac(std::string name, unsigned port, const E1000Params& params, TxFifo& fifo,
         const FrameObserver& observer)
    : name_(std::move(name)), port_(port), params_(params), fifo_(fifo), observer_(observer) {}

bool Mac::enqueue(std::vector<std::uint8_t>&& frame, const FrameTimeline& times, Picos now) {
    // Only an idle MAC has anything to do now: start the frame (or line it up behind the gap).
    // Behind a frame on the wire it waits until that one is finished.
    bool idle = !sending_ && queue_.empty();
    queue_.push_back({std::move(frame), times});
    if (idle) start_next(now);
    return idle;
}

void Mac::set_enabled(bool on, Picos now) {
    enabled_ = on;
    // A frame lined up behind the inter-packet gap has not started yet: it waits for TCTL.EN.
    if (!on && sending_ && now < send_start_) sending_ = false;
}

Picos Mac::frame_time(std::size_t len) const {
    return (std::max<std::size_t>(len, kMinFrameBytes) + kFcsBytes + kPreambleBytes) *
           params_.byte_time_ps;
}

Picos Mac::gap() const { return Picos(ipgt_ + params_.ipg_extra_bytes) * params_.byte_time_ps; }

double Mac::wire_limit_pps(std::size_t len) const {
    return 1e12 / static_cast<double>(frame_time(len) + gap());
}

bool Mac::finish_frames(Picos upto) {
    bool any = false;
    while (sending_ && send_end_ <= upto) {
        Picos end = send_end_;
        sending_ = false;
        std::vector<std::uint8_t> frame = std::move(queue_.front().frame);
        FrameTimeline times = queue_.front().times;
        queue_.pop_front();
        times.wire_start = send_start_;
        times.wire_end = end;
        wire_free_ = end + gap();
        auto seq = static_cast<std::int64_t>(frames_sent_);
        if (lined_up_)
            trace::emit(TraceStep::Wire, TracePhase::Begin, name_.c_str(), send_start_, port_, seq,
                        static_cast<std::uint32_t>(frame.size()));
        trace::emit(TraceStep::Wire, TracePhase::End, name_.c_str(), end, port_, seq);
        trace::emit(TraceStep::Gap, TracePhase::Begin, name_.c_str(), end, port_, seq);
        trace::emit(TraceStep::Gap, TracePhase::End, name_.c_str(), wire_free_, port_, seq);
        ++frames_sent_;
        ++stats_.tx_frames;
        stats_.tx_bytes += frame.size();
        stats_.wire += frame_time(frame.size()) + gap();
        fifo_.release(static_cast<std::uint32_t>(frame.size()));
        if (observer_) observer_(port_, frame.data(), static_cast<unsigned>(frame.size()), times);
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
        send_start_ = std::max({now, wire_free_, next.times.committed});
        lined_up_ = send_start_ > now;
        sending_ = true;
        send_end_ = send_start_ + frame_time(next.frame.size());
        if (!lined_up_)
            trace::emit(TraceStep::Wire, TracePhase::Begin, name_.c_str(), now, port_,
                        static_cast<std::int64_t>(frames_sent_),
                        static_cast<std::uint32_t>(next.frame.size()));
    }
}

}  // namespace pcisim::e1000
