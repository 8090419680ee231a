// SPDX-License-Identifier: GPL-2.0
/*
 * Connection management helpers: parameter validation and negotiation.
 */
#include "mrc_cm.h"
#include "mrc_conn.h"

/**
 * mrc_cm_params_check() - are a peer's CM parameters acceptable?
 * @p: the parameters (decoded: the decoder already checked sock_type,
 *	mpr != 0, max_payload != 0 and the 24-bit PSN).
 *
 * Return: 0, or the CM_REJ reason (MRC_REJ_BAD_PARAMS).
 */
int mrc_cm_params_check(const struct mrc_cm_params *p)
{
	if (p->sock_type != MRC_CM_SOCK_STREAM &&
	    p->sock_type != MRC_CM_SOCK_SEQPACKET)
		return MRC_REJ_BAD_PARAMS;
	if (!p->mpr || !mrc_psn_valid(p->init_psn))
		return MRC_REJ_BAD_PARAMS;
	if (p->max_payload < MRC_CM_MIN_PAYLOAD)
		return MRC_REJ_BAD_PARAMS;
	if (p->rcv_window < MRC_CM_MIN_WINDOW)
		return MRC_REJ_BAD_PARAMS;
	return 0;
}

/**
 * mrc_cm_negotiate() - the connection parameters both sides agreed on.
 * @local: our parameters (as sent in our CM_REQ or CM_REP).
 * @remote: the peer's parameters (its CM_REP, or its CM_REQ).
 * @path_payload: largest payload our paths carry (0: no limit).
 * @out: connection parameters to complete; the wire-derived fields are
 *	set (PSNs, R_Keys, MPRs, max_payload, sock_type, caps, rcvbuf,
 *	peer_window), the local ones (QPNs, policy, cc, seed, buffers of
 *	the rings) are left alone.
 *
 * Both sides reach the same decisions from the same two parameter sets:
 * the payload is the smaller offer, the capabilities are the AND of
 * both, each side's MPR and window are its own.
 *
 * Return: 0, or the CM_REJ reason to send (MRC_REJ_SOCK_TYPE,
 * MRC_REJ_BAD_PARAMS); @out is then unchanged.
 */
int mrc_cm_negotiate(const struct mrc_cm_params *local,
		     const struct mrc_cm_params *remote, u32 path_payload,
		     struct mrc_conn_params *out)
{
	u32 payload;
	int rej;

	rej = mrc_cm_params_check(remote);
	if (rej)
		return rej;
	if (mrc_cm_params_check(local))
		return MRC_REJ_BAD_PARAMS;
	if (local->sock_type != remote->sock_type)
		return MRC_REJ_SOCK_TYPE;
	payload = local->max_payload < remote->max_payload ?
		  local->max_payload : remote->max_payload;
	if (path_payload && path_payload < payload)
		payload = path_payload;
	if (payload < MRC_CM_MIN_PAYLOAD)
		return MRC_REJ_BAD_PARAMS;

	out->sock_type = local->sock_type;
	out->tx_init_psn = local->init_psn;
	out->rx_init_psn = remote->init_psn;
	out->rx_r_key = local->r_key;
	out->tx_r_key = remote->r_key;
	out->rx_mpr = (u32)local->mpr * MRC_MPR_UNIT;
	out->tx_mpr = (u32)remote->mpr * MRC_MPR_UNIT;
	out->max_payload = payload;
	out->caps = local->caps & remote->caps;
	out->rcvbuf = local->rcv_window;
	out->peer_window = remote->rcv_window;
	return 0;
}

/**
 * mrc_cm_rej_errno() - the errno a connect() gets for a CM_REJ.
 * @reason: MRC_REJ_*.
 *
 * Return: a negative errno (-ECONNREFUSED for reasons with no better
 * match).
 */
int mrc_cm_rej_errno(u8 reason)
{
	switch (reason) {
	case MRC_REJ_BACKLOG_FULL:
	case MRC_REJ_NO_RESOURCES:
		return -ENOBUFS;
	case MRC_REJ_BAD_PARAMS:
	case MRC_REJ_BAD_VERSION:
		return -EPROTO;
	case MRC_REJ_SOCK_TYPE:
		return -EPROTOTYPE;
	default:
		return -ECONNREFUSED;
	}
}

/* A packet to QPN 1 (CM and RESET): zeroed, with its BTH. */
static void mrc_cm_qp_pkt(struct mrc_pkt *pkt, u8 type, u8 opcode)
{
	memset(pkt, 0, sizeof(*pkt));
	pkt->type = type;
	pkt->bth.opcode = opcode;
	pkt->bth.pkey = MRC_PKEY_DEFAULT;
	pkt->bth.dest_qpn = MRC_QPN_CM;
}

/**
 * mrc_cm_pkt() - fill a CM packet for mrc_pkt_encode().
 * @pkt: packet to fill (fully overwritten).
 * @opcode: MRC_OP_CM_REQ .. MRC_OP_CM_DREP.
 * @cm: the CM header and body.
 */
void mrc_cm_pkt(struct mrc_pkt *pkt, u8 opcode, const struct mrc_cm *cm)
{
	mrc_cm_qp_pkt(pkt, MRC_PKT_CM, opcode);
	pkt->u.cm = *cm;
}

/**
 * mrc_reset_pkt() - fill a RESET packet for mrc_pkt_encode().
 * @pkt: packet to fill (fully overwritten).
 * @r: the reset header.
 */
void mrc_reset_pkt(struct mrc_pkt *pkt, const struct mrc_reset *r)
{
	mrc_cm_qp_pkt(pkt, MRC_PKT_RESET, MRC_OP_RESET);
	pkt->u.reset = *r;
	pkt->u.reset.psn &= MRC_PSN_MASK;
}

/**
 * mrc_cm_reset_unknown() - the RESET that answers a data packet for a
 * connection this end does not know (it restarted, or closed and its own
 * RESET was lost), so that the sender fails at once with ECONNRESET
 * instead of retrying until its budget runs out.
 * @data: the received packet.
 * @pkt: filled in (fully overwritten) when an answer is due.
 *
 * The RESET echoes the packet's DestQP as its source QPN and its R_Key,
 * exactly what the sender checks (mrc_conn_rx_reset()): only someone who
 * sees the connection's packets could forge one, as for data.
 *
 * Return: true if @pkt was filled in: @data is a data packet that carries
 * an R_Key.
 */
bool mrc_cm_reset_unknown(const struct mrc_pkt *data, struct mrc_pkt *pkt)
{
	const struct mrc_reset r = {
		.reason = MRC_RESET_NO_CONN,
		.src_qpn = data->bth.dest_qpn,
		.r_key = data->u.data.r_key,
		.psn = data->bth.psn,
	};

	if (data->type != MRC_PKT_DATA || !data->u.data.r_key)
		return false;
	mrc_reset_pkt(pkt, &r);
	return true;
}
