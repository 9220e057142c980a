#include "core/data_dir.h"

#include <cstdlib>
#include <system_error>

namespace fs = std::filesystem;

namespace pcisim {

namespace {

std::string& given_dir() {
    static std::string dir;
    return dir;
}

bool holds_scenarios(const fs::path& dir) {
    std::error_code error;
    return fs::is_directory(dir / "scenarios", error);
}

fs::path explicit_dir(const std::string& dir, const std::string& named_by) {
    if (!holds_scenarios(dir))
        throw DataDirError(named_by + " " + dir +
                           ": no scenarios/ there; expected a pcisim data directory (the "
                           "source tree, or <prefix>/share/pcisim of an installation)");
    return dir;
}

// <prefix>/share/pcisim for the executable <prefix>/bin/NAME, or empty.
fs::path installation_of_executable() {
    std::error_code error;
    fs::path exe = fs::read_symlink("/proc/self/exe", error);
    if (error) return {};
    return exe.parent_path().parent_path() / "share" / "pcisim";
}

}  // namespace

void set_data_dir(const std::string& dir) { given_dir() = dir; }

DataDir find_data_dir() {
    if (!given_dir().empty()) return {explicit_dir(given_dir(), "--data-dir"), "--data-dir"};
    if (const char* env = std::getenv("PCISIM_DATA_DIR"); env && *env)
        return {explicit_dir(env, "PCISIM_DATA_DIR"), "PCISIM_DATA_DIR"};
    const std::pair<fs::path, const char*> candidates[] = {
        {installation_of_executable(), "installation"},
        {PCISIM_SOURCE_DIR, "source tree"},
        {PCISIM_INSTALL_DATADIR, "installation prefix"},
    };
    for (const auto& [dir, found_by] : candidates)
        if (!dir.empty() && holds_scenarios(dir)) return {dir, found_by};
    return {};
}

fs::path data_path(const fs::path& relative) {
    fs::path dir = find_data_dir().path;
    return (dir.empty() ? fs::path(PCISIM_SOURCE_DIR) : dir) / relative;
}

}  // namespace pcisim
