// SPDX-License-Identifier: GPL-2.0
// Every metric family of libmrc's renderer, filled with made-up figures
// (two namespaces, one unreadable), in the format the argument names:
// "prometheus" or "openmetrics". For promtool and the dashboard's check.
#include <cstring>
#include <iostream>

#include <arpa/inet.h>

#include <mrc/metrics.hpp>

namespace {

mrc::metrics::Snapshot sample(const std::string &netns)
{
	mrc::metrics::Snapshot s;
	s.netns = netns;
	for (uint32_t m = 1; m <= __MRC_MIB_MAX; m++) // one past the end: a newer module's
		s.stats.counters.emplace_back(m, 1000 + m);
	mrc::TtrHistogram h;
	h.buckets[3] = 2;
	h.buckets[10] = 5;
	h.buckets[MRC_TTR_BUCKETS - 1] = 1;
	h.sum_ns = 4300123456;
	s.stats.ttr = h;
	for (uint32_t id = 1; id <= 2; id++) {
		mrc::Plane p;
		p.id = id;
		p.ifname = "pl" + std::to_string(id);
		p.admin_up = true;
		p.oper_up = id == 1;
		p.nr_paths = 2;
		s.planes.push_back(p);
	}
	for (uint32_t id = 1; id <= 3; id++) {
		mrc::Conn c;
		c.id = id;
		inet_pton(AF_INET6, "fd00:a::1", &c.local_addr);
		inet_pton(AF_INET6, "fd00:b::1", &c.remote_addr);
		c.local_port = 5000;
		c.remote_port = static_cast<uint16_t>(40000 + id);
		c.state = MRC_CONN_ESTABLISHED;
		c.srtt_us = 250;
		c.rto_us = 10000;
		c.cwnd = 65536;
		c.paths_good = 3;
		c.paths_bad = 1;
		c.retx_rto = id;
		c.ttr_count = 2;
		c.ttr_max_ns = 1500000;
		c.bytes_sent = 1000000 * id;
		for (uint32_t ev = 0; ev < 4; ev++) {
			mrc::ConnPath p;
			p.ev = ev;
			p.plane = ev % 2 + 1;
			p.state = ev == 3 ? MRC_PATH_ASSUMED_BAD : MRC_PATH_GOOD;
			p.tx_pkts = 100;
			p.srtt_us = 200 + ev;
			c.paths.push_back(p);
		}
		s.conns.push_back(c);
	}
	return s;
}

} // namespace

int main(int argc, char **argv)
{
	if (argc != 2 ||
	    (std::strcmp(argv[1], "prometheus") && std::strcmp(argv[1], "openmetrics"))) {
		std::cerr << "usage: metrics_sample prometheus|openmetrics\n";
		return 2;
	}
	mrc::metrics::Options o;
	o.format = std::strcmp(argv[1], "openmetrics") ? mrc::metrics::Format::Prometheus
						       : mrc::metrics::Format::OpenMetrics;
	o.top_n = 2;
	mrc::metrics::Snapshot gone;
	gone.netns = "gone \"quoted\"";
	gone.error = "the mrc module is not loaded";
	std::cout << mrc::metrics::render({sample("host-a"), sample("host-b"), gone}, o);
	return 0;
}
