// Stage 2 of the transmit engine (e1000_tx_engine.h): a packet's data is fetched only when the
// TX FIFO can take all of it (SDM 3.4 "Transmit descriptor fetching").  While the engine waits
// for room, the MAC is asked to say when frames leaving free some, and the wait is counted and
// traced.
#pragma once

#include <cstdint>
#include <string>

#include "e1000/e1000_mac_wire.h"
#include "core/trace_hooks.h"

namespace pcisim::e1000 {

class FifoRoom {
public:
    FifoRoom(std::string name, unsigned index, MacWire& mac)
        : name_(std::move(name)), index_(index), mac_(mac) {}

    // The engine waits for `bytes` of room for packet `seq`, from `now` if it was not waiting.
    void wait(Picos now, std::uint32_t bytes, std::int64_t seq) {
        mac_.wait_for_room();
        if (!waiting_) {
            waiting_ = true, since_ = now;
            trace::emit(TraceStep::FifoWait, TracePhase::Begin, name_.c_str(), now, index_, seq, bytes);
        }
    }
    // Room found: when the engine turned to the packet (the wait's start if it waited).
    Picos found(Picos now, std::uint32_t bytes, std::int64_t seq) {
        if (!waiting_) return now;
        waited_ += now - since_;
        waiting_ = false;
        trace::emit(TraceStep::FifoWait, TracePhase::End, name_.c_str(), now, index_, seq, bytes);
        return since_;
    }
    // Time packets spent ready to fetch but waiting for room, since the last reset.
    Picos waited() const { return waited_; }
    void reset_stats() { waited_ = 0; }

private:
    std::string name_;
    unsigned index_;
    MacWire& mac_;
    bool waiting_ = false;
    Picos since_ = 0;
    Picos waited_ = 0;
};

}  // namespace pcisim::e1000
