// Labelling a span of time from overlapping activities: the sweep that explain's transmit and
// receive decompositions share (every picosecond lands in exactly one labelled piece).
#pragma once

#include <functional>
#include <map>
#include <vector>

#include "core/pci_types.h"

namespace pcisim {

// An activity on one channel (a kind of step or bus part), [start, end).
struct Span {
    Picos start, end;
    int channel;
};
struct Segment {
    Picos start, end;
    int label;
};

// Cuts [a, b) at every span edge and labels each piece by the spans active over it
// (`classify` gets the count of active spans per channel); equal neighbours are merged.
std::vector<Segment> sweep_spans(const std::vector<Span>& spans, int channels, Picos a, Picos b,
                                 const std::function<int(const std::vector<int>&)>& classify);

// The first channel with an active span, or the channel count when none is.
int first_active(const std::vector<int>& on);

// Total time of each label.
std::map<int, Picos> totals(const std::vector<Segment>& segments);

}  // namespace pcisim
