// The import structure has no upward arrow (docs/architecture.md, "Layout"): a folder of model/
// includes only its own headers and those of the layers below it; and the harness names a NIC
// family only in its table of families.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace test_layers {

using namespace std::string_literals;

// The offending items of a check, for its message.
std::string joined(const std::vector<std::string>& items, const char* separator) {
    std::string all;
    for (const auto& item : items) all += item + separator;
    return all;
}

TEST_CASE("no folder of the model includes a folder above it", "[layers]") {
    // Bottom first; tools and the TLM component are both on top.
    const std::map<std::string, int> rank = {{"core", 0},     {"config", 1}, {"platform", 2},
                                             {"nic", 3},      {"e1000", 4},  {"software", 5},
                                             {"run", 6},      {"tools", 7},  {"tlm", 7}};
    const std::filesystem::path model = std::string(PCISIM_SOURCE_DIR) + "/model";
    const std::regex include(R"(^\s*#include\s+"(\w+)/)");
    std::vector<std::string> upward;
    std::size_t files = 0;
    for (const auto& [folder, own] : rank) {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(model / folder)) {
            if (!entry.is_regular_file()) continue;
            ++files;
            std::ifstream in(entry.path());
            std::smatch m;
            for (std::string line; std::getline(in, line);) {
                if (!std::regex_search(line, m, include)) continue;
                auto it = rank.find(m[1]);
                if (it != rank.end() && it->second > own)
                    upward.push_back(entry.path().lexically_relative(model).string() + ": " + line);
            }
        }
    }
    CHECK(files > 100);  // the folders were found
    INFO("includes of a layer above:\n" << joined(upward, "\n"));
    CHECK(upward.empty());
}

TEST_CASE("the harness names no NIC family but in its table of families", "[layers]") {
    // A second family is one folder, its drivers in software/ and one line in
    // run/nic_families.cpp (docs/architecture.md, "A second NIC family"): run/ and tools/ reach
    // the NIC through nic/ and its driver through software/port_driver.h.
    const std::filesystem::path model = std::string(PCISIM_SOURCE_DIR) + "/model";
    const std::regex names(R"((\bE1000\w*|\be1000::|#include\s+"e1000/))");
    std::vector<std::string> found;
    std::size_t files = 0;
    for (const char* folder : {"run", "tools"}) {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(model / folder)) {
            if (!entry.is_regular_file()) continue;
            const std::string file = entry.path().lexically_relative(model).string();
            if (file == "run/nic_families.cpp") continue;  // the table of families
            ++files;
            std::ifstream in(entry.path());
            for (std::string line; std::getline(in, line);)
                if (std::regex_search(line, names)) found.push_back(file + ": " + line);
        }
    }
    CHECK(files > 50);
    INFO("names of the e1000 family outside the table:\n" << joined(found, "\n"));
    CHECK(found.empty());
}

TEST_CASE("every test file keeps its names in a namespace named after the file", "[layers]") {
    // The unity build compiles eight test files as one (CMakeLists.txt): fixtures and `using`
    // lines at file scope would meet those of the other seven.
    const std::filesystem::path tests = std::string(PCISIM_SOURCE_DIR) + "/tests";
    std::vector<std::string> unwrapped;
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(tests)) {
        const std::string stem = entry.path().stem().string();
        if (entry.path().extension() != ".cpp" || stem.rfind("test_", 0) != 0) continue;
        ++files;
        std::ifstream in(entry.path());
        std::string line, opening;
        bool opened = false;
        for (; std::getline(in, line);) {
            if (line == "namespace " + stem + " {") opened = true;
            else if (!opened && !line.empty() && line.rfind("//", 0) != 0 && line[0] != '#')
                opening = line;  // code before the namespace
        }
        if (!opened || !opening.empty()) unwrapped.push_back(stem);
    }
    CHECK(files > 30);
    INFO("not wrapped in their own namespace: " << joined(unwrapped, " "));
    CHECK(unwrapped.empty());
}

}  // namespace test_layers
