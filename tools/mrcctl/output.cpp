// SPDX-License-Identifier: GPL-2.0
#include "output.hpp"

#include <algorithm>
#include <iomanip>

namespace mrcctl {

Table::Table(std::vector<std::string> header)
{
	rows_.push_back(std::move(header));
}

void Table::add(std::vector<std::string> row)
{
	rows_.push_back(std::move(row));
}

void Table::print(std::ostream &os) const
{
	std::vector<size_t> width;
	for (const auto &r : rows_) {
		width.resize(std::max(width.size(), r.size()), 0);
		for (size_t i = 0; i < r.size(); i++)
			width[i] = std::max(width[i], r[i].size());
	}
	for (const auto &r : rows_) {
		std::string line;
		for (size_t i = 0; i < r.size(); i++) {
			line += r[i];
			if (i + 1 < r.size())
				line += std::string(width[i] - r[i].size() + 2, ' ');
		}
		os << line << '\n';
	}
}

void print_json(std::ostream &os, const nlohmann::json &j, bool pretty)
{
	os << (pretty ? j.dump(2) : j.dump()) << '\n';
}

} // namespace mrcctl
