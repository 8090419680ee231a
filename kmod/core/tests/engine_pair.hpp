// SPDX-License-Identifier: GPL-2.0
// What the unit tests' two-engine fixtures (test_conn.cc, test_reverse.cc,
// test_txerr.cc) share: the parameters that make engine 0 and engine 1
// each other's peer. Each fixture adds its own paths and policy.
#ifndef MRC_TESTS_ENGINE_PAIR_HPP
#define MRC_TESTS_ENGINE_PAIR_HPP

extern "C" {
#include "mrc_conn.h"
}

// Defaults for side @s (0 or 1) of a connection between two engines:
// QPNs 0x100 and 0x200, initial PSNs 7 and 0xfffff0 (side 1's wraps
// soon), R_Keys 0xa and 0xb, the seed, and a handshake RTT of 100 us.
inline mrc_conn_params engine_pair_params(int s)
{
	mrc_conn_params p;

	mrc_conn_params_default(&p);
	p.local_qpn = s ? 0x200 : 0x100;
	p.peer_qpn = s ? 0x100 : 0x200;
	p.tx_init_psn = s ? 0xfffff0 : 7;
	p.rx_init_psn = s ? 7 : 0xfffff0;
	p.rx_r_key = s ? 0xb : 0xa;
	p.tx_r_key = s ? 0xa : 0xb;
	p.seed = s + 1;
	p.handshake_rtt_ns = 100000;
	return p;
}

#endif
