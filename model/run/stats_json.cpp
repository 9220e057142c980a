#include "run/stats_json.h"

namespace pcisim {

using nlohmann::json;

json stat_json(const StatValue& v) {
    switch (v.kind()) {
    case StatValue::Kind::Null: return nullptr;
    case StatValue::Kind::Bool: return v.as_bool();
    case StatValue::Kind::Unsigned: return v.as_unsigned();
    case StatValue::Kind::Signed: return v.as_signed();
    case StatValue::Kind::Real: return v.as_real();
    case StatValue::Kind::Text: return v.as_text();
    }
    return nullptr;
}

// The member at a dotted key of the object being written, made on the way.
json& JsonStatSink::at(const std::string& key) {
    json* node = stack_.back();
    for (std::size_t start = 0;;) {
        std::size_t dot = key.find('.', start);
        node = &(*node)[key.substr(start, dot == std::string::npos ? std::string::npos : dot - start)];
        if (dot == std::string::npos) return *node;
        start = dot + 1;
    }
}

void JsonStatSink::value(const std::string& key, const StatValue& v) { at(key) = stat_json(v); }

void JsonStatSink::values(const std::string& key, const std::vector<StatValue>& v) {
    json list = json::array();
    for (const StatValue& x : v) list.push_back(stat_json(x));
    at(key) = std::move(list);
}

void JsonStatSink::begin_object(const std::string& key) {
    json& o = at(key);
    if (!o.is_object()) o = json::object();
    stack_.push_back(&o);
}

void JsonStatSink::begin_list(const std::string& key) {
    json& l = at(key);
    l = json::array();
    stack_.push_back(&l);
}

void JsonStatSink::begin_item() {
    json& list = *stack_.back();
    list.push_back(json::object());
    stack_.push_back(&list.back());
}

}  // namespace pcisim
