#include "config/scenario_view.h"

#include <algorithm>
#include <cstdint>

namespace pcisim {

using nlohmann::json;

ScenarioError::ScenarioError(std::vector<std::string> problems)
    : std::runtime_error(problems.empty() ? std::string("scenario error") : problems.front()),
      problems_(std::move(problems)) {}

namespace {

bool all_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

// Every module reads its parameters through here while it is built: the path is walked in place
// (no split_path vector per lookup), which keeps elaboration short for sweep points.
const json& ScenarioView::at(const std::string& path) const {
    const json* node = doc_;
    std::string k;
    for (std::size_t i = 0; i <= path.size();) {
        std::size_t j = std::min(path.find_first_of(".[]", i), path.size());
        if (j > i) {
            k.assign(path, i, j - i);
            if (node->is_array() && all_digits(k)) {
                std::size_t idx = k.size() > 9 ? SIZE_MAX : std::stoul(k);  // no overflow
                if (idx >= node->size()) throw std::out_of_range("scenario path " + path);
                node = &(*node)[idx];
            } else {
                auto it = node->is_object() ? node->find(k) : node->end();
                if (it == node->end())
                    throw std::out_of_range("scenario path " + path + " is not in the schema");
                node = &*it;
            }
        }
        i = j + 1;
    }
    return *node;
}

double ScenarioView::number(const std::string& path) const { return at(path).get<double>(); }
std::int64_t ScenarioView::integer(const std::string& path) const {
    return at(path).get<std::int64_t>();
}
bool ScenarioView::boolean(const std::string& path) const { return at(path).get<bool>(); }
std::string ScenarioView::text(const std::string& path) const {
    return at(path).get<std::string>();
}
bool ScenarioView::has(const std::string& path) const {
    try {
        at(path);
        return true;
    } catch (const std::out_of_range&) {
        return false;
    }
}

std::size_t ScenarioView::count(const std::string& array_path) const {
    const json& j = doc_->contains(array_path) ? (*doc_)[array_path] : json::array();
    return j.is_array() ? j.size() : 0;
}

}  // namespace pcisim
