#include "tools/output/json_text.h"

#include <cstdio>

#include "tools/output/output_file.h"

namespace pcisim::output {

using nlohmann::json;

namespace {

bool valid_utf8(const std::string& s) {
    try {
        static_cast<void>(json(s).dump());
        return true;
    } catch (const json::type_error&) {
        return false;
    }
}

// The string with every byte outside printable ASCII as \xNN, for the message.
std::string shown(const std::string& s) {
    std::string out;
    for (unsigned char c : s) {
        if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"') {
            out += static_cast<char>(c);
        } else {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02X", c);
            out += hex;
        }
    }
    return out;
}

std::optional<std::string> find_invalid(const json& node, const std::string& path) {
    auto problem = [&](const std::string& where, const std::string& s, const char* what) {
        return (where.empty() ? std::string("(top level)") : where) + ": the " + what + " \"" +
               shown(s) + "\" is not valid UTF-8";
    };
    if (node.is_string()) {
        const auto& s = node.get_ref<const std::string&>();
        if (!valid_utf8(s)) return problem(path, s, "string");
    } else if (node.is_object()) {
        for (auto it = node.begin(); it != node.end(); ++it) {
            std::string child = path.empty() ? it.key() : path + "." + it.key();
            if (!valid_utf8(it.key())) return problem(child, it.key(), "key");
            if (auto p = find_invalid(it.value(), child)) return p;
        }
    } else if (node.is_array()) {
        for (std::size_t i = 0; i < node.size(); ++i)
            if (auto p = find_invalid(node[i], path + "[" + std::to_string(i) + "]")) return p;
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> invalid_utf8(const json& doc) { return find_invalid(doc, ""); }

std::string json_text(const json& doc, int indent, const std::string& what) {
    if (auto problem = invalid_utf8(doc))
        throw OutputError("cannot write " + what + ": " + *problem +
                          "; expected UTF-8 text (JSON holds nothing else)");
    return doc.dump(indent);
}

}  // namespace pcisim::output
