// Minimal RFC 4180 CSV: the sweep writes it, fit and the plot script read it.  Cells holding a
// comma, quote or line break are quoted, quotes doubled.
#pragma once

#include <istream>
#include <string>
#include <vector>

namespace pcisim::sweep {

using CsvRow = std::vector<std::string>;

std::string csv_line(const CsvRow& cells);  // without the trailing newline
// Every record of a CSV stream (quoted cells may span lines); throws std::runtime_error on an
// unterminated quote.
std::vector<CsvRow> read_csv(std::istream& in);

}  // namespace pcisim::sweep
