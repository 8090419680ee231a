// SPDX-License-Identifier: GPL-2.0
// mrcctl: human tables and JSON, the two faces of every show command.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace mrcctl {

/// A table printed with aligned columns, like `ip -br`.
class Table {
public:
	explicit Table(std::vector<std::string> header);
	void add(std::vector<std::string> row);
	void print(std::ostream &os) const;

private:
	std::vector<std::vector<std::string>> rows_;
};

/// Print @j compactly, or indented when @pretty.
void print_json(std::ostream &os, const nlohmann::json &j, bool pretty);

} // namespace mrcctl
