// SPDX-License-Identifier: GPL-2.0
/*
 * MRC wire format: decoding, validation and encoding.
 *
 * Decoding runs in two steps. The parser copies fields out of the buffer
 * and rejects what only the raw bytes can show (truncation, reserved bits,
 * transport version, pad, leftover bytes, extension versions). Then
 * mrc_pkt_check() validates the values, the same function the encoder
 * runs before writing: the encoder can never produce a packet the decoder
 * rejects, and every decoded packet re-encodes to the same bytes.
 */
#include "mrc_wire.h"
#include "mrc_psn.h"

static const char * const mrc_wire_err_names[__MRC_WERR_MAX] = {
	[MRC_WERR_OK]			= "ok",
	[MRC_WERR_TRUNCATED]		= "truncated",
	[MRC_WERR_UNKNOWN_OPCODE]	= "unknown_opcode",
	[MRC_WERR_UNSUPPORTED_OPCODE]	= "unsupported_opcode",
	[MRC_WERR_BAD_TVER]		= "bad_tver",
	[MRC_WERR_BAD_PAD]		= "bad_pad",
	[MRC_WERR_RESERVED]		= "reserved_bits",
	[MRC_WERR_BAD_LENGTH]		= "bad_length",
	[MRC_WERR_PAYLOAD_LEN]		= "payload_len_mismatch",
	[MRC_WERR_BAD_QPN]		= "bad_qpn",
	[MRC_WERR_BAD_EXT]		= "bad_ext",
	[MRC_WERR_BAD_EXT_VERSION]	= "bad_ext_version",
	[MRC_WERR_BAD_FIELD]		= "bad_field",
	[MRC_WERR_NOSPC]		= "no_space",
};

/* BTH byte 1 */
#define BTH_SE		0x80
#define BTH_MIG		0x40
#define BTH_PAD_SHIFT	4
#define BTH_PAD_MASK	0x30
#define BTH_TVER_MASK	0x0f
/* BTH byte 4 */
#define BTH_FECN	0x80
#define BTH_BECN	0x40
#define BTH_B4_RSVD	0x3f
/* BTH byte 8 */
#define BTH_ACKREQ	0x80
#define BTH_RTX		0x40
#define BTH_TS		0x20
#define BTH_FLAGS_RSVD	0x1f

/* SETH byte 0 and 1 */
#define SETH_RSVD0	0xf0
#define SETH_NEXT_MASK	0x0f
#define SETH_M_SHIFT	6
#define SETH_PR		0x20
#define SETH_RSVD1	0x1f
/* CC_STATE byte 4 */
#define CCS_TS_VALID	0x80
#define CCS_PEN_MASK	0x7f

#define MRC_SACK_BASE_LEN	(MRC_BTH_LEN + MRC_SETH_LEN + MRC_CC_STATE_LEN)
#define MRC_CM_BASE_LEN		(MRC_BTH_LEN + MRC_CMH_LEN)

/**
 * mrc_wire_err_name() - counter name of a wire error.
 * @err: an enum mrc_wire_err value, negated or not.
 *
 * Return: a static string, "unknown" for values out of range.
 */
const char *mrc_wire_err_name(int err)
{
	if (err < 0)
		err = -err;
	if (err >= __MRC_WERR_MAX)
		return "unknown";
	return mrc_wire_err_names[err];
}

/**
 * mrc_pkt_type_of() - class of an opcode.
 * @opcode: BTH opcode.
 *
 * Return: the class, MRC_PKT_INVALID for opcodes that are not accepted.
 */
enum mrc_pkt_type mrc_pkt_type_of(u8 opcode)
{
	if (mrc_op_is_data(opcode))
		return MRC_PKT_DATA;
	switch (opcode) {
	case MRC_OP_SACK:
		return MRC_PKT_SACK;
	case MRC_OP_NACK:
		return MRC_PKT_NACK;
	case MRC_OP_PROBE:
		return MRC_PKT_PROBE;
	case MRC_OP_EP_REQUEST:
		return MRC_PKT_EP_REQ;
	case MRC_OP_EP_RESPONSE:
		return MRC_PKT_EP_RESP;
	case MRC_OP_CM_REQ:
	case MRC_OP_CM_REP:
	case MRC_OP_CM_RTU:
	case MRC_OP_CM_REJ:
	case MRC_OP_CM_DREQ:
	case MRC_OP_CM_DREP:
		return MRC_PKT_CM;
	case MRC_OP_RESET:
		return MRC_PKT_RESET;
	case MRC_OP_TRANSPORT_ACK:
		return MRC_PKT_ACK;
	default:
		return MRC_PKT_INVALID;
	}
}

static bool mrc_cm_has_params(u8 opcode)
{
	return opcode == MRC_OP_CM_REQ || opcode == MRC_OP_CM_REP ||
	       opcode == MRC_OP_CM_RTU;
}

static u32 mrc_cm_body_len(u8 opcode)
{
	if (opcode == MRC_OP_CM_RTU)
		return MRC_CM_RTU_LEN;
	if (mrc_cm_has_params(opcode))
		return MRC_CM_PARAMS_LEN;
	if (opcode == MRC_OP_CM_REJ)
		return MRC_CM_REJ_LEN;
	return 0;
}

/**
 * mrc_pkt_hdr_len() - length of the headers of a packet.
 * @opcode: BTH opcode.
 * @ts: data packets: a TSETH is present (BTH ts flag); ignored otherwise.
 *
 * For data packets this is where the payload starts. For the other
 * packets, which have no payload, it is the whole packet as MRC for Linux
 * sends it (SACKs with the credit extension).
 *
 * Return: length in bytes, or a negative enum mrc_wire_err.
 */
int mrc_pkt_hdr_len(u8 opcode, bool ts)
{
	switch (mrc_pkt_type_of(opcode)) {
	case MRC_PKT_DATA:
		return MRC_BTH_LEN + MRC_METH_LEN + (ts ? MRC_TSETH_LEN : 0) +
		       MRC_RETH_LEN + (mrc_op_has_imm(opcode) ? MRC_IMMDT_LEN : 0);
	case MRC_PKT_SACK:
		return MRC_SACK_BASE_LEN + MRC_CREDIT_EXT_LEN;
	case MRC_PKT_NACK:
		return MRC_BTH_LEN + MRC_NETH_LEN;
	case MRC_PKT_PROBE:
		return MRC_BTH_LEN + MRC_PETH_LEN;
	case MRC_PKT_EP_REQ:
		return MRC_BTH_LEN + MRC_ERTH_LEN;
	case MRC_PKT_EP_RESP:
		return MRC_BTH_LEN + MRC_EETH_LEN;
	case MRC_PKT_CM:
		return MRC_CM_BASE_LEN + mrc_cm_body_len(opcode);
	case MRC_PKT_RESET:
		return MRC_BTH_LEN + MRC_RSTH_LEN;
	case MRC_PKT_ACK:
		return MRC_BTH_LEN + MRC_AETH_LEN;
	default:
		return -MRC_WERR_UNKNOWN_OPCODE;
	}
}

/* Length of @pkt's headers as it will be encoded. */
static int mrc_pkt_encoded_len(const struct mrc_pkt *pkt)
{
	if (pkt->type == MRC_PKT_SACK && !pkt->u.sack.has_credit)
		return MRC_SACK_BASE_LEN;
	if (pkt->type == MRC_PKT_PROBE)
		return MRC_BTH_LEN + MRC_PETH_LEN + pkt->u.probe.pad_len;
	return mrc_pkt_hdr_len(pkt->bth.opcode, pkt->bth.ts);
}

/**
 * mrc_pkt_encoded_size() - bytes mrc_pkt_encode() writes for a packet
 * without payload (SACK, NACK, probe with its padding, CM...): the buffer
 * the caller must provide. For data packets, the headers only.
 * @pkt: the packet (type and opcode consistent).
 *
 * Return: the length in bytes, 0 for an unknown opcode.
 */
u32 mrc_pkt_encoded_size(const struct mrc_pkt *pkt)
{
	int len = mrc_pkt_encoded_len(pkt);

	return len < 0 ? 0 : (u32)len;
}

/* ---- validation of values, shared by decoder and encoder ---- */

static bool mrc_qpn_is_dynamic(u32 qpn)
{
	return qpn >= MRC_QPN_FIRST_DYNAMIC && qpn <= MRC_QPN_MASK;
}

static bool mrc_qpn_dynamic_or_zero(u32 qpn)
{
	return qpn == 0 || mrc_qpn_is_dynamic(qpn);
}

static int mrc_check_bth(const struct mrc_pkt *pkt)
{
	const struct mrc_bth *bth = &pkt->bth;

	switch (pkt->type) {
	case MRC_PKT_CM:
	case MRC_PKT_RESET:
		if (bth->dest_qpn != MRC_QPN_CM)
			return -MRC_WERR_BAD_QPN;
		break;
	case MRC_PKT_EP_REQ:
	case MRC_PKT_EP_RESP:
		if (bth->dest_qpn != MRC_QPN_ENDPOINT)
			return -MRC_WERR_BAD_QPN;
		break;
	default:
		if (!mrc_qpn_is_dynamic(bth->dest_qpn))
			return -MRC_WERR_BAD_QPN;
		break;
	}
	if (pkt->type == MRC_PKT_DATA)
		return mrc_psn_valid(bth->psn) ? 0 : -MRC_WERR_BAD_FIELD;
	/* Flags mean nothing outside data packets: must be zero. */
	if (bth->se || bth->ack_req || bth->rtx || bth->ts)
		return -MRC_WERR_RESERVED;
	/* A Transport ACK acknowledges its PSN; elsewhere the PSN is zero. */
	if (pkt->type == MRC_PKT_ACK)
		return mrc_psn_valid(bth->psn) ? 0 : -MRC_WERR_BAD_FIELD;
	return bth->psn ? -MRC_WERR_RESERVED : 0;
}

static int mrc_check_data(const struct mrc_pkt *pkt)
{
	const struct mrc_data *d = &pkt->u.data;
	u8 op = pkt->bth.opcode;

	if (pkt->bth.ts && d->tseth.ftype > 0xf)
		return -MRC_WERR_BAD_FIELD;
	if (op == MRC_OP_WRITE_ONLY || op == MRC_OP_WRITE_ONLY_IMM) {
		if (d->payload_len != d->dma_len)
			return -MRC_WERR_PAYLOAD_LEN;
	} else if (d->payload_len == 0 || d->payload_len >= d->dma_len) {
		/* a multi-packet message: each part is non-empty and partial */
		return -MRC_WERR_PAYLOAD_LEN;
	}
	if (d->va + d->payload_len < d->va)
		return -MRC_WERR_BAD_FIELD;
	return 0;
}

static int mrc_check_sack(const struct mrc_sack *s)
{
	if (s->mark > MRC_MARK_ALWAYS_SKIP || !mrc_psn_valid(s->cack_psn) ||
	    s->cc_type > 0xf || s->cc_flags > 0xf ||
	    s->cc.ooo_count > 0x7fff || s->cc.rcv_cwnd_pen > 0x7f ||
	    s->cc.rcvd_bytes > 0xffffff)
		return -MRC_WERR_BAD_FIELD;
	return 0;
}

static int mrc_check_cm_params(const struct mrc_cm_params *p)
{
	if (p->sock_type > MRC_CM_SOCK_SEQPACKET || !p->mpr ||
	    !p->max_payload || !mrc_psn_valid(p->init_psn))
		return -MRC_WERR_BAD_FIELD;
	return 0;
}

static int mrc_check_cm(const struct mrc_pkt *pkt)
{
	const struct mrc_cm *cm = &pkt->u.cm;
	const struct mrc_cm_params *p = &cm->params;
	u8 op = pkt->bth.opcode;

	if (cm->flags && (cm->flags != MRC_CM_F_GONE || op != MRC_OP_CM_DREP))
		return -MRC_WERR_RESERVED;
	/* the previous version: only its CM_REQ (to refuse it) and our REJ */
	if (cm->version == MRC_CM_VERSION_V1 && op != MRC_OP_CM_REQ &&
	    op != MRC_OP_CM_REJ)
		return -MRC_WERR_BAD_EXT_VERSION;
	switch (op) {
	case MRC_OP_CM_REQ:
		if (!mrc_qpn_is_dynamic(cm->src_qpn) || cm->dst_qpn)
			return -MRC_WERR_BAD_QPN;
		break;
	case MRC_OP_CM_REJ:
		/* a listener may refuse before it allocated a QPN */
		if (!mrc_qpn_dynamic_or_zero(cm->src_qpn) ||
		    !mrc_qpn_is_dynamic(cm->dst_qpn))
			return -MRC_WERR_BAD_QPN;
		if (!cm->rej_reason)
			return -MRC_WERR_BAD_FIELD;
		break;
	default:
		if (!mrc_qpn_is_dynamic(cm->src_qpn) ||
		    !mrc_qpn_is_dynamic(cm->dst_qpn))
			return -MRC_WERR_BAD_QPN;
		break;
	}
	if (!mrc_cm_has_params(op))
		return 0;
	if (op == MRC_OP_CM_RTU && mrc_check_cm_params(&cm->req_params))
		return -MRC_WERR_BAD_FIELD;
	return mrc_check_cm_params(p);
}

static int mrc_check_reset(const struct mrc_reset *r)
{
	if (!mrc_qpn_is_dynamic(r->src_qpn) ||
	    !mrc_qpn_dynamic_or_zero(r->dst_qpn))
		return -MRC_WERR_BAD_QPN;
	return mrc_psn_valid(r->psn) ? 0 : -MRC_WERR_BAD_FIELD;
}

static int mrc_pkt_check(const struct mrc_pkt *pkt)
{
	int err;

	if (pkt->type != mrc_pkt_type_of(pkt->bth.opcode))
		return -MRC_WERR_BAD_FIELD;
	err = mrc_check_bth(pkt);
	if (err)
		return err;

	switch (pkt->type) {
	case MRC_PKT_DATA:
		return mrc_check_data(pkt);
	case MRC_PKT_SACK:
		return mrc_check_sack(&pkt->u.sack);
	case MRC_PKT_NACK:
		if (!mrc_psn_valid(pkt->u.nack.nack_psn) ||
		    pkt->u.nack.cc_type > 0xf)
			return -MRC_WERR_BAD_FIELD;
		return 0;
	case MRC_PKT_EP_REQ:
		return pkt->u.ep_req.op > MRC_EP_EV_PROBE ?
		       -MRC_WERR_BAD_FIELD : 0;
	case MRC_PKT_EP_RESP:
		return pkt->u.ep_resp.op > MRC_EP_EV_PROBE ?
		       -MRC_WERR_BAD_FIELD : 0;
	case MRC_PKT_CM:
		return mrc_check_cm(pkt);
	case MRC_PKT_RESET:
		return mrc_check_reset(&pkt->u.reset);
	case MRC_PKT_ACK:
		return pkt->u.ack.msn > MRC_PSN_MASK ? -MRC_WERR_BAD_FIELD : 0;
	default:
		return 0;
	}
}

/* ---- decoding: raw bytes to fields ---- */

/* A 24-bit field behind a reserved byte (QPNs and PSNs of extensions). */
static int mrc_get_rsvd24(const u8 *p, u32 *out)
{
	if (p[0])
		return -MRC_WERR_RESERVED;
	*out = mrc_get_be24(p + 1);
	return 0;
}

static int mrc_parse_bth(const u8 *p, struct mrc_bth *bth)
{
	bth->opcode = p[0];
	if (p[1] & BTH_TVER_MASK)
		return -MRC_WERR_BAD_TVER;
	if ((p[4] & BTH_B4_RSVD) || (p[8] & BTH_FLAGS_RSVD))
		return -MRC_WERR_RESERVED;
	bth->se = p[1] & BTH_SE;
	bth->mig = p[1] & BTH_MIG;
	bth->fecn = p[4] & BTH_FECN;
	bth->becn = p[4] & BTH_BECN;
	bth->pad_cnt = (p[1] & BTH_PAD_MASK) >> BTH_PAD_SHIFT;
	bth->pkey = mrc_get_be16(p + 2);
	bth->dest_qpn = mrc_get_be24(p + 5);
	bth->ack_req = p[8] & BTH_ACKREQ;
	bth->rtx = p[8] & BTH_RTX;
	bth->ts = p[8] & BTH_TS;
	bth->psn = mrc_get_be24(p + 9);
	return 0;
}

static int mrc_parse_data(const u8 *buf, u32 len, struct mrc_pkt *pkt)
{
	struct mrc_data *d = &pkt->u.data;
	u32 hdr = mrc_pkt_hdr_len(pkt->bth.opcode, pkt->bth.ts);
	const u8 *p = buf + MRC_BTH_LEN;
	u32 rest;

	if (len < hdr)
		return -MRC_WERR_TRUNCATED;
	d->rqmsn = mrc_get_be16(p);
	d->msn = mrc_get_be16(p + 2);
	p += MRC_METH_LEN;
	if (pkt->bth.ts) {
		if ((p[2] & 0x7f) || (p[3] & 0xf0))
			return -MRC_WERR_RESERVED;
		d->tseth.tx_ts = mrc_get_be16(p);
		d->tseth.tsr = p[2] & 0x80;
		d->tseth.ftype = p[3] & 0x0f;
		p += MRC_TSETH_LEN;
	}
	d->va = mrc_get_be64(p);
	d->r_key = mrc_get_be32(p + 8);
	d->dma_len = mrc_get_be32(p + 12);
	p += MRC_RETH_LEN;
	if (mrc_op_has_imm(pkt->bth.opcode))
		d->imm = mrc_get_be32(p);

	/* RoCE rule: payload plus pad fill whole 4-byte words */
	rest = len - hdr;
	if ((rest & 3) || pkt->bth.pad_cnt > rest)
		return -MRC_WERR_BAD_PAD;
	d->payload_off = hdr;
	d->payload_len = rest - pkt->bth.pad_cnt;
	return 0;
}

static int mrc_parse_sack(const u8 *buf, u32 len, struct mrc_sack *s)
{
	const u8 *p = buf + MRC_BTH_LEN;
	const u8 *c = p + MRC_SETH_LEN;
	const u8 *x = c + MRC_CC_STATE_LEN;
	u32 want = MRC_SACK_BASE_LEN;

	if (len < MRC_SACK_BASE_LEN)
		return -MRC_WERR_TRUNCATED;
	if ((p[0] & SETH_RSVD0) || (p[1] & SETH_RSVD1) || p[12])
		return -MRC_WERR_RESERVED;
	switch (p[0] & SETH_NEXT_MASK) {
	case MRC_SETH_NEXT_NONE:
		break;
	case MRC_SETH_NEXT_CREDIT:
		want += MRC_CREDIT_EXT_LEN;
		s->has_credit = true;
		break;
	default:
		return -MRC_WERR_BAD_EXT;
	}
	if (len < want)
		return -MRC_WERR_TRUNCATED;
	if (len > want)
		return -MRC_WERR_BAD_LENGTH;

	s->mark = p[1] >> SETH_M_SHIFT;
	s->probe_resp = p[1] & SETH_PR;
	s->ack_psn_offset = (s16)mrc_get_be16(p + 2);
	s->entropy = mrc_get_be32(p + 4);
	s->key = mrc_get_be32(p + 8);
	s->cack_psn = mrc_get_be24(p + 13);
	s->cc_type = p[16] >> 4;
	s->cc_flags = p[16] & 0x0f;
	s->mpr = p[17];
	s->sack_offset = (s16)mrc_get_be16(p + 18);
	s->sack_bitmap = mrc_get_be64(p + 20);

	s->cc.tx_ts = mrc_get_be16(c);
	s->cc.ooo_count = mrc_get_be16(c + 2) >> 1;
	s->cc.restore_cwnd = c[3] & 1;
	s->cc.ts_valid = c[4] & CCS_TS_VALID;
	s->cc.rcv_cwnd_pen = c[4] & CCS_PEN_MASK;
	s->cc.rcvd_bytes = mrc_get_be24(c + 5);

	if (!s->has_credit)
		return 0;
	if (x[0] != MRC_CREDIT_EXT_VERSION)
		return -MRC_WERR_BAD_EXT_VERSION;
	if (x[1] || x[2] || x[3])
		return -MRC_WERR_RESERVED;
	s->credit.port_status = mrc_get_be32(x + 4);
	s->credit.credit = mrc_get_be64(x + 8);
	return 0;
}

static int mrc_parse_nack(const u8 *p, struct mrc_nack *n)
{
	if (p[2] || p[3] || (p[16] & 0x0f) || p[17])
		return -MRC_WERR_RESERVED;
	n->reason = p[0];
	n->vendor = p[1];
	n->entropy = mrc_get_be32(p + 4);
	n->key = mrc_get_be32(p + 8);
	n->cc_type = p[16] >> 4;
	n->tx_ts = mrc_get_be16(p + 18);
	return mrc_get_rsvd24(p + 12, &n->nack_psn);
}

static void mrc_parse_probe(const u8 *p, struct mrc_probe *pr)
{
	pr->probe_id = mrc_get_be32(p);
	pr->key = mrc_get_be32(p + 4);
	pr->tx_time = mrc_get_be64(p + 8);
}

/*
 * A probe: the PETH, then @len - 28 bytes of padding of which the first
 * @have - 28 are present (all of them, except in an ICMP quote); each
 * must be zero.
 */
static int mrc_parse_probe_padded(const u8 *buf, u32 have, u32 len,
				  struct mrc_probe *pr)
{
	u32 want = MRC_BTH_LEN + MRC_PETH_LEN, i;

	if (have < want || len < have)
		return -MRC_WERR_TRUNCATED;
	if (len - want > MRC_PROBE_PAD_MAX)
		return -MRC_WERR_BAD_LENGTH;
	for (i = want; i < have; i++)
		if (buf[i])
			return -MRC_WERR_RESERVED;
	mrc_parse_probe(buf + MRC_BTH_LEN, pr);
	pr->pad_len = (u16)(len - want);
	return 0;
}

static int mrc_parse_ep_req(const u8 *p, struct mrc_ep_req *r)
{
	if (p[1])
		return -MRC_WERR_RESERVED;
	r->op = p[0];
	r->req_id = mrc_get_be16(p + 2);
	r->port_status = mrc_get_be32(p + 4);
	r->tx_time = mrc_get_be64(p + 8);
	return 0;
}

static void mrc_parse_ep_resp(const u8 *p, struct mrc_ep_resp *r)
{
	r->op = p[0];
	r->status = p[1];
	r->req_id = mrc_get_be16(p + 2);
	r->port_status = mrc_get_be32(p + 4);
	r->req_tx_time = mrc_get_be64(p + 8);
	r->rx_time = mrc_get_be64(p + 16);
	r->tx_time = mrc_get_be64(p + 24);
	r->entropy = mrc_get_be32(p + 32);
}

static int mrc_get_cm_params(const u8 *b, struct mrc_cm_params *p)
{
	p->sock_type = b[0];
	p->mpr = b[1];
	p->max_payload = mrc_get_be16(b + 2);
	p->r_key = mrc_get_be32(b + 8);
	p->rcv_window = mrc_get_be32(b + 12);
	p->caps = mrc_get_be32(b + 16);
	return mrc_get_rsvd24(b + 4, &p->init_psn);
}

static int mrc_parse_cm(const u8 *buf, u32 len, struct mrc_pkt *pkt)
{
	const u8 *p = buf + MRC_BTH_LEN;
	const u8 *b = p + MRC_CMH_LEN;
	struct mrc_cm *cm = &pkt->u.cm;
	u32 want = MRC_CM_BASE_LEN + mrc_cm_body_len(pkt->bth.opcode);
	int err;

	if (len < MRC_CM_BASE_LEN)
		return -MRC_WERR_TRUNCATED;
	/* version first: a later version may have other lengths */
	if (p[0] != MRC_CM_VERSION &&
	    (p[0] != MRC_CM_VERSION_V1 || (pkt->bth.opcode != MRC_OP_CM_REQ &&
					   pkt->bth.opcode != MRC_OP_CM_REJ)))
		return -MRC_WERR_BAD_EXT_VERSION;
	cm->version = p[0];
	if (len < want)
		return -MRC_WERR_TRUNCATED;
	if (len > want)
		return -MRC_WERR_BAD_LENGTH;
	if (p[1] && (p[1] != MRC_CM_F_GONE ||
		     pkt->bth.opcode != MRC_OP_CM_DREP))
		return -MRC_WERR_RESERVED;
	cm->flags = p[1];
	cm->port = mrc_get_be16(p + 2);
	err = mrc_get_rsvd24(p + 4, &cm->src_qpn);
	if (!err)
		err = mrc_get_rsvd24(p + 8, &cm->dst_qpn);
	if (err)
		return err;
	cm->cookie = mrc_get_be64(p + 12);
	cm->client_port = mrc_get_be16(p + 20);
	if (p[22] || p[23])
		return -MRC_WERR_RESERVED;

	if (pkt->bth.opcode == MRC_OP_CM_REJ) {
		if (b[1] || b[2] || b[3])
			return -MRC_WERR_RESERVED;
		cm->rej_reason = b[0];
	} else if (mrc_cm_has_params(pkt->bth.opcode)) {
		err = mrc_get_cm_params(b, &cm->params);
		if (!err && pkt->bth.opcode == MRC_OP_CM_RTU)
			err = mrc_get_cm_params(b + MRC_CM_PARAMS_LEN,
						&cm->req_params);
		return err;
	}
	return 0;
}

static int mrc_parse_reset(const u8 *p, struct mrc_reset *r)
{
	int err;

	if (p[0] != MRC_RESET_VERSION)
		return -MRC_WERR_BAD_EXT_VERSION;
	if (p[2] || p[3])
		return -MRC_WERR_RESERVED;
	r->reason = p[1];
	r->r_key = mrc_get_be32(p + 12);
	err = mrc_get_rsvd24(p + 4, &r->src_qpn);
	if (!err)
		err = mrc_get_rsvd24(p + 8, &r->dst_qpn);
	if (!err)
		err = mrc_get_rsvd24(p + 16, &r->psn);
	return err;
}

/* Packets of fixed length: check it, then parse the header after the BTH. */
static int mrc_parse_fixed(const u8 *buf, u32 len, struct mrc_pkt *pkt)
{
	const u8 *p = buf + MRC_BTH_LEN;
	u32 want = mrc_pkt_hdr_len(pkt->bth.opcode, false);

	if (len < want)
		return -MRC_WERR_TRUNCATED;
	if (len > want)
		return -MRC_WERR_BAD_LENGTH;

	switch (pkt->type) {
	case MRC_PKT_NACK:
		return mrc_parse_nack(p, &pkt->u.nack);
	case MRC_PKT_ACK:
		pkt->u.ack.syndrome = p[0];
		pkt->u.ack.msn = mrc_get_be24(p + 1);
		return 0;
	case MRC_PKT_EP_REQ:
		return mrc_parse_ep_req(p, &pkt->u.ep_req);
	case MRC_PKT_EP_RESP:
		mrc_parse_ep_resp(p, &pkt->u.ep_resp);
		return 0;
	default:
		return mrc_parse_reset(p, &pkt->u.reset);
	}
}

/**
 * mrc_pkt_decode() - decode and validate one packet.
 * @buf: the UDP payload (without ICRC).
 * @len: its length in bytes.
 * @out: the decoded packet; zeroed first, meaningless on error.
 *
 * Never reads outside [@buf, @buf + @len). Data packets: the payload is
 * left in place, at @out->u.data.payload_off for payload_len bytes.
 *
 * Return: 0, or a negative enum mrc_wire_err naming the first problem.
 */
int mrc_pkt_decode(const u8 *buf, u32 len, struct mrc_pkt *out)
{
	int err;

	memset(out, 0, sizeof(*out));
	if (len < MRC_BTH_LEN)
		return -MRC_WERR_TRUNCATED;
	out->type = mrc_pkt_type_of(buf[0]);
	if (out->type == MRC_PKT_INVALID)
		return -MRC_WERR_UNKNOWN_OPCODE;
	err = mrc_parse_bth(buf, &out->bth);
	if (err)
		return err;
	if (out->type != MRC_PKT_DATA && out->bth.pad_cnt)
		return -MRC_WERR_BAD_PAD;

	switch (out->type) {
	case MRC_PKT_DATA:
		err = mrc_parse_data(buf, len, out);
		break;
	case MRC_PKT_SACK:
		err = mrc_parse_sack(buf, len, &out->u.sack);
		break;
	case MRC_PKT_CM:
		err = mrc_parse_cm(buf, len, out);
		break;
	case MRC_PKT_PROBE:
		err = mrc_parse_probe_padded(buf, len, len, &out->u.probe);
		break;
	default:
		err = mrc_parse_fixed(buf, len, out);
		break;
	}
	if (err)
		return err;
	return mrc_pkt_check(out);
}

/**
 * mrc_pkt_decode_quote() - decode the headers of a packet quoted by an
 * ICMPv6 error: a data packet or a probe of @len bytes of which only the
 * first @have are present.
 * @buf: the quoted UDP payload.
 * @have: bytes present at @buf.
 * @len: the packet's length when it was sent (from the quoted UDP header).
 * @out: the decoded packet; zeroed first, meaningless on error.
 *
 * Every field present is checked as mrc_pkt_decode() checks it (the
 * payload of a data packet is never read; a probe's padding is checked as
 * far as it is quoted), except that a data packet's payload length need
 * not agree with its DMA length: the quote of a burst sent as one
 * segmentation-offload packet and dropped whole carries the lengths of
 * all its packets (its payload_len is then 0). A quote of any other
 * packet must be whole.
 *
 * Return: 0, or a negative enum mrc_wire_err.
 */
int mrc_pkt_decode_quote(const u8 *buf, u32 have, u32 len,
			 struct mrc_pkt *out)
{
	int err, hdr;

	if (have >= len)
		return have == len ? mrc_pkt_decode(buf, len, out) :
				     -MRC_WERR_BAD_LENGTH;
	memset(out, 0, sizeof(*out));
	if (have < MRC_BTH_LEN)
		return -MRC_WERR_TRUNCATED;
	out->type = mrc_pkt_type_of(buf[0]);
	if (out->type != MRC_PKT_DATA && out->type != MRC_PKT_PROBE)
		return out->type == MRC_PKT_INVALID ?
		       -MRC_WERR_UNKNOWN_OPCODE : -MRC_WERR_TRUNCATED;
	err = mrc_parse_bth(buf, &out->bth);
	if (err)
		return err;
	if (out->type == MRC_PKT_PROBE) {
		if (out->bth.pad_cnt)
			return -MRC_WERR_BAD_PAD;
		err = mrc_parse_probe_padded(buf, have, len, &out->u.probe);
	} else {
		hdr = mrc_pkt_hdr_len(out->bth.opcode, out->bth.ts);
		if (hdr < 0 || have < (u32)hdr)
			return -MRC_WERR_TRUNCATED;
		/* reads the headers only, within @have */
		err = mrc_parse_data(buf, len, out);
	}
	if (err)
		return err;
	err = mrc_pkt_check(out);
	/*
	 * A burst forwarded whole (a segmentation-offload packet crossing a
	 * veth) is quoted with the lengths of all its packets: the payload
	 * length the first packet's header implies cannot be checked.
	 */
	if (err == -MRC_WERR_PAYLOAD_LEN && out->type == MRC_PKT_DATA) {
		out->u.data.payload_len = 0;
		return 0;
	}
	return err;
}

/* ---- encoding: fields to raw bytes (values already checked) ---- */

static void mrc_put_rsvd24(u8 *p, u32 v)
{
	p[0] = 0;
	mrc_put_be24(p + 1, v);
}

static void mrc_put_bth(u8 *p, const struct mrc_pkt *pkt)
{
	const struct mrc_bth *bth = &pkt->bth;
	u8 pad = 0;

	if (pkt->type == MRC_PKT_DATA)
		pad = mrc_pad_len(pkt->u.data.payload_len);
	p[0] = bth->opcode;
	p[1] = (bth->se ? BTH_SE : 0) | (bth->mig ? BTH_MIG : 0) |
	       (pad << BTH_PAD_SHIFT);
	mrc_put_be16(p + 2, bth->pkey);
	p[4] = (bth->fecn ? BTH_FECN : 0) | (bth->becn ? BTH_BECN : 0);
	mrc_put_be24(p + 5, bth->dest_qpn);
	p[8] = (bth->ack_req ? BTH_ACKREQ : 0) | (bth->rtx ? BTH_RTX : 0) |
	       (bth->ts ? BTH_TS : 0);
	mrc_put_be24(p + 9, bth->psn);
}

static void mrc_put_data(u8 *p, const struct mrc_pkt *pkt)
{
	const struct mrc_data *d = &pkt->u.data;

	mrc_put_be16(p, d->rqmsn);
	mrc_put_be16(p + 2, d->msn);
	p += MRC_METH_LEN;
	if (pkt->bth.ts) {
		mrc_put_be16(p, d->tseth.tx_ts);
		p[2] = d->tseth.tsr ? 0x80 : 0;
		p[3] = d->tseth.ftype;
		p += MRC_TSETH_LEN;
	}
	mrc_put_be64(p, d->va);
	mrc_put_be32(p + 8, d->r_key);
	mrc_put_be32(p + 12, d->dma_len);
	if (mrc_op_has_imm(pkt->bth.opcode))
		mrc_put_be32(p + MRC_RETH_LEN, d->imm);
}

static void mrc_put_sack(u8 *p, const struct mrc_sack *s)
{
	u8 *c = p + MRC_SETH_LEN;
	u8 *x = c + MRC_CC_STATE_LEN;

	p[0] = s->has_credit ? MRC_SETH_NEXT_CREDIT : MRC_SETH_NEXT_NONE;
	p[1] = (s->mark << SETH_M_SHIFT) | (s->probe_resp ? SETH_PR : 0);
	mrc_put_be16(p + 2, (u16)s->ack_psn_offset);
	mrc_put_be32(p + 4, s->entropy);
	mrc_put_be32(p + 8, s->key);
	mrc_put_rsvd24(p + 12, s->cack_psn);
	p[16] = (s->cc_type << 4) | s->cc_flags;
	p[17] = s->mpr;
	mrc_put_be16(p + 18, (u16)s->sack_offset);
	mrc_put_be64(p + 20, s->sack_bitmap);

	mrc_put_be16(c, s->cc.tx_ts);
	mrc_put_be16(c + 2, (s->cc.ooo_count << 1) | s->cc.restore_cwnd);
	c[4] = (s->cc.ts_valid ? CCS_TS_VALID : 0) | s->cc.rcv_cwnd_pen;
	mrc_put_be24(c + 5, s->cc.rcvd_bytes);

	if (!s->has_credit)
		return;
	x[0] = MRC_CREDIT_EXT_VERSION;
	x[1] = 0;
	mrc_put_be16(x + 2, 0);
	mrc_put_be32(x + 4, s->credit.port_status);
	mrc_put_be64(x + 8, s->credit.credit);
}

static void mrc_put_nack(u8 *p, const struct mrc_nack *n)
{
	p[0] = n->reason;
	p[1] = n->vendor;
	mrc_put_be16(p + 2, 0);
	mrc_put_be32(p + 4, n->entropy);
	mrc_put_be32(p + 8, n->key);
	mrc_put_rsvd24(p + 12, n->nack_psn);
	p[16] = n->cc_type << 4;
	p[17] = 0;
	mrc_put_be16(p + 18, n->tx_ts);
}

static void mrc_put_ep(u8 *p, const struct mrc_pkt *pkt)
{
	const struct mrc_ep_resp *r = &pkt->u.ep_resp;
	const struct mrc_ep_req *q = &pkt->u.ep_req;

	if (pkt->type == MRC_PKT_EP_REQ) {
		p[0] = q->op;
		p[1] = 0;
		mrc_put_be16(p + 2, q->req_id);
		mrc_put_be32(p + 4, q->port_status);
		mrc_put_be64(p + 8, q->tx_time);
		return;
	}
	p[0] = r->op;
	p[1] = r->status;
	mrc_put_be16(p + 2, r->req_id);
	mrc_put_be32(p + 4, r->port_status);
	mrc_put_be64(p + 8, r->req_tx_time);
	mrc_put_be64(p + 16, r->rx_time);
	mrc_put_be64(p + 24, r->tx_time);
	mrc_put_be32(p + 32, r->entropy);
}

static void mrc_put_cm_params(u8 *b, const struct mrc_cm_params *cp)
{
	b[0] = cp->sock_type;
	b[1] = cp->mpr;
	mrc_put_be16(b + 2, cp->max_payload);
	mrc_put_rsvd24(b + 4, cp->init_psn);
	mrc_put_be32(b + 8, cp->r_key);
	mrc_put_be32(b + 12, cp->rcv_window);
	mrc_put_be32(b + 16, cp->caps);
}

static void mrc_put_cm(u8 *p, const struct mrc_pkt *pkt)
{
	const struct mrc_cm *cm = &pkt->u.cm;
	u8 *b = p + MRC_CMH_LEN;

	p[0] = cm->version ? cm->version : MRC_CM_VERSION;
	p[1] = cm->flags;
	mrc_put_be16(p + 2, cm->port);
	mrc_put_rsvd24(p + 4, cm->src_qpn);
	mrc_put_rsvd24(p + 8, cm->dst_qpn);
	mrc_put_be64(p + 12, cm->cookie);
	mrc_put_be16(p + 20, cm->client_port);
	mrc_put_be16(p + 22, 0);
	if (pkt->bth.opcode == MRC_OP_CM_REJ) {
		b[0] = cm->rej_reason;
		mrc_put_be24(b + 1, 0);
	} else if (mrc_cm_has_params(pkt->bth.opcode)) {
		mrc_put_cm_params(b, &cm->params);
		if (pkt->bth.opcode == MRC_OP_CM_RTU)
			mrc_put_cm_params(b + MRC_CM_PARAMS_LEN,
					  &cm->req_params);
	}
}

static void mrc_put_reset(u8 *p, const struct mrc_reset *r)
{
	p[0] = MRC_RESET_VERSION;
	p[1] = r->reason;
	mrc_put_be16(p + 2, 0);
	mrc_put_rsvd24(p + 4, r->src_qpn);
	mrc_put_rsvd24(p + 8, r->dst_qpn);
	mrc_put_be32(p + 12, r->r_key);
	mrc_put_rsvd24(p + 16, r->psn);
}

/* Field widths the decoder enforces by masking; the encoder must check. */
static int mrc_check_widths(const struct mrc_pkt *pkt)
{
	const struct mrc_cm *cm = &pkt->u.cm;
	const struct mrc_reset *r = &pkt->u.reset;

	if (pkt->bth.dest_qpn > MRC_QPN_MASK)
		return -MRC_WERR_BAD_QPN;
	if (pkt->type == MRC_PKT_CM &&
	    (cm->src_qpn > MRC_QPN_MASK || cm->dst_qpn > MRC_QPN_MASK))
		return -MRC_WERR_BAD_QPN;
	if (pkt->type == MRC_PKT_RESET &&
	    (r->src_qpn > MRC_QPN_MASK || r->dst_qpn > MRC_QPN_MASK))
		return -MRC_WERR_BAD_QPN;
	if (pkt->type == MRC_PKT_CM && cm->version &&
	    cm->version != MRC_CM_VERSION && cm->version != MRC_CM_VERSION_V1)
		return -MRC_WERR_BAD_EXT_VERSION;
	return 0;
}

/**
 * mrc_pkt_encode() - write the headers of a packet.
 * @pkt: the packet; @pkt->type must match @pkt->bth.opcode. The BTH pad
 *	count is computed (from u.data.payload_len), payload_off is ignored.
 * @buf: output buffer.
 * @cap: its capacity in bytes.
 *
 * Writes nothing on error. For data packets only the headers are written:
 * the caller appends u.data.payload_len bytes of payload and then
 * mrc_pad_len(payload_len) zero bytes.
 *
 * Return: bytes written, or a negative enum mrc_wire_err.
 */
int mrc_pkt_encode(const struct mrc_pkt *pkt, u8 *buf, u32 cap)
{
	u8 *p = buf + MRC_BTH_LEN;
	int len, err;

	if (pkt->type == MRC_PKT_INVALID ||
	    mrc_pkt_type_of(pkt->bth.opcode) == MRC_PKT_INVALID)
		return -MRC_WERR_UNKNOWN_OPCODE;
	err = mrc_check_widths(pkt);
	if (!err)
		err = mrc_pkt_check(pkt);
	if (err)
		return err;
	len = mrc_pkt_encoded_len(pkt);
	if ((u32)len > cap)
		return -MRC_WERR_NOSPC;

	mrc_put_bth(buf, pkt);
	switch (pkt->type) {
	case MRC_PKT_DATA:
		mrc_put_data(p, pkt);
		break;
	case MRC_PKT_SACK:
		mrc_put_sack(p, &pkt->u.sack);
		break;
	case MRC_PKT_NACK:
		mrc_put_nack(p, &pkt->u.nack);
		break;
	case MRC_PKT_PROBE:
		mrc_put_be32(p, pkt->u.probe.probe_id);
		mrc_put_be32(p + 4, pkt->u.probe.key);
		mrc_put_be64(p + 8, pkt->u.probe.tx_time);
		memset(p + MRC_PETH_LEN, 0, pkt->u.probe.pad_len);
		break;
	case MRC_PKT_ACK:
		p[0] = pkt->u.ack.syndrome;
		mrc_put_be24(p + 1, pkt->u.ack.msn);
		break;
	case MRC_PKT_EP_REQ:
	case MRC_PKT_EP_RESP:
		mrc_put_ep(p, pkt);
		break;
	case MRC_PKT_CM:
		mrc_put_cm(p, pkt);
		break;
	default:
		mrc_put_reset(p, &pkt->u.reset);
		break;
	}
	return len;
}
