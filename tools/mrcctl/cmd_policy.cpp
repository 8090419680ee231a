// SPDX-License-Identifier: GPL-2.0
// mrcctl policy: add, set, del, show; and mrcctl settings.
#include "commands.hpp"
#include "output.hpp"

namespace mrcctl {

namespace {

const std::map<std::string, bool> kKnobs = {
    {"rto-min", true},
    {"rto-max", true},
    {"probe-interval", true},
    {"skip", true},
    {"retry-limit", true},
    {"fail-to-bad", true},
    {"success-to-good", true},
    {"min-active", true},
    {"max-paths", true},
    {"backups", true},
    {"sack-gap", true},
    {"ecn", true},
    {"keepalive", true},
    {"keepalive-idle", true},
    {"keepalive-interval", true},
    {"keepalive-count", true},
};

mrc::Policy policy_from(Keywords &kw)
{
	mrc::Policy p;
	p.name = kw.positional("policy name");
	kw.parse(kKnobs);
	auto dur = [&](const char *k, std::optional<uint64_t> &f) {
		if (auto v = kw.get(k))
			f = parse_duration(*v, k);
	};
	auto cnt = [&](const char *k, std::optional<uint32_t> &f) {
		if (auto v = kw.get(k))
			f = parse_uint(*v, k, 0, UINT32_MAX);
	};
	dur("rto-min", p.rto_min_ns);
	dur("rto-max", p.rto_max_ns);
	dur("probe-interval", p.probe_interval_ns);
	dur("skip", p.skip_ns);
	cnt("retry-limit", p.retry_limit);
	cnt("fail-to-bad", p.fail_to_bad);
	cnt("success-to-good", p.success_to_good);
	cnt("min-active", p.min_active);
	cnt("max-paths", p.max_paths);
	cnt("backups", p.backups);
	cnt("sack-gap", p.sack_gap);
	if (auto v = kw.get("ecn"))
		p.ecn_response = parse_bool(*v, "ecn");
	if (auto v = kw.get("keepalive"))
		p.keepalive = parse_bool(*v, "keepalive");
	dur("keepalive-idle", p.keepalive_idle_ns);
	dur("keepalive-interval", p.keepalive_interval_ns);
	cnt("keepalive-count", p.keepalive_count);
	return p;
}

std::string d(const std::optional<uint64_t> &v)
{
	return v ? format_duration(*v) : "-";
}

std::string n(const std::optional<uint32_t> &v)
{
	return v ? std::to_string(*v) : "-";
}

void show(Context &ctx, const std::vector<mrc::Policy> &ps)
{
	if (ctx.json) {
		nlohmann::json j = nlohmann::json::array();
		for (const auto &p : ps)
			j.push_back({{"name", p.name},
				     {"default", p.is_default},
				     {"rto_min_ns", p.rto_min_ns.value_or(0)},
				     {"rto_max_ns", p.rto_max_ns.value_or(0)},
				     {"probe_interval_ns", p.probe_interval_ns.value_or(0)},
				     {"skip_ns", p.skip_ns.value_or(0)},
				     {"retry_limit", p.retry_limit.value_or(0)},
				     {"fail_to_bad", p.fail_to_bad.value_or(0)},
				     {"success_to_good", p.success_to_good.value_or(0)},
				     {"min_active", p.min_active.value_or(0)},
				     {"max_paths", p.max_paths.value_or(0)},
				     {"backups", p.backups.value_or(0)},
				     {"sack_gap", p.sack_gap.value_or(0)},
				     {"ecn", p.ecn_response.value_or(false)},
				     {"keepalive", p.keepalive.value_or(false)},
				     {"keepalive_idle_ns", p.keepalive_idle_ns.value_or(0)},
				     {"keepalive_interval_ns", p.keepalive_interval_ns.value_or(0)},
				     {"keepalive_count", p.keepalive_count.value_or(0)}});
		print_json(*ctx.out, j, ctx.pretty);
		return;
	}
	Table t({"name", "rto-min", "rto-max", "retry", "probe", "skip", "bad", "good", "min-act",
		 "max-paths", "backups", "sack-gap", "ecn", "keepalive", "ka-idle", "ka-intvl",
		 "ka-cnt"});
	for (const auto &p : ps)
		t.add({p.name + (p.is_default ? "*" : ""), d(p.rto_min_ns), d(p.rto_max_ns),
		       n(p.retry_limit), d(p.probe_interval_ns), d(p.skip_ns), n(p.fail_to_bad),
		       n(p.success_to_good), n(p.min_active), n(p.max_paths), n(p.backups),
		       n(p.sack_gap), p.ecn_response.value_or(false) ? "on" : "off",
		       p.keepalive.value_or(false) ? "on" : "off", d(p.keepalive_idle_ns),
		       d(p.keepalive_interval_ns), n(p.keepalive_count)});
	t.print(*ctx.out);
}

} // namespace

void add_policy_command(CLI::App &app, Context &ctx)
{
	auto *cmd = app.add_subcommand("policy", "failure policies (named)");
	cmd->require_subcommand(0, 1);
	require_known_command(cmd, "add, set, del, show");
	const std::string knobs =
	    "NAME [rto-min T] [rto-max T] [probe-interval T] [skip T] [retry-limit N] "
	    "[fail-to-bad N] [success-to-good N] [min-active N] [max-paths N] [backups N] "
	    "[sack-gap N] [ecn on|off] [keepalive on|off] [keepalive-idle T] "
	    "[keepalive-interval T] [keepalive-count N]";
	add_words_command(*cmd, "add", "add a policy (unset knobs take the defaults)", knobs,
			  [&ctx](Keywords &kw) { ctx.nl().policy_add(policy_from(kw)); });
	add_words_command(*cmd, "set", "change knobs of a policy (its users follow)", knobs,
			  [&ctx](Keywords &kw) { ctx.nl().policy_set(policy_from(kw)); });
	add_words_command(*cmd, "del", "delete a policy", "NAME", [&ctx](Keywords &kw) {
		auto name = kw.positional("policy name");
		kw.parse({});
		ctx.nl().policy_del(name);
	});
	add_words_command(*cmd, "show", "show policies (* marks the default)", "[NAME]",
			  [&ctx](Keywords &kw) {
				  auto name = kw.optional_positional({});
				  kw.parse({});
				  if (name)
					  show(ctx, {ctx.nl().policy_get(*name)});
				  else
					  show(ctx, ctx.nl().policies());
			  });
	cmd->callback([cmd, &ctx]() {
		if (cmd->get_subcommands().empty())
			show(ctx, ctx.nl().policies());
	});
}

void add_settings_command(CLI::App &app, Context &ctx)
{
	auto *cmd = app.add_subcommand("settings", "namespace settings");
	cmd->require_subcommand(0, 1);
	require_known_command(cmd, "show, set");
	auto show = [&ctx]() {
		auto s = ctx.nl().settings();
		if (ctx.json) {
			print_json(*ctx.out,
				   {{"udp_port", s.udp_port.value_or(0)},
				    {"default_policy", s.default_policy.value_or("")},
				    {"max_ev_set", s.max_ev_set.value_or(0)}},
				   ctx.pretty);
			return;
		}
		Table t({"udp_port", "default_policy", "max_ev_set"});
		t.add({std::to_string(s.udp_port.value_or(0)), s.default_policy.value_or(""),
		       std::to_string(s.max_ev_set.value_or(0))});
		t.print(*ctx.out);
	};
	add_words_command(*cmd, "show", "show the settings", "", [show](Keywords &kw) {
		kw.parse({});
		show();
	});
	add_words_command(
	    *cmd, "set", "change settings", "[udp-port N] [default-policy NAME] [max-ev-set N]",
	    [&ctx](Keywords &kw) {
		    kw.parse({{"udp-port", true}, {"default-policy", true}, {"max-ev-set", true}});
		    mrc::Settings s;
		    if (auto v = kw.get("udp-port"))
			    s.udp_port = parse_uint(*v, "UDP port", 0, UINT16_MAX);
		    if (auto v = kw.get("default-policy"))
			    s.default_policy = *v;
		    if (auto v = kw.get("max-ev-set"))
			    s.max_ev_set = parse_uint(*v, "max EV set size", 0, UINT32_MAX);
		    if (!s.udp_port && !s.default_policy && !s.max_ev_set)
			    throw UsageError(kw.cmd() + ": nothing to set");
		    ctx.nl().settings_set(s);
	    });
	cmd->callback([cmd, show]() {
		if (cmd->get_subcommands().empty())
			show();
	});
}

} // namespace mrcctl
