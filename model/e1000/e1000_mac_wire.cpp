#include "e1000/e1000_mac_wire.h"

#include <stdexcept>
#include <string>

namespace pcisim::e1000 {

MacWire::MacWire(sc_core::sc_module_name name, unsigned port, const E1000Params& params,
                 TxFifo& fifo, const FrameObserver& observer)
    : sc_module(name), mac_(this->name(), port, params, fifo, observer) {
    SC_HAS_PROCESS(MacWire);
    SC_METHOD(advance);
    sensitive << wake_;
    dont_initialize();
}

void MacWire::enqueue(std::vector<std::uint8_t> frame, const FrameTimeline& times) {
    // While a frame is on the wire a wake-up is armed (or, lazily, the frame is finished when
    // someone looks), and the MAC looks at the queue then; only an idle MAC needs one now.
    Picos now = now_ps();
    if (times.committed > now && !lazy_)
        throw std::logic_error(std::string(name()) + ": a frame ready later needs the lazy wire");
    catch_up();
    if (mac_.enqueue(std::move(frame), times, now)) arm(now);
}

void MacWire::set_enabled(bool on) {
    catch_up();
    mac_.set_enabled(on, now_ps());
    wake_.notify(sc_core::SC_ZERO_TIME);
}

void MacWire::set_ipgt(unsigned bytes) {
    catch_up();  // the gaps after frames that have left were the old ones
    mac_.set_ipgt(bytes);
}

void MacWire::set_lazy(bool on) {
    catch_up();
    lazy_ = on;
    arm(now_ps());
}

void MacWire::wait_for_room() {
    if (room_wanted_) return;  // asked already: the wake-up is armed, or arms with the next frame
    room_wanted_ = true;
    arm(now_ps());
}

void MacWire::advance() {
    Picos now = now_ps();
    bool freed = mac_.finish_frames(now);
    bool tell = lazy_ ? room_wanted_ : freed;
    room_wanted_ = false;
    if (tell && room_freed_) room_freed_();
    // A zero-delay wake (enable) cancels a pending timed one: always re-arm.
    mac_.line_up_next(now);
    arm(now);
}

void MacWire::arm(Picos now) {
    if (mac_.sending() && (!lazy_ || room_wanted_)) wake_.notify(ps(mac_.send_end() - now));
}

}  // namespace pcisim::e1000
