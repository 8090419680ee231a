// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the seed corpus of fuzz_decode: one valid packet of every type,
 * encoded by mrc_pkt_encode(), one file each in the directory given as
 * argv[1]. The committed corpus/decode/ was made by this program.
 */
#include <stdio.h>
#include <string.h>

#include "mrc_wire.h"

static int write_seed(const char *dir, const char *name,
		      const struct mrc_pkt *pkt)
{
	u8 buf[MRC_PKT_HDR_MAX + 64];
	char path[512];
	FILE *f;
	int n;

	n = mrc_pkt_encode(pkt, buf, sizeof(buf));
	if (n < 0) {
		fprintf(stderr, "%s: %s\n", name, mrc_wire_err_name(n));
		return 1;
	}
	if (pkt->type == MRC_PKT_DATA) {
		u32 len = pkt->u.data.payload_len;

		memset(buf + n, 0xab, len);
		memset(buf + n + len, 0, mrc_pad_len(len));
		n += len + mrc_pad_len(len);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, n, f) != (size_t)n) {
		perror(path);
		return 1;
	}
	return fclose(f) ? 1 : 0;
}

static void init(struct mrc_pkt *p, u8 op, u32 qpn)
{
	memset(p, 0, sizeof(*p));
	p->type = mrc_pkt_type_of(op);
	p->bth.opcode = op;
	p->bth.pkey = MRC_PKEY_DEFAULT;
	p->bth.dest_qpn = qpn;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	struct mrc_pkt p;
	char name[64];
	int err = 0;
	u8 op;

	for (op = MRC_OP_WRITE_FIRST; op <= MRC_OP_WRITE_ONLY_IMM; op++) {
		bool only = op >= MRC_OP_WRITE_ONLY;

		init(&p, op, 0x100);
		p.bth.psn = 0xfffffe;
		p.bth.ts = op & 1;
		p.bth.ack_req = true;
		p.u.data.va = 4096;
		p.u.data.r_key = 0x12345678;
		p.u.data.payload_len = 13;
		p.u.data.dma_len = only ? 13 : 64;
		snprintf(name, sizeof(name), "data_%02x", op);
		err |= write_seed(dir, name, &p);
	}

	init(&p, MRC_OP_SACK, 0x100);
	p.u.sack.cack_psn = 0xfffff0;
	p.u.sack.sack_offset = 2;
	p.u.sack.sack_bitmap = 0xf0f0;
	p.u.sack.ack_psn_offset = 5;
	p.u.sack.mark = MRC_MARK_SKIP_ONCE;
	p.u.sack.entropy = 0x89abc001;
	p.u.sack.key = 0x12345678;
	err |= write_seed(dir, "sack", &p);
	p.u.sack.has_credit = true;
	p.u.sack.credit.credit = 1 << 20;
	p.u.sack.credit.port_status = 0xf;
	err |= write_seed(dir, "sack_credit", &p);

	init(&p, MRC_OP_NACK, 0x100);
	p.u.nack.reason = MRC_NACK_TRIMMED;
	p.u.nack.nack_psn = 7;
	p.u.nack.entropy = 0x89abc001;
	p.u.nack.key = 0x12345678;
	err |= write_seed(dir, "nack", &p);

	init(&p, MRC_OP_PROBE, 0x100);
	p.u.probe.probe_id = 1;
	p.u.probe.key = 0x12345678;
	err |= write_seed(dir, "probe", &p);
	p.u.probe.pad_len = 40;		/* padded to a data packet's size */
	err |= write_seed(dir, "probe_padded", &p);

	init(&p, MRC_OP_TRANSPORT_ACK, 0x100);
	p.bth.psn = 0xfffffe;
	p.u.ack.msn = 3;
	err |= write_seed(dir, "transport_ack", &p);

	init(&p, MRC_OP_EP_REQUEST, MRC_QPN_ENDPOINT);
	p.u.ep_req.port_status = 0xe;
	err |= write_seed(dir, "ep_req", &p);
	init(&p, MRC_OP_EP_RESPONSE, MRC_QPN_ENDPOINT);
	p.u.ep_resp.op = MRC_EP_EV_PROBE;
	err |= write_seed(dir, "ep_resp", &p);

	for (op = MRC_OP_CM_REQ; op <= MRC_OP_CM_DREP; op++) {
		init(&p, op, MRC_QPN_CM);
		p.u.cm.port = 80;
		p.u.cm.src_qpn = 0x100;
		p.u.cm.dst_qpn = op == MRC_OP_CM_REQ ? 0 : 0x200;
		p.u.cm.cookie = 0x0102030405060708ULL;
		p.u.cm.params.mpr = 8;
		p.u.cm.params.max_payload = 1400;
		p.u.cm.params.rcv_window = 1 << 20;
		p.u.cm.req_params = p.u.cm.params;	/* CM_RTU: echoed */
		p.u.cm.rej_reason = MRC_REJ_NO_LISTENER;
		snprintf(name, sizeof(name), "cm_%02x", op);
		err |= write_seed(dir, name, &p);
	}
	/* the previous wire generation's CM_REQ, refused with a v1 CM_REJ */
	init(&p, MRC_OP_CM_REQ, MRC_QPN_CM);
	p.u.cm.version = MRC_CM_VERSION_V1;
	p.u.cm.src_qpn = 0x100;
	p.u.cm.params.mpr = 8;
	p.u.cm.params.max_payload = 1400;
	err |= write_seed(dir, "cm_e0_v1", &p);

	init(&p, MRC_OP_RESET, MRC_QPN_CM);
	p.u.reset.src_qpn = 0x100;
	p.u.reset.r_key = 0xfeedbeef;
	err |= write_seed(dir, "reset", &p);
	return err;
}
