#include "tools/sweep/csv.h"

#include <iterator>
#include <stdexcept>

namespace pcisim::sweep {

namespace {

std::string quoted(const std::string& cell) {
    if (cell.find_first_of(",\"\r\n") == std::string::npos) return cell;
    std::string out = "\"";
    for (char c : cell) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

}  // namespace

std::string csv_line(const CsvRow& cells) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (i) line += ',';
        line += quoted(cells[i]);
    }
    return line;
}

std::vector<CsvRow> read_csv(std::istream& in) {
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<CsvRow> rows;
    CsvRow row;
    std::string cell;
    bool in_quotes = false;
    bool row_has_content = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (in_quotes) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                cell += '"';
                ++i;
            } else if (c == '"') {
                in_quotes = false;
            } else {
                cell += c;
            }
            continue;
        }
        if (c == '"') {
            in_quotes = true;
            row_has_content = true;
        } else if (c == ',') {
            row.push_back(cell);
            cell.clear();
            row_has_content = true;
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            if (row_has_content || !cell.empty()) {
                row.push_back(cell);
                rows.push_back(row);
            }
            row.clear();
            cell.clear();
            row_has_content = false;
        } else {
            cell += c;
            row_has_content = true;
        }
    }
    if (in_quotes) throw std::runtime_error("unterminated quoted cell at end of CSV");
    if (row_has_content || !cell.empty()) {
        row.push_back(cell);
        rows.push_back(row);
    }
    return rows;
}

}  // namespace pcisim::sweep
