#include "core/line_use.h"

namespace pcisim {

const char* to_string(LineUse use) {
    switch (use) {
        case LineUse::Other: return "other";
        case LineUse::SkbHead: return "skb_head";
        case LineUse::SkbRefcount: return "skb_refcount";
        case LineUse::SkbData: return "skb_data";
        case LineUse::Descriptor: return "descriptor";
        case LineUse::BufferInfo: return "buffer_info";
        case LineUse::RingState: return "ring_state";
        case LineUse::SlabArray: return "slab_array";
        case LineUse::Count: break;
    }
    return "?";
}

}  // namespace pcisim
