// docs/scenario-reference.md is generated (pcisim schema > docs/scenario-reference.md): the
// committed file must be what the schema says now.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "run/schema.h"

TEST_CASE("docs/scenario-reference.md is the current output of pcisim schema") {
    std::ifstream in(std::string(PCISIM_SOURCE_DIR) + "/docs/scenario-reference.md");
    REQUIRE(in);
    std::stringstream committed;
    committed << in.rdbuf();
    INFO("regenerate it: build/pcisim schema > docs/scenario-reference.md");
    CHECK(committed.str() == pcisim::schema_markdown());
}
