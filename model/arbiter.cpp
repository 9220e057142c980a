#include "arbiter.h"

namespace pcisim {

int Arbiter::pick(const std::vector<bool>& requesting) const {
    for (int i = 1; i <= masters_; ++i) {
        int m = (last_ + i + masters_) % masters_;
        if (requesting[m]) return m;
    }
    return -1;
}

void Arbiter::granted(int master) { last_ = master; }

}  // namespace pcisim
