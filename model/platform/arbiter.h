// The central arbiter of a segment: REQ#/GNT# per master, round-robin fairness and bus parking
// (PCI 3.0 section 3.4).  It only decides who is next; the bus does the timing.
#pragma once

#include <vector>

namespace pcisim {

class Arbiter {
public:
    explicit Arbiter(bool park_on_last) : park_on_last_(park_on_last) {}

    void add_master() { ++masters_; }
    // The requesting master that comes first in round-robin order after the last one granted;
    // -1 when nobody requests.  One flag per master (char, not vector<bool>: this runs for every
    // transaction and bit access costs more than the byte).
    int pick(const std::vector<char>& requesting) const;
    void granted(int master);
    // The master GNT# rests on while nobody requests (it may start without arbitration), or -1.
    int parked() const { return park_on_last_ ? last_ : -1; }

private:
    bool park_on_last_;
    int masters_ = 0;
    int last_ = -1;
};

}  // namespace pcisim
