/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC wire format: encode, decode and validate every packet MRC for Linux
 * sends or accepts. Documentation/wire-format.md pins every bit; this
 * header mirrors it. Packets are never cast to structs: decoding copies
 * each field out of the buffer into plain C structs, encoding writes them
 * back byte by byte. The payload of data packets is never copied: decode
 * returns its offset and length in the buffer.
 *
 * The buffer handed to the decoder is the UDP payload without the
 * optional ICRC trailer (the glue checks and strips it first).
 */
#ifndef _MRC_WIRE_H
#define _MRC_WIRE_H

#include "mrc_core_types.h"

/* Opcodes of MRC 1.0 (BTH byte 0). */
#define MRC_OP_WRITE_FIRST		0xc6
#define MRC_OP_WRITE_MIDDLE		0xc7
#define MRC_OP_WRITE_LAST		0xc8
#define MRC_OP_WRITE_LAST_IMM		0xc9
#define MRC_OP_WRITE_ONLY		0xca
#define MRC_OP_WRITE_ONLY_IMM		0xcb
#define MRC_OP_TRANSPORT_ACK		0xd1
#define MRC_OP_EP_REQUEST		0xd8
#define MRC_OP_EP_RESPONSE		0xd9
#define MRC_OP_SACK			0xdc
#define MRC_OP_NACK			0xdd
#define MRC_OP_PROBE			0xde
/* Extensions of MRC for Linux (opcodes MRC 1.0 leaves free). */
#define MRC_OP_CM_REQ			0xe0
#define MRC_OP_CM_REP			0xe1
#define MRC_OP_CM_RTU			0xe2
#define MRC_OP_CM_REJ			0xe3
#define MRC_OP_CM_DREQ			0xe4
#define MRC_OP_CM_DREP			0xe5
#define MRC_OP_RESET			0xe6

/* Header lengths in bytes. */
#define MRC_BTH_LEN			12
#define MRC_METH_LEN			4
#define MRC_TSETH_LEN			4
#define MRC_RETH_LEN			16
#define MRC_IMMDT_LEN			4
#define MRC_SETH_LEN			28
#define MRC_CC_STATE_LEN		8
#define MRC_CREDIT_EXT_LEN		16
#define MRC_NETH_LEN			20
#define MRC_PETH_LEN			16
#define MRC_PROBE_PAD_MAX		0xffff	/* u16 mrc_probe::pad_len */
#define MRC_ERTH_LEN			16
#define MRC_EETH_LEN			36
#define MRC_CMH_LEN			24
#define MRC_CM_PARAMS_LEN		20
#define MRC_CM_RTU_LEN			(2 * MRC_CM_PARAMS_LEN)
#define MRC_CM_REJ_LEN			4
#define MRC_RSTH_LEN			20
#define MRC_AETH_LEN			4
/** MRC_DATA_HDR_MAX - longest data packet header (TSETH and ImmDt). */
#define MRC_DATA_HDR_MAX		(MRC_BTH_LEN + MRC_METH_LEN + \
					 MRC_TSETH_LEN + MRC_RETH_LEN + \
					 MRC_IMMDT_LEN)
/**
 * MRC_PKT_HDR_MAX - longest header of any packet MRC for Linux sends: a
 * CM_RTU (76 bytes; a SACK with its credit extension has 64).
 */
#define MRC_PKT_HDR_MAX			(MRC_BTH_LEN + MRC_CMH_LEN + \
					 MRC_CM_RTU_LEN)

/* Reserved queue pair numbers (BTH DestQP). */
/** MRC_QPN_CM - connection management (CM_* and RESET), as IB's QP1. */
#define MRC_QPN_CM			1
/** MRC_QPN_ENDPOINT - connectionless endpoint operations (ERTH/EETH). */
#define MRC_QPN_ENDPOINT		2
/** MRC_QPN_FIRST_DYNAMIC - lowest QPN a connection may use. */
#define MRC_QPN_FIRST_DYNAMIC		16
/** MRC_QPN_MASK - QPNs are 24 bits. */
#define MRC_QPN_MASK			0xffffffU

/** MRC_PKEY_DEFAULT - BTH P_Key MRC for Linux sends (full member, default). */
#define MRC_PKEY_DEFAULT		0xffff

/* Versions of the extensions; a receiver rejects any other value. */
/**
 * MRC_CM_VERSION - version byte of the CM header (CMH). It also names the
 * wire generation of the whole connection: 2 carries the 32-bit EV split
 * between UDP source port and flow label, WRITE_FIRST/MIDDLE/LAST on
 * STREAM and the key in SACK, NACK and PROBE (wire-format.md section 15).
 */
#define MRC_CM_VERSION			2
/** MRC_CM_VERSION_V1 - the previous generation, refused with CM_REJ. */
#define MRC_CM_VERSION_V1		1
/*
 * MRC_CM_F_GONE - CMH flag of a CM_DREP sent statelessly: the sender has
 * no such connection (it ended it, or never had it). The only CMH flag;
 * any other, or this one on another message, is a reserved bit.
 */
#define MRC_CM_F_GONE			0x01
/** MRC_RESET_VERSION - version byte of the reset header (RSTH). */
#define MRC_RESET_VERSION		1
/** MRC_CREDIT_EXT_VERSION - version byte of the SACK credit extension. */
#define MRC_CREDIT_EXT_VERSION		1

/*
 * The 32-bit entropy value (EV) on the IPv6/UDP wire (pinned): the UDP
 * source port is 0xC000 | EV[13:0], always in 0xC000..0xFFFF like Linux
 * RoCE's, never a well-known port; the inner IPv6 flow label carries
 * EV[31:14] in its low 18 bits (its 2 high bits are sent 0 and ignored).
 * The receiver rebuilds the EV from both and reflects it whole.
 */
#define MRC_EV_SPORT_BASE		0xc000
#define MRC_EV_SPORT_BITS		14
#define MRC_EV_SPORT_MASK		0x3fffU
#define MRC_EV_FLOWLABEL_MASK		0x3ffffU

/* SETH byte 0, low nibble: which extension follows CC_STATE. */
#define MRC_SETH_NEXT_NONE		0
#define MRC_SETH_NEXT_CREDIT		1

/* NACK reasons (NETH byte 0), shared with the UET PDS. */
#define MRC_NACK_TRIMMED		0x01
#define MRC_NACK_TRIMMED_LASTHOP	0x02
#define MRC_NACK_NO_BITMAP		0x06
#define MRC_NACK_NO_PKT_BUFFER		0x07
#define MRC_NACK_NO_RESOURCE		0x0a
#define MRC_NACK_PSN_OOR_WINDOW		0x0b
#define MRC_NACK_UNEXP_EVENT		0x19

/* Endpoint operations (ERTH/EETH byte 0). */
#define MRC_EP_PORT_STATUS_UPDATE	0
#define MRC_EP_EV_PROBE			1

/* CM parameters: socket types. */
#define MRC_CM_SOCK_STREAM		0
#define MRC_CM_SOCK_SEQPACKET		1

/* CM parameters: capability bits (negotiated as the AND of both sides). */
#define MRC_CAP_TSETH			BIT(0)	/* sends and reflects TSETH */
#define MRC_CAP_TRIM_NACK		BIT(1)	/* NACKs trimmed packets */
#define MRC_CAP_ICRC			BIT(2)	/* appends the RoCEv2 ICRC */
#define MRC_CAP_CREDIT			BIT(3)	/* SACKs carry the credit ext */
#define MRC_CAP_PROBE_PAD		BIT(4)	/* takes padded probes */

/* CM_REJ reasons. */
#define MRC_REJ_NO_LISTENER		1
#define MRC_REJ_BACKLOG_FULL		2
#define MRC_REJ_BAD_PARAMS		3
#define MRC_REJ_NO_RESOURCES		4
#define MRC_REJ_BAD_VERSION		5
#define MRC_REJ_SOCK_TYPE		6
#define MRC_REJ_CONSUMER		7

/* RESET reasons. */
#define MRC_RESET_ABORT			0	/* the application aborted */
#define MRC_RESET_NO_CONN		1	/* packet for an unknown QPN */
#define MRC_RESET_PROTOCOL		2	/* the peer broke the protocol */
#define MRC_RESET_TIMEOUT		3	/* retries exhausted */

/**
 * enum mrc_wire_err - why a packet was rejected (or could not be encoded).
 * @MRC_WERR_OK: no error.
 * @MRC_WERR_TRUNCATED: the buffer ends inside a header.
 * @MRC_WERR_UNKNOWN_OPCODE: BTH opcode is not one MRC defines.
 * @MRC_WERR_UNSUPPORTED_OPCODE: a defined opcode this implementation does
 *	not accept (none since CM version 2, which decodes Transport ACK).
 * @MRC_WERR_BAD_TVER: BTH transport version is not 0.
 * @MRC_WERR_BAD_PAD: pad count set on a packet without payload, larger than
 *	the payload, or payload plus pad not a multiple of 4.
 * @MRC_WERR_RESERVED: a reserved bit or field is not zero.
 * @MRC_WERR_BAD_LENGTH: bytes left over after a fixed-length packet.
 * @MRC_WERR_PAYLOAD_LEN: the payload length disagrees with the opcode and
 *	the RETH DMA length.
 * @MRC_WERR_BAD_QPN: the DestQP does not suit the opcode (CM and RESET go
 *	to QPN 1, endpoint operations to QPN 2, the rest to QPN >= 16).
 * @MRC_WERR_BAD_EXT: the SETH names an unknown extension.
 * @MRC_WERR_BAD_EXT_VERSION: an extension header has an unknown version.
 * @MRC_WERR_BAD_FIELD: a field holds a value out of its range.
 * @MRC_WERR_NOSPC: (encode only) the output buffer is too small.
 * @__MRC_WERR_MAX: number of reasons.
 *
 * Functions return these negated. The names (mrc_wire_err_name()) are the
 * names of the receive drop counters; values are never renumbered.
 */
enum mrc_wire_err {
	MRC_WERR_OK,
	MRC_WERR_TRUNCATED,
	MRC_WERR_UNKNOWN_OPCODE,
	MRC_WERR_UNSUPPORTED_OPCODE,
	MRC_WERR_BAD_TVER,
	MRC_WERR_BAD_PAD,
	MRC_WERR_RESERVED,
	MRC_WERR_BAD_LENGTH,
	MRC_WERR_PAYLOAD_LEN,
	MRC_WERR_BAD_QPN,
	MRC_WERR_BAD_EXT,
	MRC_WERR_BAD_EXT_VERSION,
	MRC_WERR_BAD_FIELD,
	MRC_WERR_NOSPC,

	__MRC_WERR_MAX
};

/**
 * enum mrc_pkt_type - class of a packet, a function of its opcode.
 * @MRC_PKT_INVALID: not an opcode MRC for Linux accepts.
 * @MRC_PKT_DATA: RDMA WRITE data packet (0xC6..0xCB).
 * @MRC_PKT_SACK: RELIABILITY_SACK.
 * @MRC_PKT_NACK: RELIABILITY_NACK.
 * @MRC_PKT_PROBE: RELIABILITY_PROBE.
 * @MRC_PKT_EP_REQ: ENDPOINT_REQUEST.
 * @MRC_PKT_EP_RESP: ENDPOINT_RESPONSE.
 * @MRC_PKT_CM: one of CM_REQ .. CM_DREP (the opcode tells which).
 * @MRC_PKT_RESET: RESET.
 * @MRC_PKT_ACK: Transport ACK (AETH): decoded, then ignored.
 */
enum mrc_pkt_type {
	MRC_PKT_INVALID,
	MRC_PKT_DATA,
	MRC_PKT_SACK,
	MRC_PKT_NACK,
	MRC_PKT_PROBE,
	MRC_PKT_EP_REQ,
	MRC_PKT_EP_RESP,
	MRC_PKT_CM,
	MRC_PKT_RESET,
	MRC_PKT_ACK,
};

/**
 * enum mrc_sack_mark - the m field of the SETH: what to do with the path.
 * @MRC_MARK_NONE: nothing.
 * @MRC_MARK_SKIP_ONCE: the packet was ECN-marked: skip the path a while.
 * @MRC_MARK_ALWAYS_SKIP: stop using the path until probes succeed.
 */
enum mrc_sack_mark {
	MRC_MARK_NONE,
	MRC_MARK_SKIP_ONCE,
	MRC_MARK_ALWAYS_SKIP,
};

/**
 * struct mrc_bth - base transport header (12 bytes).
 * @opcode: packet opcode (MRC_OP_*).
 * @se: solicited event (data packets only).
 * @mig: IB MigReq (M): carried, ignored (MRC for Linux sends 0).
 * @pad_cnt: pad bytes after the payload; computed by the encoder.
 * @pkey: partition key; not checked by the decoder.
 * @fecn: forward congestion notification (byte 4 bit 7): carried, ignored
 *	(MRC's congestion signal is the IP ECN CE mark).
 * @becn: backward congestion notification (byte 4 bit 6): carried, ignored.
 * @dest_qpn: destination queue pair (24 bits).
 * @ack_req: ask for an immediate SACK (data packets only).
 * @rtx: this data packet is a retransmission.
 * @ts: a TSETH follows the METH.
 * @psn: packet sequence number (24 bits; zero on packets other than data
 *	and Transport ACK).
 */
struct mrc_bth {
	u8 opcode;
	bool se;
	bool mig;
	u8 pad_cnt;
	u16 pkey;
	bool fecn;
	bool becn;
	u32 dest_qpn;
	bool ack_req;
	bool rtx;
	bool ts;
	u32 psn;
};

/**
 * struct mrc_tseth - timestamp extension of a data packet (4 bytes).
 * @tx_ts: sender timestamp, reflected in the SACK.
 * @tsr: timestamp request.
 * @ftype: format type (4 bits).
 */
struct mrc_tseth {
	u16 tx_ts;
	bool tsr;
	u8 ftype;
};

/**
 * struct mrc_data - headers of a WRITE data packet.
 * @rqmsn: METH RQMSN: write-with-immediate sequence number.
 * @msn: METH MSN: message sequence number.
 * @tseth: timestamp extension, valid when bth.ts is set.
 * @va: RETH virtual address: byte offset of the payload in the
 *	receiver's stream.
 * @r_key: RETH R_Key: the receiver's per-connection key.
 * @dma_len: RETH DMA length: total length of the message in bytes.
 * @imm: immediate data, valid for the *_IMM opcodes.
 * @payload_off: (decode) offset of the payload in the buffer.
 * @payload_len: payload length without pad; the encoder needs it for the
 *	pad count and length checks.
 */
struct mrc_data {
	u16 rqmsn;
	u16 msn;
	struct mrc_tseth tseth;
	u64 va;
	u32 r_key;
	u32 dma_len;
	u32 imm;
	u32 payload_off;
	u32 payload_len;
};

/**
 * struct mrc_cc_state - congestion state that follows the SETH (8 bytes).
 * @tx_ts: TSETH timestamp of the triggering packet, reflected.
 * @ts_valid: @tx_ts holds a reflected timestamp.
 * @ooo_count: packets held out of order by the receiver (15 bits).
 * @restore_cwnd: the receiver asks to restore the window.
 * @rcv_cwnd_pen: receiver window penalty, 0..127.
 * @rcvd_bytes: bytes received, modulo 2^24.
 */
struct mrc_cc_state {
	u16 tx_ts;
	bool ts_valid;
	u16 ooo_count;
	bool restore_cwnd;
	u8 rcv_cwnd_pen;
	u32 rcvd_bytes;
};

/**
 * struct mrc_credit_ext - SACK extension of MRC for Linux (16 bytes).
 * @port_status: bit i set when port (plane) i of the SACK's sender is up.
 * @credit: absolute stream byte offset up to which the peer may send.
 */
struct mrc_credit_ext {
	u32 port_status;
	u64 credit;
};

/**
 * struct mrc_sack - RELIABILITY_SACK: SETH, CC_STATE, credit extension.
 * @mark: path verdict (enum mrc_sack_mark).
 * @probe_resp: this SACK answers a RELIABILITY_PROBE.
 * @ack_psn_offset: triggering PSN minus @cack_psn.
 * @entropy: EV of the triggering packet (32 bits), reflected.
 * @key: bytes 8-11 (UET spdcid, dpdcid): the key the SACK's recipient
 *	issued in the handshake (its R_Key); an extension of MRC for Linux.
 * @cack_psn: cumulative ack: the next PSN expected in order.
 * @cc_type: congestion control type (4 bits).
 * @cc_flags: congestion control flags (4 bits).
 * @mpr: receiver's MPR in units of 128 PSNs (0: unchanged).
 * @sack_offset: first PSN of @sack_bitmap minus @cack_psn.
 * @sack_bitmap: bit i (LSB = 0) set when PSN cack + sack_offset + i has
 *	arrived.
 * @cc: CC_STATE.
 * @has_credit: the credit extension is present.
 * @credit: the credit extension.
 */
struct mrc_sack {
	u8 mark;
	bool probe_resp;
	s16 ack_psn_offset;
	u32 entropy;
	u32 key;
	u32 cack_psn;
	u8 cc_type;
	u8 cc_flags;
	u8 mpr;
	s16 sack_offset;
	u64 sack_bitmap;
	struct mrc_cc_state cc;
	bool has_credit;
	struct mrc_credit_ext credit;
};

/**
 * struct mrc_nack - RELIABILITY_NACK (NETH, 20 bytes).
 * @reason: MRC_NACK_*.
 * @vendor: vendor specific reason detail.
 * @entropy: EV of the NACKed packet (32 bits), reflected.
 * @key: bytes 8-11 (UET spdcid, dpdcid): the key the NACK's recipient
 *	issued in the handshake (its R_Key); an extension of MRC for Linux.
 * @nack_psn: the PSN NACKed.
 * @cc_type: congestion control type (4 bits).
 * @tx_ts: TSETH timestamp of the NACKed packet, reflected (0 if none).
 */
struct mrc_nack {
	u8 reason;
	u8 vendor;
	u32 entropy;
	u32 key;
	u32 nack_psn;
	u8 cc_type;
	u16 tx_ts;
};

/**
 * struct mrc_probe - RELIABILITY_PROBE (PETH, 16 bytes): asks for a SACK.
 * @probe_id: sender's probe identifier, for matching.
 * @key: bytes 4-7: the key the probe's recipient issued in the handshake
 *	(its R_Key); an extension of MRC for Linux.
 * @tx_time: sender's clock at transmission (ns).
 * @pad_len: zero bytes after the PETH (with MRC_CAP_PROBE_PAD), so that a
 *	path probe is as large as the connection's data packets; written by
 *	the encoder, checked to be zero by the decoder.
 */
struct mrc_probe {
	u32 probe_id;
	u32 key;
	u64 tx_time;
	u16 pad_len;
};

/**
 * struct mrc_aeth - Transport ACK (0xD1): the RoCE ACK extended transport
 * header (4 bytes). MRC for Linux never sends it; it decodes it so that a
 * RoCE-style ACK is counted (InTransportAck) and ignored, not malformed.
 * @syndrome: ACK/NAK syndrome.
 * @msn: message sequence number (24 bits).
 */
struct mrc_aeth {
	u8 syndrome;
	u32 msn;
};

/**
 * struct mrc_ep_req - ENDPOINT_REQUEST (ERTH, 16 bytes), to QPN 2.
 * @op: MRC_EP_PORT_STATUS_UPDATE or MRC_EP_EV_PROBE.
 * @req_id: identifier echoed in the response.
 * @port_status: PORT_STATUS_UPDATE: bit i set when sender port i is up.
 * @tx_time: sender's clock at transmission (ns).
 */
struct mrc_ep_req {
	u8 op;
	u16 req_id;
	u32 port_status;
	u64 tx_time;
};

/**
 * struct mrc_ep_resp - ENDPOINT_RESPONSE (EETH, 36 bytes), to QPN 2.
 * @op: operation answered.
 * @status: 0 on success.
 * @req_id: the request's identifier.
 * @port_status: responder's port status bitmap.
 * @req_tx_time: the request's @tx_time, echoed.
 * @rx_time: responder's clock when the request arrived (ns).
 * @tx_time: responder's clock when the response left (ns); with @rx_time
 *	it gives the responder's service time.
 * @entropy: EV the request travelled on, reflected.
 */
struct mrc_ep_resp {
	u8 op;
	u8 status;
	u16 req_id;
	u32 port_status;
	u64 req_tx_time;
	u64 rx_time;
	u64 tx_time;
	u32 entropy;
};

/**
 * struct mrc_cm_params - connection parameters of CM_REQ, CM_REP, CM_RTU.
 * @sock_type: MRC_CM_SOCK_STREAM or MRC_CM_SOCK_SEQPACKET.
 * @mpr: receive tracking window in units of 128 PSNs (1..255).
 * @max_payload: largest payload per data packet (bytes, > 0).
 * @init_psn: first PSN the sender of these parameters will send.
 * @r_key: key the peer must put in every RETH it sends here.
 * @rcv_window: receive window in bytes.
 * @caps: MRC_CAP_* bits.
 */
struct mrc_cm_params {
	u8 sock_type;
	u8 mpr;
	u16 max_payload;
	u32 init_psn;
	u32 r_key;
	u32 rcv_window;
	u32 caps;
};

/**
 * struct mrc_cm - connection management message (CMH and its body).
 * @port: service port of the listener.
 * @client_port: the requester's port (its socket's local port), the same in
 *	every message of the connection; the listener's side reports it as
 *	the accepted socket's peer port.
 * @src_qpn: sender's QPN (0 if it has none, e.g. a stateless CM_REJ).
 * @dst_qpn: recipient's QPN (0 in CM_REQ).
 * @cookie: the requester's 64-bit random nonce, echoed in every message.
 * @params: CM_REQ and CM_REP: the sender's parameters; CM_RTU: the
 *	CM_REP's parameters, echoed.
 * @req_params: CM_RTU: the CM_REQ's parameters, echoed (a stateless
 *	listener rebuilds the connection from both sets).
 * @rej_reason: CM_REJ: MRC_REJ_*.
 * @version: CMH version byte; 0 encodes MRC_CM_VERSION. MRC_CM_VERSION_V1
 *	is taken in CM_REQ and CM_REJ only: the exchange that refuses an
 *	older peer with a CM_REJ BAD_VERSION it can read.
 * @flags: MRC_CM_F_*; only CM_DREP may carry one (MRC_CM_F_GONE).
 */
struct mrc_cm {
	u8 version;
	u8 flags;
	u16 port;
	u16 client_port;
	u32 src_qpn;
	u32 dst_qpn;
	u64 cookie;
	struct mrc_cm_params params;
	struct mrc_cm_params req_params;
	u8 rej_reason;
};

/**
 * struct mrc_reset - RESET (RSTH, 20 bytes): abortive close, to QPN 1.
 * @reason: MRC_RESET_*.
 * @src_qpn: the sender's QPN: the QPN the recipient sends to.
 * @dst_qpn: the recipient's QPN, 0 if unknown.
 * @r_key: the R_Key the sender issued, which the recipient puts in its
 *	RETHs; it proves the RESET comes from the peer or from the path.
 * @psn: PSN of the packet that provoked the reset, else 0.
 */
struct mrc_reset {
	u8 reason;
	u32 src_qpn;
	u32 dst_qpn;
	u32 r_key;
	u32 psn;
};

/**
 * struct mrc_pkt - a decoded packet, or one to encode.
 * @type: class of the packet; must match @bth.opcode.
 * @bth: base transport header.
 * @u: the headers after the BTH, by @type.
 * @u.data: MRC_PKT_DATA.
 * @u.sack: MRC_PKT_SACK.
 * @u.nack: MRC_PKT_NACK.
 * @u.probe: MRC_PKT_PROBE.
 * @u.ep_req: MRC_PKT_EP_REQ.
 * @u.ep_resp: MRC_PKT_EP_RESP.
 * @u.cm: MRC_PKT_CM.
 * @u.reset: MRC_PKT_RESET.
 * @u.ack: MRC_PKT_ACK.
 */
struct mrc_pkt {
	enum mrc_pkt_type type;
	struct mrc_bth bth;
	union {
		struct mrc_data data;
		struct mrc_sack sack;
		struct mrc_nack nack;
		struct mrc_probe probe;
		struct mrc_ep_req ep_req;
		struct mrc_ep_resp ep_resp;
		struct mrc_cm cm;
		struct mrc_reset reset;
		struct mrc_aeth ack;
	} u;
};

/**
 * mrc_op_is_data() - is @op a WRITE data opcode?
 * @op: BTH opcode.
 *
 * Return: true for 0xC6..0xCB.
 */
static inline bool mrc_op_is_data(u8 op)
{
	return op >= MRC_OP_WRITE_FIRST && op <= MRC_OP_WRITE_ONLY_IMM;
}

/**
 * mrc_op_has_imm() - does data opcode @op carry immediate data?
 * @op: BTH opcode.
 *
 * Return: true for WRITE_LAST_WITH_IMM and WRITE_ONLY_WITH_IMM.
 */
static inline bool mrc_op_has_imm(u8 op)
{
	return op == MRC_OP_WRITE_LAST_IMM || op == MRC_OP_WRITE_ONLY_IMM;
}

/**
 * mrc_op_is_msg_end() - does data opcode @op end a message?
 * @op: BTH opcode.
 *
 * Return: true for WRITE_LAST(_WITH_IMM) and WRITE_ONLY(_WITH_IMM).
 */
static inline bool mrc_op_is_msg_end(u8 op)
{
	return op >= MRC_OP_WRITE_LAST && op <= MRC_OP_WRITE_ONLY_IMM;
}

/**
 * mrc_pad_len() - pad bytes the sender appends after a payload.
 * @payload_len: payload length in bytes.
 *
 * Return: 0..3, so that payload plus pad is a multiple of 4.
 */
static inline u32 mrc_pad_len(u32 payload_len)
{
	return (0U - payload_len) & 3;
}

/**
 * mrc_ev_sport() - UDP source port that carries an EV.
 * @ev: the 32-bit entropy value.
 *
 * Return: 0xC000 | EV[13:0], never below 0xC000.
 */
static inline u16 mrc_ev_sport(u32 ev)
{
	return (u16)(MRC_EV_SPORT_BASE | (ev & MRC_EV_SPORT_MASK));
}

/**
 * mrc_ev_flowlabel() - IPv6 flow label that carries an EV.
 * @ev: the 32-bit entropy value.
 *
 * Return: EV[31:14] (18 bits, host order).
 */
static inline u32 mrc_ev_flowlabel(u32 ev)
{
	return ev >> MRC_EV_SPORT_BITS;
}

/**
 * mrc_ev_from_wire() - the EV a received packet carries.
 * @sport: its UDP source port (host order).
 * @flowlabel: its inner IPv6 flow label (host order, 20 bits).
 *
 * Return: the 32-bit EV; the 2 high bits of each field are ignored.
 */
static inline u32 mrc_ev_from_wire(u16 sport, u32 flowlabel)
{
	return ((flowlabel & MRC_EV_FLOWLABEL_MASK) << MRC_EV_SPORT_BITS) |
	       (sport & MRC_EV_SPORT_MASK);
}

enum mrc_pkt_type mrc_pkt_type_of(u8 opcode);
const char *mrc_wire_err_name(int err);
int mrc_pkt_hdr_len(u8 opcode, bool ts);
int mrc_pkt_decode(const u8 *buf, u32 len, struct mrc_pkt *out);
int mrc_pkt_decode_quote(const u8 *buf, u32 have, u32 len,
			 struct mrc_pkt *out);
u32 mrc_pkt_encoded_size(const struct mrc_pkt *pkt);
int mrc_pkt_encode(const struct mrc_pkt *pkt, u8 *buf, u32 cap);

#endif /* _MRC_WIRE_H */
