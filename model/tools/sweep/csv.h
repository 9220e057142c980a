// Minimal RFC 4180 CSV: the sweep writes it, fit and the plot script read it.  Cells holding a
// comma, quote or line break are quoted, quotes doubled.
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace pcisim::sweep {

using CsvRow = std::vector<std::string>;

std::string csv_line(const CsvRow& cells);  // without the trailing newline

// Reads a CSV stream one record at a time (quoted cells may span lines), so that memory holds
// one record, not the file.  Throws std::runtime_error on an unterminated quote and on a record
// longer than `max_record_bytes` (a file that is no CSV: /dev/zero has no line end).
class CsvReader {
public:
    explicit CsvReader(std::istream& in, std::size_t max_record_bytes = std::size_t(1) << 24);
    // The next record into `row`; false at the end of the stream.
    bool next(CsvRow& row);
    // The line the last record returned began on (1 for the first).
    std::size_t line() const { return record_line_; }

private:
    std::istream& in_;
    std::size_t max_record_bytes_;
    std::size_t line_ = 1, record_line_ = 0;
};

// Every record of a CSV stream, as CsvReader reads them.
std::vector<CsvRow> read_csv(std::istream& in);

}  // namespace pcisim::sweep
