#include "config/param_spec.h"

namespace pcisim {

ParamSpec number(std::string path, std::string unit, double def, double min, double max,
                 std::string meaning) {
    return {std::move(path), ParamType::Number, std::move(unit), def, min, max, {},
            std::move(meaning), ""};
}

ParamSpec integer(std::string path, std::string unit, long long def, long long min,
                  long long max, std::string meaning) {
    return {std::move(path), ParamType::Integer, std::move(unit), def,
            static_cast<double>(min), static_cast<double>(max), {}, std::move(meaning), ""};
}

ParamSpec one_of_integers(std::string path, std::string unit, long long def,
                          std::vector<long long> allowed, std::string meaning) {
    std::vector<std::string> choices;
    for (long long a : allowed) choices.push_back(std::to_string(a));
    return {std::move(path), ParamType::Integer, std::move(unit), def, 1, 0, choices,
            std::move(meaning), ""};
}

ParamSpec boolean(std::string path, bool def, std::string meaning) {
    return {std::move(path), ParamType::Boolean, "", def, 1, 0, {}, std::move(meaning), ""};
}

ParamSpec text(std::string path, std::string def, std::string meaning) {
    return {std::move(path), ParamType::Text, "", def, 1, 0, {}, std::move(meaning), ""};
}

ParamSpec choice(std::string path, std::string def, std::vector<std::string> choices,
                 std::string meaning) {
    return {std::move(path), ParamType::Choice, "", def, 1, 0, std::move(choices),
            std::move(meaning), ""};
}

ParamSpec inherited(const ParamSpec& spec, std::string path, std::string meaning) {
    ParamSpec p = spec;
    p.inherits = spec.path;
    p.path = std::move(path);
    p.meaning = std::move(meaning);
    return p;
}

ParamSpec notes(std::string path, std::string meaning) {
    return {std::move(path), ParamType::Notes, "", nlohmann::json::object(), 1, 0, {},
            std::move(meaning), ""};
}

}  // namespace pcisim
