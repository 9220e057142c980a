// docs/scenario-reference.md is generated (pcisim schema > docs/scenario-reference.md): the
// committed file must be what the schema says now.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "run/schema.h"

namespace test_schema_doc {

TEST_CASE("docs/scenario-reference.md is the current output of pcisim schema") {
    std::ifstream in(std::string(PCISIM_SOURCE_DIR) + "/docs/scenario-reference.md");
    REQUIRE(in);
    std::stringstream committed;
    committed << in.rdbuf();
    INFO("regenerate it: build/pcisim schema > docs/scenario-reference.md");
    CHECK(committed.str() == pcisim::schema_markdown());
}

TEST_CASE("every scenario file the docs name is in the tree") {
    namespace fs = std::filesystem;
    const fs::path root = PCISIM_SOURCE_DIR;
    std::vector<fs::path> docs = {root / "README.md"};
    for (const auto& entry : fs::directory_iterator(root / "docs"))
        if (entry.path().extension() == ".md") docs.push_back(entry.path());
    const std::regex named(R"(scenarios/[A-Za-z0-9_.-]+\.json)");
    std::size_t found = 0;
    for (const auto& doc : docs) {
        std::ifstream in(doc);
        std::stringstream text;
        text << in.rdbuf();
        const std::string body = text.str();
        for (std::sregex_iterator it(body.begin(), body.end(), named), end; it != end; ++it) {
            ++found;
            INFO(doc.filename().string() << " names " << it->str());
            CHECK(fs::exists(root / it->str()));
        }
    }
    CHECK(found > 0);
}

}  // namespace test_schema_doc
