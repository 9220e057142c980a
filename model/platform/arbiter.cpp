#include "platform/arbiter.h"

namespace pcisim {

int Arbiter::pick(const std::vector<char>& requesting) const {
    int m = last_;
    for (int i = 0; i < masters_; ++i) {
        if (++m >= masters_) m = 0;
        if (requesting[m]) return m;
    }
    return -1;
}

void Arbiter::granted(int master) { last_ = master; }

}  // namespace pcisim
