// SPDX-License-Identifier: GPL-2.0
// mrcctl plane: add, set, del, show.
#include "commands.hpp"
#include "output.hpp"

namespace mrcctl {

namespace {

const std::map<std::string, bool> kPlaneKeys = {
    {"dev", true}, {"ifindex", true}, {"saddr", true}, {"admin", true}};

mrc::Plane plane_from(Keywords &kw)
{
	mrc::Plane p;
	p.id = parse_uint(kw.positional("plane id"), "plane id", 0, UINT32_MAX);
	kw.parse(kPlaneKeys);
	if (auto v = kw.get("dev"))
		p.ifname = *v;
	if (auto v = kw.get("ifindex"))
		p.ifindex = parse_uint(*v, "ifindex", 0, UINT32_MAX);
	if (auto v = kw.get("saddr"))
		p.saddr = parse_in6(*v, "source address");
	if (auto v = kw.get("admin"))
		p.admin_up = parse_bool(*v, "admin state");
	return p;
}

nlohmann::json plane_json(const mrc::Plane &p)
{
	nlohmann::json j = {{"id", p.id},
			    {"ifindex", p.ifindex.value_or(0)},
			    {"dev", p.ifname.value_or("")},
			    {"saddr", p.saddr ? mrc::addr_str(*p.saddr) : ""},
			    {"admin", p.admin_up.value_or(false) ? "up" : "down"},
			    {"oper", p.oper_up ? "up" : "down"},
			    {"paths", p.nr_paths}};
	return j;
}

void show(Context &ctx, const std::vector<mrc::Plane> &planes)
{
	if (ctx.json) {
		nlohmann::json j = nlohmann::json::array();
		for (const auto &p : planes)
			j.push_back(plane_json(p));
		print_json(*ctx.out, j, ctx.pretty);
		return;
	}
	Table t({"id", "dev", "saddr", "admin", "oper", "paths"});
	for (const auto &p : planes)
		t.add(
		    {std::to_string(p.id),
		     p.ifname.value_or(p.ifindex && *p.ifindex ? std::to_string(*p.ifindex) : "-"),
		     p.saddr ? mrc::addr_str(*p.saddr) : "-",
		     p.admin_up.value_or(false) ? "up" : "down", p.oper_up ? "up" : "down",
		     std::to_string(p.nr_paths)});
	t.print(*ctx.out);
}

} // namespace

void add_plane_command(CLI::App &app, Context &ctx)
{
	auto *cmd = app.add_subcommand("plane", "planes: a local device and a source address");
	cmd->require_subcommand(0, 1);
	require_known_command(cmd, "add, set, del, show");
	add_words_command(*cmd, "add", "add a plane", "ID dev DEV saddr ADDR [admin up|down]",
			  [&ctx](Keywords &kw) {
				  mrc::Plane p = plane_from(kw);
				  if (!p.ifname && !p.ifindex)
					  throw UsageError(kw.cmd() + ": 'dev DEV' is required");
				  if (!p.saddr)
					  throw UsageError(kw.cmd() + ": 'saddr ADDR' is required");
				  ctx.nl().plane_add(p);
			  });
	add_words_command(*cmd, "set", "change a plane",
			  "ID [dev DEV] [saddr ADDR] [admin up|down]",
			  [&ctx](Keywords &kw) { ctx.nl().plane_set(plane_from(kw)); });
	add_words_command(*cmd, "del", "delete a plane and its paths", "ID", [&ctx](Keywords &kw) {
		auto id = parse_uint(kw.positional("plane id"), "plane id", 0, UINT32_MAX);
		kw.parse({});
		ctx.nl().plane_del(id);
	});
	auto show_fn = [&ctx](Keywords &kw) {
		auto id = kw.optional_positional({});
		kw.parse({});
		if (id)
			show(ctx, {ctx.nl().plane_get(parse_uint(*id, "plane id", 0, UINT32_MAX))});
		else
			show(ctx, ctx.nl().planes());
	};
	add_words_command(*cmd, "show", "show planes", "[ID]", show_fn);
	cmd->callback([cmd, &ctx]() {
		if (cmd->get_subcommands().empty()) {
			Keywords kw("plane show", {});
			show(ctx, ctx.nl().planes());
		}
	});
}

} // namespace mrcctl
