// SPDX-License-Identifier: GPL-2.0
// mrcctl path: add, set, del, show.
#include "commands.hpp"
#include "output.hpp"

#include <sstream>

namespace mrcctl {

namespace {

std::vector<in6_addr> parse_segs(const std::string &s)
{
	std::vector<in6_addr> v;
	std::stringstream ss(s);
	std::string item;
	while (std::getline(ss, item, ','))
		v.push_back(parse_in6(item, "segment"));
	if (v.empty())
		throw UsageError("invalid segment list '" + s + "': empty");
	return v;
}

std::string mode_data(const mrc::Path &p)
{
	switch (p.mode) {
	case mrc::FwdMode::Usid:
		return p.usid ? mrc::addr_str(*p.usid) : "-";
	case mrc::FwdMode::Srh: {
		std::string s;
		for (const auto &a : p.segs)
			s += (s.empty() ? "" : ",") + mrc::addr_str(a);
		return s;
	}
	default:
		return "entropy " + std::to_string(p.entropy.value_or(1));
	}
}

nlohmann::json path_json(const mrc::Path &p)
{
	nlohmann::json j = {{"id", p.id},
			    {"dst", mrc::addr_str(p.dst) + "/" + std::to_string(p.dst_len)},
			    {"plane", p.plane},
			    {"mode", mrc::to_string(p.mode)},
			    {"weight", p.weight.value_or(1)},
			    {"deny", p.deny.value_or(false)}};
	if (p.usid)
		j["usid"] = mrc::addr_str(*p.usid);
	if (p.mode == mrc::FwdMode::Srh) {
		j["segs"] = nlohmann::json::array();
		for (const auto &a : p.segs)
			j["segs"].push_back(mrc::addr_str(a));
	}
	if (p.entropy)
		j["entropy"] = *p.entropy;
	return j;
}

void show(Context &ctx, const std::vector<mrc::Path> &paths)
{
	if (ctx.json) {
		nlohmann::json j = nlohmann::json::array();
		for (const auto &p : paths)
			j.push_back(path_json(p));
		print_json(*ctx.out, j, ctx.pretty);
		return;
	}
	Table t({"id", "dst", "plane", "mode", "via", "weight", "state"});
	for (const auto &p : paths)
		t.add({std::to_string(p.id), mrc::addr_str(p.dst) + "/" + std::to_string(p.dst_len),
		       std::to_string(p.plane), mrc::to_string(p.mode), mode_data(p),
		       std::to_string(p.weight.value_or(1)),
		       p.deny.value_or(false) ? "deny" : "allow"});
	t.print(*ctx.out);
}

uint32_t path_id(Keywords &kw)
{
	return parse_uint(kw.positional("path id"), "path id", 0, UINT32_MAX);
}

} // namespace

void add_path_command(CLI::App &app, Context &ctx)
{
	auto *cmd = app.add_subcommand("path", "paths: ways through the fabric to a destination");
	cmd->require_subcommand(0, 1);
	require_known_command(cmd, "add, set, del, show");
	add_words_command(
	    *cmd, "add", "add a path",
	    "ID dst PREFIX plane N mode usid|srh|entropy [usid ADDR] [segs A,B,...] [entropy N] "
	    "[weight N] [deny]",
	    [&ctx](Keywords &kw) {
		    mrc::Path p;
		    p.id = path_id(kw);
		    kw.parse({{"dst", true},
			      {"plane", true},
			      {"mode", true},
			      {"usid", true},
			      {"segs", true},
			      {"entropy", true},
			      {"weight", true},
			      {"deny", false}});
		    for (const char *k : {"dst", "plane", "mode"})
			    if (!kw.get(k))
				    throw UsageError(kw.cmd() + ": '" + k + "' is required");
		    std::tie(p.dst, p.dst_len) = parse_prefix(*kw.get("dst"), "destination prefix");
		    p.plane = parse_uint(*kw.get("plane"), "plane id", 0, UINT32_MAX);
		    auto mode = mrc::parse_fwd_mode(*kw.get("mode"));
		    if (!mode)
			    throw UsageError("invalid mode '" + *kw.get("mode") +
					     "': expected usid, srh or entropy");
		    p.mode = *mode;
		    if (auto v = kw.get("usid"))
			    p.usid = parse_in6(*v, "uSID container");
		    if (auto v = kw.get("segs"))
			    p.segs = parse_segs(*v);
		    if (auto v = kw.get("entropy"))
			    p.entropy = parse_uint(*v, "entropy count", 0, UINT16_MAX);
		    if (auto v = kw.get("weight"))
			    p.weight = parse_uint(*v, "weight", 0, UINT8_MAX);
		    if (kw.flag("deny"))
			    p.deny = true;
		    ctx.nl().path_add(p);
	    });
	add_words_command(*cmd, "set", "change a path's weight or deny it",
			  "ID [weight N] [deny|allow]", [&ctx](Keywords &kw) {
				  mrc::PathUpdate u;
				  u.id = path_id(kw);
				  kw.parse({{"weight", true}, {"deny", false}, {"allow", false}});
				  if (kw.flag("deny") && kw.flag("allow"))
					  throw UsageError(
					      kw.cmd() + ": 'deny' and 'allow' exclude each other");
				  if (auto v = kw.get("weight"))
					  u.weight = parse_uint(*v, "weight", 0, UINT8_MAX);
				  if (kw.flag("deny"))
					  u.deny = true;
				  if (kw.flag("allow"))
					  u.deny = false;
				  ctx.nl().path_set(u);
			  });
	add_words_command(*cmd, "del", "delete a path", "ID", [&ctx](Keywords &kw) {
		auto id = path_id(kw);
		kw.parse({});
		ctx.nl().path_del(id);
	});
	add_words_command(*cmd, "show", "show paths", "[ID]", [&ctx](Keywords &kw) {
		auto id = kw.optional_positional({});
		kw.parse({});
		if (id)
			show(ctx, {ctx.nl().path_get(parse_uint(*id, "path id", 0, UINT32_MAX))});
		else
			show(ctx, ctx.nl().paths());
	});
	cmd->callback([cmd, &ctx]() {
		if (cmd->get_subcommands().empty())
			show(ctx, ctx.nl().paths());
	});
}

} // namespace mrcctl
