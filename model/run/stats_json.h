// Declared statistics (core/stats.h) as JSON: how a run's results document is written.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/stats.h"

namespace pcisim {

nlohmann::json stat_json(const StatValue& v);

// Writes into a JSON object: dotted keys become nested objects.
class JsonStatSink : public StatSink {
public:
    explicit JsonStatSink(nlohmann::json& root) : stack_{&root} {}

    void value(const std::string& key, const StatValue& v) override;
    void values(const std::string& key, const std::vector<StatValue>& v) override;
    void begin_object(const std::string& key) override;
    void end_object() override { stack_.pop_back(); }
    void begin_list(const std::string& key) override;
    void begin_item() override;
    void end_item() override { stack_.pop_back(); }
    void end_list() override { stack_.pop_back(); }

private:
    nlohmann::json& at(const std::string& key);
    std::vector<nlohmann::json*> stack_;
};

// `group`'s statistics of `x` as a JSON object.
template <class T>
nlohmann::json stats_json(const StatGroup<T>& group, const T& x) {
    nlohmann::json out = nlohmann::json::object();
    JsonStatSink sink(out);
    group.write(x, sink);
    return out;
}

}  // namespace pcisim
