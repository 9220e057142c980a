#include "tools/output/output_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "tools/output/output_file.h"

namespace pcisim::output {

namespace {

std::string holder_of(int fd) {
    char buf[32] = {};
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    std::string pid = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
    return pid.empty() ? "another process" : "process " + pid;
}

}  // namespace

OutputLock::OutputLock(const std::string& lock_path, const std::string& what) : path_(lock_path) {
    // The holder removes the file when it is done.  A process that opened it just before that
    // would lock a file no longer in the folder, so after locking, check that the file locked
    // is still the one the path names, and start again if not.
    while (true) {
        fd_ = open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (fd_ < 0)
            throw OutputError("cannot create the lock file " + path_ + ": " +
                              std::strerror(errno) + "; expected a writable folder");
        if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            std::string holder = errno == EWOULDBLOCK ? holder_of(fd_) : std::strerror(errno);
            close(fd_);
            fd_ = -1;
            throw OutputError(what + " is being written by " + holder + " (lock " + path_ +
                              "); expected one command at a time on an output");
        }
        struct stat locked {}, named {};
        if (fstat(fd_, &locked) == 0 && stat(path_.c_str(), &named) == 0 &&
            locked.st_ino == named.st_ino && locked.st_dev == named.st_dev)
            break;
        close(fd_);
    }
    std::string pid = std::to_string(getpid()) + "\n";
    // The pid only makes a second command's message clearer; the lock holds without it.
    bool noted = ftruncate(fd_, 0) == 0 &&
                 pwrite(fd_, pid.data(), pid.size(), 0) == static_cast<ssize_t>(pid.size());
    static_cast<void>(noted);
}

OutputLock::~OutputLock() {
    if (fd_ < 0) return;
    unlink(path_.c_str());
    close(fd_);
}

}  // namespace pcisim::output
