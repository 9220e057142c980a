#include "tools/sweep/csv.h"

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

CsvReader::CsvReader(std::istream& in, std::size_t max_record_bytes)
    : in_(in), max_record_bytes_(max_record_bytes) {}

bool CsvReader::next(CsvRow& row) {
    row.clear();
    std::string cell;
    bool in_quotes = false, has_content = false;
    std::size_t bytes = 0;
    record_line_ = line_;
    for (int got; (got = in_.get()) != std::char_traits<char>::eof();) {
        const char c = static_cast<char>(got);
        if (++bytes > max_record_bytes_)
            throw std::runtime_error("line " + std::to_string(record_line_) + ": a record longer than " +
                                     std::to_string(max_record_bytes_) + " bytes; expected a CSV "
                                     "file as pcisim sweep writes it");
        if (c == '\n') ++line_;
        if (in_quotes) {
            if (c == '"' && in_.peek() == '"') {
                cell += '"';
                in_.get();
            } else if (c == '"') {
                in_quotes = false;
            } else {
                cell += c;
            }
            continue;
        }
        if (c == '"') {
            in_quotes = true;
            has_content = true;
        } else if (c == ',') {
            row.push_back(std::move(cell));
            cell.clear();
            has_content = true;
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && in_.peek() == '\n') {
                in_.get();
                ++line_;
            }
            if (has_content || !cell.empty()) {
                row.push_back(std::move(cell));
                return true;
            }
            record_line_ = line_;  // a blank line: the record begins on the next
            bytes = 0;
        } else {
            cell += c;
            has_content = true;
        }
    }
    if (in_quotes) throw std::runtime_error("unterminated quoted cell at end of CSV");
    if (has_content || !cell.empty()) {
        row.push_back(std::move(cell));
        return true;
    }
    return false;
}

std::vector<CsvRow> read_csv(std::istream& in) {
    std::vector<CsvRow> rows;
    CsvReader reader(in);
    for (CsvRow row; reader.next(row);) rows.push_back(row);
    return rows;
}

}  // namespace pcisim::sweep
