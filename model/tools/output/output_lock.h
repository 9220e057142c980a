// An exclusive lock on an output, held while a command writes it: flock(2) on a lock file beside
// the output.  The kernel drops the lock when its holder dies, however it dies, so a sweep killed
// with SIGKILL never leaves a stale lock behind.
#pragma once

#include <string>

namespace pcisim::output {

class OutputLock {
public:
    // Creates (or opens) `lock_path` and locks it without waiting.  Throws OutputError when the
    // folder cannot hold it or another process holds the lock (the message gives its pid).
    OutputLock(const std::string& lock_path, const std::string& what);
    // Removes the lock file, then releases the lock.
    ~OutputLock();
    OutputLock(const OutputLock&) = delete;
    OutputLock& operator=(const OutputLock&) = delete;

private:
    std::string path_;
    int fd_ = -1;
};

}  // namespace pcisim::output
