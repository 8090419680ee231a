-- SPDX-License-Identifier: GPL-2.0
--
-- Wireshark/tshark dissector for MRC (Multipath Reliable Connection) as MRC
-- for Linux sends it: the BTH and every header behind it (METH, TSETH, RETH,
-- ImmDt, SETH + CC_STATE + credit extension, NETH, PETH, ERTH, EETH) and the
-- extensions of MRC for Linux (CM messages, RESET). The layouts and rules
-- are those of Documentation/wire-format.md; section numbers below refer to
-- it.
--
-- Besides decoding every field, the dissector runs the same checks, in the
-- same order, as the receiver's decoder (mrc_pkt_decode() in
-- kmod/core/mrc_wire.c) and shows its verdict: "mrc.verdict" is "ok" for a
-- packet an MRC receiver accepts, else the name of the drop reason
-- (truncated, reserved_bits, bad_pad, ...), and such a packet carries an
-- expert info of the Malformed group ("mrc.malformed"). A packet the capture
-- cut short (snaplen) gets "capture_truncated" and a note instead. The dissector never
-- reads past the captured bytes, so no input makes it raise a Lua error.
--
-- Install: copy to ~/.local/lib/wireshark/plugins/ (tools/wireshark/README.md).
-- It takes UDP port 4791 (the preference "mrc.udp_port" moves it) from the
-- built-in InfiniBand/RoCE dissector.

local mrc = Proto("mrc", "MRC (Multipath Reliable Connection)")

local DEFAULT_PORT = 4791

-- Bit operations on values below 2^32: bit32 (Lua 5.2, Wireshark 4.0), else
-- Wireshark's "bit" library, else plain arithmetic.
local band, rshift
if bit32 then
  band, rshift = bit32.band, bit32.rshift
elseif bit then
  band, rshift = bit.band, bit.rshift
else
  rshift = function(x, n) return math.floor(x / 2 ^ n) end
  band = function(a, b)
    local r, v = 0, 1
    while a > 0 and b > 0 do
      if a % 2 == 1 and b % 2 == 1 then r = r + v end
      a, b, v = math.floor(a / 2), math.floor(b / 2), v * 2
    end
    return r
  end
end

-- ---------------------------------------------------------------------------
-- Names (section 3 and the headers' tables)

local opcode_names = {
  [0xC6] = "WRITE_FIRST",
  [0xC7] = "WRITE_MIDDLE",
  [0xC8] = "WRITE_LAST",
  [0xC9] = "WRITE_LAST_WITH_IMM",
  [0xCA] = "WRITE_ONLY",
  [0xCB] = "WRITE_ONLY_WITH_IMM",
  [0xD1] = "Transport ACK (counted, ignored)",
  [0xD8] = "ENDPOINT_REQUEST",
  [0xD9] = "ENDPOINT_RESPONSE",
  [0xDC] = "RELIABILITY_SACK",
  [0xDD] = "RELIABILITY_NACK",
  [0xDE] = "RELIABILITY_PROBE",
  [0xE0] = "CM_REQ",
  [0xE1] = "CM_REP",
  [0xE2] = "CM_RTU",
  [0xE3] = "CM_REJ",
  [0xE4] = "CM_DREQ",
  [0xE5] = "CM_DREP",
  [0xE6] = "RESET",
  [0xE7] = "reserved for extensions",
}

local function pkt_type(op)
  if op >= 0xC6 and op <= 0xCB then return "data" end
  if op == 0xD8 then return "ep_req" end
  if op == 0xD9 then return "ep_resp" end
  if op == 0xDC then return "sack" end
  if op == 0xDD then return "nack" end
  if op == 0xDE then return "probe" end
  if op >= 0xE0 and op <= 0xE5 then return "cm" end
  if op == 0xE6 then return "reset" end
  if op == 0xD1 then return "ack" end
  return nil
end

local function has_imm(op) return op == 0xC9 or op == 0xCB end
local function is_only(op) return op == 0xCA or op == 0xCB end
local function cm_has_params(op) return op == 0xE0 or op == 0xE1 or op == 0xE2 end
local function cm_body_len(op)
  if op == 0xE2 then return 40 end  -- CM_RTU: the REP's and the REQ's parameters
  if cm_has_params(op) then return 20 end
  if op == 0xE3 then return 4 end
  return 0
end

local qpn_names = { [0] = "invalid", [1] = "connection management",
                    [2] = "endpoint operations" }
local seth_next_names = { [0] = "none", [1] = "credit extension" }
local mark_names = { [0] = "NONE", [1] = "SKIP_ONCE (ECN-marked)",
                     [2] = "ALWAYS_SKIP", [3] = "invalid" }
local cc_type_names = { [0] = "NSCC" }
local nack_reason_names = {
  [0x01] = "TRIMMED", [0x02] = "TRIMMED_LASTHOP", [0x06] = "NO_BITMAP",
  [0x07] = "NO_PKT_BUFFER", [0x0A] = "NO_RESOURCE",
  [0x0B] = "PSN_OOR_WINDOW", [0x19] = "UNEXP_EVENT",
}
local ep_op_names = { [0] = "PORT_STATUS_UPDATE", [1] = "EV_PROBE" }
local ep_status_names = { [0] = "success" }
local sock_type_names = { [0] = "SOCK_STREAM", [1] = "SOCK_SEQPACKET" }
local rej_reason_names = {
  [1] = "NO_LISTENER", [2] = "BACKLOG_FULL", [3] = "BAD_PARAMS",
  [4] = "NO_RESOURCES", [5] = "BAD_VERSION", [6] = "SOCK_TYPE",
  [7] = "CONSUMER",
}
local reset_reason_names = { [0] = "ABORT", [1] = "NO_CONN", [2] = "PROTOCOL",
                             [3] = "TIMEOUT" }

-- ---------------------------------------------------------------------------
-- Fields

local F = {}
local function field(key, pf) F[key] = pf end
local B = base

-- the packet as a whole
field("verdict", ProtoField.string("mrc.verdict", "Receiver verdict"))
field("rsvd", ProtoField.bytes("mrc.reserved", "Reserved"))
-- the 32-bit EV, rebuilt as the receiver does (section 2): UDP source port
-- bits 13..0, IPv6 flow label bits 17..0 above them
field("ev", ProtoField.uint32("mrc.ev", "Entropy value (EV: flow label << 14 | source port & 0x3FFF)", B.HEX))

-- BTH (5)
field("bth", ProtoField.none("mrc.bth", "Base Transport Header (BTH)"))
field("opcode", ProtoField.uint8("mrc.bth.opcode", "OpCode", B.HEX, opcode_names))
field("se", ProtoField.bool("mrc.bth.se", "Solicited event (S)", 8, nil, 0x80))
field("mig", ProtoField.bool("mrc.bth.m", "MigReq (M, ignored)", 8, nil, 0x40))
field("pad", ProtoField.uint8("mrc.bth.pad", "Pad count", B.DEC, nil, 0x30))
field("tver", ProtoField.uint8("mrc.bth.tver", "Transport version", B.DEC, nil, 0x0F))
field("pkey", ProtoField.uint16("mrc.bth.pkey", "P_Key", B.HEX))
field("fecn", ProtoField.bool("mrc.bth.fecn", "FECN (ignored)", 8, nil, 0x80))
field("becn", ProtoField.bool("mrc.bth.becn", "BECN (ignored)", 8, nil, 0x40))
field("bth_rsvd", ProtoField.uint8("mrc.bth.reserved", "Reserved", B.HEX, nil, 0x3F))
field("destqp", ProtoField.uint24("mrc.bth.destqp", "DestQP", B.DEC))
field("ackreq", ProtoField.bool("mrc.bth.ackreq", "AckReq (A)", 8, nil, 0x80))
field("rtx", ProtoField.bool("mrc.bth.rtx", "Retransmission (R)", 8, nil, 0x40))
field("ts", ProtoField.bool("mrc.bth.ts", "TSETH present (T)", 8, nil, 0x20))
field("flags_rsvd", ProtoField.uint8("mrc.bth.flags_reserved", "Reserved flags", B.HEX, nil, 0x1F))
field("psn", ProtoField.uint24("mrc.bth.psn", "PSN", B.DEC))

-- METH, TSETH, RETH, ImmDt, payload (6)
field("meth", ProtoField.none("mrc.meth", "Message Extended Transport Header (METH)"))
field("rqmsn", ProtoField.uint16("mrc.meth.rqmsn", "RQMSN", B.DEC))
field("msn", ProtoField.uint16("mrc.meth.msn", "MSN", B.DEC))
field("tseth", ProtoField.none("mrc.tseth", "Timestamp Extended Transport Header (TSETH)"))
field("tseth_ts", ProtoField.uint16("mrc.tseth.tx_timestamp", "tx_timestamp", B.DEC))
field("tseth_tsr", ProtoField.bool("mrc.tseth.tsr", "Timestamp request (Q)", 16, nil, 0x8000))
field("tseth_rsvd", ProtoField.uint16("mrc.tseth.reserved", "Reserved", B.HEX, nil, 0x7FF0))
field("tseth_ftype", ProtoField.uint16("mrc.tseth.ftype", "Format type", B.DEC, nil, 0x000F))
field("reth", ProtoField.none("mrc.reth", "RDMA Extended Transport Header (RETH)"))
field("va", ProtoField.uint64("mrc.reth.va", "Virtual address (stream offset)", B.DEC))
field("rkey", ProtoField.uint32("mrc.reth.rkey", "R_Key", B.HEX))
field("dmalen", ProtoField.uint32("mrc.reth.dmalen", "DMA length (message length)", B.DEC))
field("immdt", ProtoField.none("mrc.immdt", "Immediate Data Header (ImmDt)"))
field("imm", ProtoField.uint32("mrc.immdt.imm", "Immediate data", B.HEX))
field("payload", ProtoField.bytes("mrc.payload", "Payload"))
field("payload_len", ProtoField.uint32("mrc.payload_len", "Payload length", B.DEC))
field("padding", ProtoField.bytes("mrc.padding", "Pad bytes"))

-- SETH, CC_STATE, credit extension (7)
field("seth", ProtoField.none("mrc.seth", "SACK Extended Transport Header (SETH)"))
field("seth_rsvd0", ProtoField.uint8("mrc.seth.reserved0", "Reserved", B.HEX, nil, 0xF0))
field("seth_next", ProtoField.uint8("mrc.seth.next", "Next header", B.DEC, seth_next_names, 0x0F))
field("seth_m", ProtoField.uint8("mrc.seth.m", "Path verdict (m)", B.DEC, mark_names, 0xC0))
field("seth_pr", ProtoField.bool("mrc.seth.probe_resp", "Answers a probe (P)", 8, nil, 0x20))
field("seth_rsvd1", ProtoField.uint8("mrc.seth.reserved1", "Reserved", B.HEX, nil, 0x1F))
field("ack_psn_off", ProtoField.int16("mrc.seth.ack_psn_offset", "ack_psn_offset", B.DEC))
field("trigger_psn", ProtoField.uint24("mrc.seth.trigger_psn", "Trigger PSN (cack_psn + ack_psn_offset)", B.DEC))
field("seth_entropy", ProtoField.uint32("mrc.seth.entropy", "Entropy (EV, reflected)", B.HEX))
field("seth_key", ProtoField.uint32("mrc.seth.key", "Key (UET spdcid|dpdcid: the recipient's R_Key)", B.HEX))
field("cack_psn", ProtoField.uint24("mrc.seth.cack_psn", "cack_psn (next PSN expected)", B.DEC))
field("seth_cc_type", ProtoField.uint8("mrc.seth.cc_type", "cc_type", B.DEC, cc_type_names, 0xF0))
field("seth_cc_flags", ProtoField.uint8("mrc.seth.cc_flags", "cc_flags", B.HEX, nil, 0x0F))
field("seth_mpr", ProtoField.uint8("mrc.seth.mpr", "MPR (x128 PSNs, 0 = unchanged)", B.DEC))
field("sack_offset", ProtoField.int16("mrc.seth.sack_offset", "sack_offset", B.DEC))
field("sack_base", ProtoField.uint24("mrc.seth.sack_base_psn", "Bitmap base PSN (cack_psn + sack_offset)", B.DEC))
field("sack_bitmap", ProtoField.uint64("mrc.seth.sack_bitmap", "sack_bitmap", B.HEX))
field("sack_count", ProtoField.uint8("mrc.seth.sack_count", "PSNs marked received in the bitmap", B.DEC))
field("sack_psns", ProtoField.string("mrc.seth.sack_psns", "PSNs received"))
field("ccs", ProtoField.none("mrc.cc_state", "CC_STATE"))
field("ccs_ts", ProtoField.uint16("mrc.cc_state.tx_timestamp", "tx_timestamp (reflected)", B.DEC))
field("ccs_ooo", ProtoField.uint16("mrc.cc_state.ooo_count", "ooo_count", B.DEC, nil, 0xFFFE))
field("ccs_restore", ProtoField.bool("mrc.cc_state.restore_cwnd", "restore_cwnd (R)", 16, nil, 0x0001))
field("ccs_tsv", ProtoField.bool("mrc.cc_state.ts_valid", "Timestamp valid (V)", 8, nil, 0x80))
field("ccs_pen", ProtoField.uint8("mrc.cc_state.rcv_cwnd_pen", "rcv_cwnd_pen", B.DEC, nil, 0x7F))
field("ccs_rcvd", ProtoField.uint24("mrc.cc_state.rcvd_bytes", "rcvd_bytes (mod 2^24)", B.DEC))
field("credit", ProtoField.none("mrc.credit", "Credit extension"))
field("credit_ver", ProtoField.uint8("mrc.credit.version", "Version", B.DEC))
field("credit_flags", ProtoField.uint8("mrc.credit.flags", "Flags", B.HEX))
field("credit_port_status", ProtoField.uint32("mrc.credit.port_status", "port_status (planes up)", B.HEX))
field("credit_credit", ProtoField.uint64("mrc.credit.credit", "Credit (stream offset)", B.DEC))

-- NETH (8)
field("neth", ProtoField.none("mrc.neth", "NACK Extended Transport Header (NETH)"))
field("nack_reason", ProtoField.uint8("mrc.neth.reason", "Reason", B.HEX, nack_reason_names))
field("nack_vendor", ProtoField.uint8("mrc.neth.vendor", "Vendor detail", B.HEX))
field("nack_entropy", ProtoField.uint32("mrc.neth.entropy", "Entropy (EV, reflected)", B.HEX))
field("nack_key", ProtoField.uint32("mrc.neth.key", "Key (UET spdcid|dpdcid: the recipient's R_Key)", B.HEX))
field("nack_psn", ProtoField.uint24("mrc.neth.nack_psn", "nack_psn", B.DEC))
field("nack_cc_type", ProtoField.uint8("mrc.neth.cc_type", "cc_type", B.DEC, cc_type_names, 0xF0))
field("nack_rsvd4", ProtoField.uint8("mrc.neth.reserved4", "Reserved", B.HEX, nil, 0x0F))
field("nack_ts", ProtoField.uint16("mrc.neth.tx_timestamp", "tx_timestamp (reflected)", B.DEC))

-- PETH (9)
field("peth", ProtoField.none("mrc.peth", "Probe Extended Transport Header (PETH)"))
field("probe_id", ProtoField.uint32("mrc.peth.probe_id", "probe_id", B.DEC))
field("probe_key", ProtoField.uint32("mrc.peth.key", "Key (the recipient's R_Key)", B.HEX))
field("probe_time", ProtoField.uint64("mrc.peth.tx_time", "tx_time (ns)", B.DEC))
field("probe_pad", ProtoField.uint16("mrc.peth.pad_len", "Padding (bytes of zeros, to the data size)", B.DEC))

-- AETH of RoCE's Transport ACK (section 3)
field("aeth", ProtoField.none("mrc.aeth", "ACK Extended Transport Header (AETH)"))
field("aeth_syndrome", ProtoField.uint8("mrc.aeth.syndrome", "Syndrome", B.HEX))
field("aeth_msn", ProtoField.uint24("mrc.aeth.msn", "MSN", B.DEC))

-- ERTH, EETH (10)
field("erth", ProtoField.none("mrc.erth", "Endpoint Request Transport Header (ERTH)"))
field("eeth", ProtoField.none("mrc.eeth", "Endpoint Response Transport Header (EETH)"))
field("ep_op", ProtoField.uint8("mrc.ep.op", "Operation", B.DEC, ep_op_names))
field("ep_status", ProtoField.uint8("mrc.ep.status", "Status", B.DEC, ep_status_names))
field("ep_req_id", ProtoField.uint16("mrc.ep.req_id", "req_id", B.DEC))
field("ep_port_status", ProtoField.uint32("mrc.ep.port_status", "port_status (planes up)", B.HEX))
field("ep_tx_time", ProtoField.uint64("mrc.ep.tx_time", "tx_time (ns)", B.DEC))
field("ep_req_tx_time", ProtoField.uint64("mrc.ep.req_tx_time", "req_tx_time (ns, echoed)", B.DEC))
field("ep_rx_time", ProtoField.uint64("mrc.ep.rx_time", "rx_time (ns)", B.DEC))
field("ep_entropy", ProtoField.uint32("mrc.ep.entropy", "Entropy (EV, reflected)", B.HEX))

-- CMH, CM parameters, CM_REJ body (11)
field("cmh", ProtoField.none("mrc.cm", "Connection Management Header (CMH)"))
field("cm_ver", ProtoField.uint8("mrc.cm.version", "Version", B.DEC))
field("cm_flags", ProtoField.uint8("mrc.cm.flags", "Flags", B.HEX))
field("cm_port", ProtoField.uint16("mrc.cm.service_port", "Service port", B.DEC))
field("cm_src_qpn", ProtoField.uint24("mrc.cm.src_qpn", "src_qpn", B.DEC))
field("cm_dst_qpn", ProtoField.uint24("mrc.cm.dst_qpn", "dst_qpn", B.DEC))
field("cm_cookie", ProtoField.uint64("mrc.cm.cookie", "Cookie", B.HEX))
field("cm_client_port", ProtoField.uint16("mrc.cm.client_port", "Client port", B.DEC))
field("cmp", ProtoField.none("mrc.cm.params", "CM parameters"))
field("cmq", ProtoField.none("mrc.cm.req_params", "CM_REQ parameters (echoed)"))
field("cm_sock_type", ProtoField.uint8("mrc.cm.sock_type", "Socket type", B.DEC, sock_type_names))
field("cm_mpr", ProtoField.uint8("mrc.cm.mpr", "MPR (x128 PSNs)", B.DEC))
field("cm_max_payload", ProtoField.uint16("mrc.cm.max_payload", "max_payload", B.DEC))
field("cm_init_psn", ProtoField.uint24("mrc.cm.init_psn", "init_psn", B.DEC))
field("cm_rkey", ProtoField.uint32("mrc.cm.r_key", "r_key", B.HEX))
field("cm_rcv_window", ProtoField.uint32("mrc.cm.rcv_window", "rcv_window (bytes)", B.DEC))
field("cm_caps", ProtoField.uint32("mrc.cm.caps", "Capabilities", B.HEX))
field("cap_tseth", ProtoField.bool("mrc.cm.caps.tseth", "TSETH", 32, nil, 0x1))
field("cap_trim", ProtoField.bool("mrc.cm.caps.trim_nack", "TRIM_NACK", 32, nil, 0x2))
field("cap_icrc", ProtoField.bool("mrc.cm.caps.icrc", "ICRC", 32, nil, 0x4))
field("cap_credit", ProtoField.bool("mrc.cm.caps.credit", "CREDIT", 32, nil, 0x8))
-- the CM_REQ's parameters a CM_RTU echoes (mrc.cm.req.*)
field("cmq_sock_type", ProtoField.uint8("mrc.cm.req.sock_type", "Socket type", B.DEC, sock_type_names))
field("cmq_mpr", ProtoField.uint8("mrc.cm.req.mpr", "MPR (x128 PSNs)", B.DEC))
field("cmq_max_payload", ProtoField.uint16("mrc.cm.req.max_payload", "max_payload", B.DEC))
field("cmq_init_psn", ProtoField.uint24("mrc.cm.req.init_psn", "init_psn", B.DEC))
field("cmq_rkey", ProtoField.uint32("mrc.cm.req.r_key", "r_key", B.HEX))
field("cmq_rcv_window", ProtoField.uint32("mrc.cm.req.rcv_window", "rcv_window (bytes)", B.DEC))
field("cmq_caps", ProtoField.uint32("mrc.cm.req.caps", "Capabilities", B.HEX))
field("rej", ProtoField.none("mrc.cm.rej", "CM_REJ body"))
field("rej_reason", ProtoField.uint8("mrc.cm.rej_reason", "Reason", B.DEC, rej_reason_names))

-- RSTH (12)
field("rsth", ProtoField.none("mrc.reset", "Reset Header (RSTH)"))
field("rst_ver", ProtoField.uint8("mrc.reset.version", "Version", B.DEC))
field("rst_reason", ProtoField.uint8("mrc.reset.reason", "Reason", B.DEC, reset_reason_names))
field("rst_src_qpn", ProtoField.uint24("mrc.reset.src_qpn", "src_qpn", B.DEC))
field("rst_dst_qpn", ProtoField.uint24("mrc.reset.dst_qpn", "dst_qpn", B.DEC))
field("rst_rkey", ProtoField.uint32("mrc.reset.r_key", "r_key", B.HEX))
field("rst_psn", ProtoField.uint24("mrc.reset.psn", "psn", B.DEC))

local fieldlist = {}
for _, pf in pairs(F) do fieldlist[#fieldlist + 1] = pf end
mrc.fields = fieldlist

local ex_malformed = ProtoExpert.new("mrc.malformed", "Malformed MRC packet",
                                     expert.group.MALFORMED, expert.severity.ERROR)
local ex_nonzero = ProtoExpert.new("mrc.reserved_nonzero", "Reserved field not zero",
                                   expert.group.PROTOCOL, expert.severity.WARN)
local ex_short = ProtoExpert.new("mrc.capture_short",
  "Packet cut short by the capture (snaplen): no receiver verdict",
  expert.group.UNDECODED, expert.severity.NOTE)
mrc.experts = { ex_malformed, ex_nonzero, ex_short }

mrc.prefs.udp_port = Pref.uint("UDP port", DEFAULT_PORT,
  "UDP destination port of MRC (4791, the RoCEv2 port, by default)")

-- ---------------------------------------------------------------------------
-- The receiver's verdict: mrc_pkt_decode() step by step (section 13).
-- Pure function of the bytes; never reads past len.

local DYN = 16

-- the fields the EV is rebuilt from (section 2)
local f_udp_srcport = Field.new("udp.srcport")
local f_ipv6_flow = Field.new("ipv6.flow")

local function verdict(tvb)
  local len = tvb:len()
  local function b(o) return tvb(o, 1):uint() end
  local function be16(o) return tvb(o, 2):uint() end
  local function be24(o) return tvb(o, 3):uint() end
  local function be32(o) return tvb(o, 4):uint() end

  if len < 12 then return "truncated" end
  local op = b(0)
  local t = pkt_type(op)
  if not t then return "unknown_opcode" end
  if band(b(1), 0x0F) ~= 0 then return "bad_tver" end
  -- M (byte 1), FECN and BECN (byte 4) are taken and ignored
  if band(b(4), 0x3F) ~= 0 or band(b(8), 0x1F) ~= 0 then
    return "reserved_bits"
  end
  local pad = rshift(band(b(1), 0x30), 4)
  if t ~= "data" and pad ~= 0 then return "bad_pad" end
  local p = 12
  local destqp = be24(5)

  -- parse step
  local payload_len
  if t == "data" then
    local ts = band(b(8), 0x20) ~= 0
    local hdr = 12 + 4 + (ts and 4 or 0) + 16 + (has_imm(op) and 4 or 0)
    if len < hdr then return "truncated" end
    if ts and (band(b(18), 0x7F) ~= 0 or band(b(19), 0xF0) ~= 0) then
      return "reserved_bits"
    end
    local rest = len - hdr
    if rest % 4 ~= 0 or pad > rest then return "bad_pad" end
    payload_len = rest - pad
  elseif t == "sack" then
    if len < 48 then return "truncated" end
    if band(b(p), 0xF0) ~= 0 or band(b(p + 1), 0x1F) ~= 0 or b(p + 12) ~= 0 then
      return "reserved_bits"
    end
    local nxt = band(b(p), 0x0F)
    local want = 48
    if nxt == 1 then want = 64 elseif nxt ~= 0 then return "bad_ext" end
    if len < want then return "truncated" end
    if len > want then return "bad_length" end
    if nxt == 1 then
      if b(48) ~= 1 then return "bad_ext_version" end
      if b(49) ~= 0 or b(50) ~= 0 or b(51) ~= 0 then return "reserved_bits" end
    end
  elseif t == "cm" then
    if len < 36 then return "truncated" end
    -- version 2; version 1 (the previous wire) in CM_REQ and CM_REJ only
    if b(p) ~= 2 and (b(p) ~= 1 or (op ~= 0xE0 and op ~= 0xE3)) then
      return "bad_ext_version"
    end
    local want = 36 + cm_body_len(op)
    if len < want then return "truncated" end
    if len > want then return "bad_length" end
    -- flags: only GONE (0x01) on a CM_DREP sent statelessly
    local flags_ok = b(p + 1) == 0 or (b(p + 1) == 1 and op == 0xE5)
    if not flags_ok or b(p + 4) ~= 0 or b(p + 8) ~= 0 or
       b(p + 22) ~= 0 or b(p + 23) ~= 0 then
      return "reserved_bits"
    end
    if op == 0xE3 and (b(37) ~= 0 or b(38) ~= 0 or b(39) ~= 0) then
      return "reserved_bits"
    end
    if cm_has_params(op) and b(40) ~= 0 then return "reserved_bits" end
    if op == 0xE2 and b(60) ~= 0 then return "reserved_bits" end
  else
    local want = ({ nack = 32, probe = 28, ep_req = 28, ep_resp = 48,
                    reset = 32, ack = 16 })[t]
    if len < want then return "truncated" end
    -- a path probe may be padded with zeros to the size of a data packet
    if t == "probe" then
      if len - want > 0xFFFF then return "bad_length" end
      for i = want, len - 1 do
        if b(i) ~= 0 then return "reserved_bits" end
      end
    elseif len > want then
      return "bad_length"
    end
    if t == "nack" then
      if b(p + 2) ~= 0 or b(p + 3) ~= 0 or band(b(p + 16), 0x0F) ~= 0 or
         b(p + 17) ~= 0 or b(p + 12) ~= 0 then
        return "reserved_bits"
      end
    elseif t == "ep_req" then
      if b(p + 1) ~= 0 then return "reserved_bits" end
    elseif t == "reset" then
      if b(p) ~= 1 then return "bad_ext_version" end
      if b(p + 2) ~= 0 or b(p + 3) ~= 0 or b(p + 4) ~= 0 or b(p + 8) ~= 0 or
         b(p + 16) ~= 0 then
        return "reserved_bits"
      end
    end
  end

  -- value checks (mrc_pkt_check)
  if t == "cm" or t == "reset" then
    if destqp ~= 1 then return "bad_qpn" end
  elseif t == "ep_req" or t == "ep_resp" then
    if destqp ~= 2 then return "bad_qpn" end
  elseif destqp < DYN then
    return "bad_qpn"
  end
  if t ~= "data" then
    if band(b(1), 0x80) ~= 0 or band(b(8), 0xE0) ~= 0 then
      return "reserved_bits"
    end
    -- a Transport ACK acknowledges its PSN; elsewhere the PSN is zero
    if t ~= "ack" and be24(9) ~= 0 then return "reserved_bits" end
  end
  if t == "data" then
    local ts = band(b(8), 0x20) ~= 0
    local rethoff = 16 + (ts and 4 or 0)
    local dma = be32(rethoff + 12)
    if is_only(op) then
      if payload_len ~= dma then return "payload_len_mismatch" end
    elseif payload_len == 0 or payload_len >= dma then
      return "payload_len_mismatch"
    end
    local va = tvb(rethoff, 8):uint64()
    if va > UInt64.max() - payload_len then return "bad_field" end
  elseif t == "sack" then
    if rshift(b(p + 1), 6) == 3 then return "bad_field" end
  elseif t == "ep_req" or t == "ep_resp" then
    if b(p) > 1 then return "bad_field" end
  elseif t == "cm" then
    local src, dst = be24(p + 5), be24(p + 9)
    if op == 0xE0 then
      if src < DYN or dst ~= 0 then return "bad_qpn" end
    elseif op == 0xE3 then
      if (src ~= 0 and src < DYN) or dst < DYN then return "bad_qpn" end
      if b(36) == 0 then return "bad_field" end
    elseif src < DYN or dst < DYN then
      return "bad_qpn"
    end
    if cm_has_params(op) then
      if b(36) > 1 or b(37) == 0 or be16(38) == 0 then return "bad_field" end
    end
    if op == 0xE2 then
      if b(56) > 1 or b(57) == 0 or be16(58) == 0 then return "bad_field" end
    end
  elseif t == "reset" then
    local src, dst = be24(p + 5), be24(p + 9)
    if src < DYN or (dst ~= 0 and dst < DYN) then return "bad_qpn" end
  end
  return "ok"
end

-- ---------------------------------------------------------------------------
-- The tree: every field that the captured bytes hold, with its meaning.

-- Adds a header item of n bytes at off; marks it cut short when the packet
-- ends inside it. Returns the subtree and the bytes available.
local function header(ctx, key, off, n, label)
  local avail = ctx.len - off
  if avail <= 0 then
    local it = ctx.tree:add(F[key])
    it:append_text(" (missing: the packet ends before it)")
    return nil, 0
  end
  if avail < n then
    local it = ctx.tree:add(F[key], ctx.tvb(off, avail))
    it:append_text(string.format(" (truncated: %d of %d bytes)", avail, n))
    return it, avail
  end
  local it = ctx.tree:add(F[key], ctx.tvb(off, n))
  if label then it:append_text(label) end
  return it, n
end

-- Adds field key of n bytes at off (absolute) under tree if captured.
local function add(ctx, tree, key, off, n)
  if tree == nil or off + n > ctx.len then return nil end
  return tree:add(F[key], ctx.tvb(off, n))
end

-- Whole reserved bytes: shown, and flagged when not zero.
local function add_rsvd(ctx, tree, off, n)
  if tree == nil or off + n > ctx.len then return end
  local it = tree:add(F.rsvd, ctx.tvb(off, n))
  for i = 0, n - 1 do
    if ctx.tvb(off + i, 1):uint() ~= 0 then
      it:add_proto_expert_info(ex_nonzero)
      return
    end
  end
end

local function add_masked_rsvd(ctx, tree, key, off, n, mask)
  local it = add(ctx, tree, key, off, n)
  if it and band(ctx.tvb(off, n):uint(), mask) ~= 0 then
    it:add_proto_expert_info(ex_nonzero)
  end
end

local function psn_add(a, d) return (a + d) % 0x1000000 end

-- Renders the PSNs set in a 64-bit SACK bitmap as ranges "a-b, c".
local function bitmap_psns(basepsn, hi, lo)
  local out, first, prev = {}, nil, nil
  local function flush()
    if first == nil then return end
    if first == prev then out[#out + 1] = tostring(first)
    else out[#out + 1] = first .. "-" .. prev end
  end
  local count = 0
  for i = 0, 63 do
    local word, bitn = lo, i
    if i >= 32 then word, bitn = hi, i - 32 end
    if band(rshift(word, bitn), 1) == 1 then
      count = count + 1
      local psn = psn_add(basepsn, i)
      if first ~= nil and prev ~= nil and psn == psn_add(prev, 1) then
        prev = psn
      else
        flush()
        first, prev = psn, psn
      end
    end
  end
  flush()
  return count, table.concat(out, ", ")
end

local function dissect_bth(ctx)
  local st = header(ctx, "bth", 0, 12)
  add(ctx, st, "opcode", 0, 1)
  add(ctx, st, "se", 1, 1)
  add(ctx, st, "mig", 1, 1)
  add(ctx, st, "pad", 1, 1)
  add(ctx, st, "tver", 1, 1)
  add(ctx, st, "pkey", 2, 2)
  add(ctx, st, "fecn", 4, 1)
  add(ctx, st, "becn", 4, 1)
  add_masked_rsvd(ctx, st, "bth_rsvd", 4, 1, 0x3F)
  local it = add(ctx, st, "destqp", 5, 3)
  if it then
    local q = ctx.tvb(5, 3):uint()
    if qpn_names[q] then it:append_text(" (" .. qpn_names[q] .. ")")
    elseif q < DYN then it:append_text(" (reserved)") end
  end
  add(ctx, st, "ackreq", 8, 1)
  add(ctx, st, "rtx", 8, 1)
  add(ctx, st, "ts", 8, 1)
  add_masked_rsvd(ctx, st, "flags_rsvd", 8, 1, 0x1F)
  add(ctx, st, "psn", 9, 3)
end

local function dissect_data(ctx, op)
  local tvb = ctx.tvb
  local ts = band(tvb(8, 1):uint(), 0x20) ~= 0
  local pad = rshift(band(tvb(1, 1):uint(), 0x30), 4)
  local o = 12
  local st = header(ctx, "meth", o, 4)
  add(ctx, st, "rqmsn", o, 2)
  add(ctx, st, "msn", o + 2, 2)
  o = o + 4
  if ts then
    st = header(ctx, "tseth", o, 4)
    add(ctx, st, "tseth_ts", o, 2)
    add(ctx, st, "tseth_tsr", o + 2, 2)
    add_masked_rsvd(ctx, st, "tseth_rsvd", o + 2, 2, 0x7FF0)
    add(ctx, st, "tseth_ftype", o + 2, 2)
    o = o + 4
  end
  st = header(ctx, "reth", o, 16)
  add(ctx, st, "va", o, 8)
  add(ctx, st, "rkey", o + 8, 4)
  add(ctx, st, "dmalen", o + 12, 4)
  local dma = (o + 16 <= ctx.len) and tvb(o + 12, 4):uint() or nil
  local va = (o + 8 <= ctx.len) and tvb(o, 8):uint64() or nil
  o = o + 16
  if has_imm(op) then
    st = header(ctx, "immdt", o, 4)
    add(ctx, st, "imm", o, 4)
    o = o + 4
  end
  if ctx.len < 16 then return end
  ctx.info = ctx.info .. string.format(" MSN=%d", tvb(14, 2):uint())
  if o > ctx.len then return end
  local rest = ctx.len - o
  local plen = rest - pad
  if plen < 0 then plen = rest end
  local it = ctx.tree:add(F.payload_len, plen)
  it:set_generated()
  if plen > 0 then ctx.tree:add(F.payload, tvb(o, plen)) end
  if rest - plen > 0 then ctx.tree:add(F.padding, tvb(o + plen, rest - plen)) end
  local pos = ({ [0xC6] = "first", [0xC7] = "middle", [0xC8] = "last",
                 [0xC9] = "last", [0xCA] = "only", [0xCB] = "only" })[op]
  if va then ctx.info = ctx.info .. " VA=" .. tostring(va) end
  ctx.info = ctx.info .. string.format(" len=%d", plen)
  if dma then ctx.info = ctx.info .. string.format(" (%s part of %d)", pos, dma) end
end

local function dissect_sack(ctx)
  local tvb, p = ctx.tvb, 12
  local st = header(ctx, "seth", p, 28)
  add_masked_rsvd(ctx, st, "seth_rsvd0", p, 1, 0xF0)
  add(ctx, st, "seth_next", p, 1)
  add(ctx, st, "seth_m", p + 1, 1)
  add(ctx, st, "seth_pr", p + 1, 1)
  add_masked_rsvd(ctx, st, "seth_rsvd1", p + 1, 1, 0x1F)
  add(ctx, st, "ack_psn_off", p + 2, 2)
  add(ctx, st, "seth_entropy", p + 4, 4)
  add(ctx, st, "seth_key", p + 8, 4)
  add_rsvd(ctx, st, p + 12, 1)
  add(ctx, st, "cack_psn", p + 13, 3)
  add(ctx, st, "seth_cc_type", p + 16, 1)
  add(ctx, st, "seth_cc_flags", p + 16, 1)
  local it = add(ctx, st, "seth_mpr", p + 17, 1)
  if it then
    local m = tvb(p + 17, 1):uint()
    if m > 0 then it:append_text(string.format(" (%d PSNs)", m * 128)) end
  end
  add(ctx, st, "sack_offset", p + 18, 2)
  add(ctx, st, "sack_bitmap", p + 20, 8)
  if ctx.len >= p + 28 then
    local cack = tvb(p + 13, 3):uint()
    local apo = tvb(p + 2, 2):int()
    local so = tvb(p + 18, 2):int()
    local base_psn = psn_add(cack, so)
    st:add(F.trigger_psn, psn_add(cack, apo)):set_generated()
    st:add(F.sack_base, base_psn):set_generated()
    local count, list = bitmap_psns(base_psn, tvb(p + 20, 4):uint(), tvb(p + 24, 4):uint())
    st:add(F.sack_count, count):set_generated()
    if count > 0 then st:add(F.sack_psns, list):set_generated() end
    ctx.info = ctx.info .. string.format(" cack=%d trigger=%d", cack, psn_add(cack, apo))
  end
  p = p + 28
  st = header(ctx, "ccs", p, 8)
  add(ctx, st, "ccs_ts", p, 2)
  add(ctx, st, "ccs_ooo", p + 2, 2)
  add(ctx, st, "ccs_restore", p + 2, 2)
  add(ctx, st, "ccs_tsv", p + 4, 1)
  add(ctx, st, "ccs_pen", p + 4, 1)
  add(ctx, st, "ccs_rcvd", p + 5, 3)
  p = p + 8
  if (ctx.len > 12 and band(tvb(12, 1):uint(), 0x0F) == 1) or ctx.len > p then
    st = header(ctx, "credit", p, 16)
    add(ctx, st, "credit_ver", p, 1)
    add(ctx, st, "credit_flags", p + 1, 1)
    add_rsvd(ctx, st, p + 2, 2)
    add(ctx, st, "credit_port_status", p + 4, 4)
    add(ctx, st, "credit_credit", p + 8, 8)
    if ctx.len >= p + 16 then
      ctx.info = ctx.info .. " credit=" .. tostring(tvb(p + 8, 8):uint64())
    end
  end
end

local function dissect_nack(ctx)
  local tvb, p = ctx.tvb, 12
  local st = header(ctx, "neth", p, 20)
  add(ctx, st, "nack_reason", p, 1)
  add(ctx, st, "nack_vendor", p + 1, 1)
  add_rsvd(ctx, st, p + 2, 2)
  add(ctx, st, "nack_entropy", p + 4, 4)
  add(ctx, st, "nack_key", p + 8, 4)
  add_rsvd(ctx, st, p + 12, 1)
  add(ctx, st, "nack_psn", p + 13, 3)
  add(ctx, st, "nack_cc_type", p + 16, 1)
  add_masked_rsvd(ctx, st, "nack_rsvd4", p + 16, 1, 0x0F)
  add_rsvd(ctx, st, p + 17, 1)
  add(ctx, st, "nack_ts", p + 18, 2)
  if ctx.len >= p + 16 then
    local r = tvb(p, 1):uint()
    ctx.info = ctx.info .. string.format(" %s psn=%d",
      nack_reason_names[r] or string.format("reason 0x%02x", r), tvb(p + 13, 3):uint())
  end
end

local function dissect_probe(ctx)
  local p = 12
  local st = header(ctx, "peth", p, 16)
  add(ctx, st, "probe_id", p, 4)
  add(ctx, st, "probe_key", p + 4, 4)
  add(ctx, st, "probe_time", p + 8, 8)
  if st ~= nil and ctx.len > p + 16 then
    local pad = ctx.len - p - 16
    st:add(F.probe_pad, ctx.tvb(p + 16, pad), pad)
  end
  if ctx.len >= p + 4 then
    ctx.info = ctx.info .. string.format(" id=%d", ctx.tvb(p, 4):uint())
    if ctx.len > p + 16 then
      ctx.info = ctx.info .. string.format(" padded to %d", ctx.len)
    end
  end
end

local function dissect_ack(ctx)
  local p = 12
  local st = header(ctx, "aeth", p, 4)
  add(ctx, st, "aeth_syndrome", p, 1)
  add(ctx, st, "aeth_msn", p + 1, 3)
  if ctx.len >= 12 then
    ctx.info = ctx.info .. string.format(" PSN=%d", ctx.tvb(9, 3):uint())
  end
end

local function dissect_ep(ctx, resp)
  local p = 12
  local st = header(ctx, resp and "eeth" or "erth", p, resp and 36 or 16)
  add(ctx, st, "ep_op", p, 1)
  if resp then add(ctx, st, "ep_status", p + 1, 1) else add_rsvd(ctx, st, p + 1, 1) end
  add(ctx, st, "ep_req_id", p + 2, 2)
  add(ctx, st, "ep_port_status", p + 4, 4)
  if resp then
    add(ctx, st, "ep_req_tx_time", p + 8, 8)
    add(ctx, st, "ep_rx_time", p + 16, 8)
    add(ctx, st, "ep_tx_time", p + 24, 8)
    add(ctx, st, "ep_entropy", p + 32, 4)
  else
    add(ctx, st, "ep_tx_time", p + 8, 8)
  end
  if ctx.len >= p + 4 then
    local o = ctx.tvb(p, 1):uint()
    ctx.info = ctx.info .. string.format(" %s req_id=%d",
      ep_op_names[o] or ("op " .. o), ctx.tvb(p + 2, 2):uint())
  end
end

-- One set of CM parameters (20 bytes) at p, under the header field hdr:
-- "cmp" (the sender's, or in a CM_RTU the CM_REP's) or "cmq" (the
-- CM_REQ's, echoed in a CM_RTU).
local function dissect_cm_params(ctx, hdr, p)
  local tvb = ctx.tvb
  local k = hdr == "cmq" and "cmq_" or "cm_"
  local st = header(ctx, hdr, p, 20)
  add(ctx, st, k .. "sock_type", p, 1)
  local it = add(ctx, st, k .. "mpr", p + 1, 1)
  if it then it:append_text(string.format(" (%d PSNs)", tvb(p + 1, 1):uint() * 128)) end
  add(ctx, st, k .. "max_payload", p + 2, 2)
  add_rsvd(ctx, st, p + 4, 1)
  add(ctx, st, k .. "init_psn", p + 5, 3)
  add(ctx, st, k .. "rkey", p + 8, 4)
  add(ctx, st, k .. "rcv_window", p + 12, 4)
  local caps = add(ctx, st, k .. "caps", p + 16, 4)
  if caps and hdr == "cmp" then
    add(ctx, caps, "cap_tseth", p + 16, 4)
    add(ctx, caps, "cap_trim", p + 16, 4)
    add(ctx, caps, "cap_icrc", p + 16, 4)
    add(ctx, caps, "cap_credit", p + 16, 4)
  end
end

local function dissect_cm(ctx, op)
  local tvb, p = ctx.tvb, 12
  local st = header(ctx, "cmh", p, 24)
  add(ctx, st, "cm_ver", p, 1)
  add(ctx, st, "cm_flags", p + 1, 1)
  add(ctx, st, "cm_port", p + 2, 2)
  add_rsvd(ctx, st, p + 4, 1)
  add(ctx, st, "cm_src_qpn", p + 5, 3)
  add_rsvd(ctx, st, p + 8, 1)
  add(ctx, st, "cm_dst_qpn", p + 9, 3)
  add(ctx, st, "cm_cookie", p + 12, 8)
  add(ctx, st, "cm_client_port", p + 20, 2)
  add_rsvd(ctx, st, p + 22, 2)
  if ctx.len >= p + 22 then
    ctx.info = ctx.info .. string.format(" port=%d client_port=%d src_qpn=%d dst_qpn=%d",
      tvb(p + 2, 2):uint(), tvb(p + 20, 2):uint(), tvb(p + 5, 3):uint(), tvb(p + 9, 3):uint())
    -- a CM_DREP sent statelessly (MRC_CM_F_GONE): no such connection
    if op == 0xE5 and tvb(p + 1, 1):uint() == 1 then ctx.info = ctx.info .. " gone" end
  end
  -- a CMH of another version may have another layout: stop there
  local ver = ctx.len >= p + 1 and tvb(p, 1):uint() or 2
  -- version 1 (the previous wire): a CM_REQ, or the CM_REJ refusing it
  if ver ~= 2 and (ver ~= 1 or (op ~= 0xE0 and op ~= 0xE3)) then return end
  p = p + 24
  if cm_has_params(op) then
    dissect_cm_params(ctx, "cmp", p)
    if op == 0xE2 then dissect_cm_params(ctx, "cmq", p + 20) end
  elseif op == 0xE3 then
    st = header(ctx, "rej", p, 4)
    add(ctx, st, "rej_reason", p, 1)
    add_rsvd(ctx, st, p + 1, 3)
    if ctx.len > p then
      local r = tvb(p, 1):uint()
      ctx.info = ctx.info .. " reason=" .. (rej_reason_names[r] or tostring(r))
    end
  end
end

local function dissect_reset(ctx)
  local tvb, p = ctx.tvb, 12
  local st = header(ctx, "rsth", p, 20)
  add(ctx, st, "rst_ver", p, 1)
  add(ctx, st, "rst_reason", p + 1, 1)
  add_rsvd(ctx, st, p + 2, 2)
  add_rsvd(ctx, st, p + 4, 1)
  add(ctx, st, "rst_src_qpn", p + 5, 3)
  add_rsvd(ctx, st, p + 8, 1)
  add(ctx, st, "rst_dst_qpn", p + 9, 3)
  add(ctx, st, "rst_rkey", p + 12, 4)
  add_rsvd(ctx, st, p + 16, 1)
  add(ctx, st, "rst_psn", p + 17, 3)
  if ctx.len >= p + 2 then
    local r = tvb(p + 1, 1):uint()
    ctx.info = ctx.info .. " reason=" .. (reset_reason_names[r] or tostring(r))
  end
end

local function dissect(tvb, pinfo, root)
  local len = tvb:len()
  pinfo.cols.protocol = "MRC"
  local tree = root:add(mrc, tvb())
  local ctx = { tvb = tvb, tree = tree, len = len, info = "" }
  -- the EV the packet travelled on, from its UDP source port and flow label
  local sport, flow = f_udp_srcport(), f_ipv6_flow()
  if sport and flow then
    local ev = band(flow.value, 0x3FFFF) * 0x4000 + band(sport.value, 0x3FFF)
    tree:add(F.ev, ev):set_generated()
  end
  -- a capture cut by its snaplen says nothing about the packet sent
  local short = len < tvb:reported_len()
  local v = short and "capture_truncated" or verdict(tvb)
  local vi = tree:add(F.verdict, v)
  vi:set_generated()
  if short then
    vi:add_proto_expert_info(ex_short, string.format(
      "Packet cut short by the capture (snaplen): %d of %d bytes, no receiver verdict",
      len, tvb:reported_len()))
  end

  if len >= 1 then
    local op = tvb(0, 1):uint()
    local name = opcode_names[op] or string.format("unknown opcode 0x%02x", op)
    ctx.info = name
    tree:append_text(", " .. name)
    dissect_bth(ctx)
    if len >= 12 then
      ctx.info = ctx.info .. string.format(" QP=%d", tvb(5, 3):uint())
      local t = pkt_type(op)
      if t == "data" then
        ctx.info = ctx.info .. string.format(" PSN=%d", tvb(9, 3):uint())
        if band(tvb(8, 1):uint(), 0x40) ~= 0 then ctx.info = ctx.info .. " rtx" end
        dissect_data(ctx, op)
      elseif t == "sack" then dissect_sack(ctx)
      elseif t == "nack" then dissect_nack(ctx)
      elseif t == "probe" then dissect_probe(ctx)
      elseif t == "ep_req" then dissect_ep(ctx, false)
      elseif t == "ep_resp" then dissect_ep(ctx, true)
      elseif t == "cm" then dissect_cm(ctx, op)
      elseif t == "reset" then dissect_reset(ctx)
      elseif t == "ack" then dissect_ack(ctx)
      elseif len > 12 then
        ctx.tree:add(F.payload, tvb(12))
      end
    end
  else
    ctx.info = "empty"
  end

  if v ~= "ok" and not short then
    vi:add_proto_expert_info(ex_malformed,
      "Malformed MRC packet: a receiver drops it (" .. v .. ")")
    ctx.info = ctx.info .. " [Malformed: " .. v .. "]"
  end
  pinfo.cols.info = ctx.info
  return len
end

function mrc.dissector(tvb, pinfo, root)
  return dissect(tvb, pinfo, root)
end

-- ---------------------------------------------------------------------------
-- Registration: UDP port 4791 by default, or the port of the preference.

local udp_table = DissectorTable.get("udp.port")
local current_port = 0
local displaced = nil -- the dissector the port had before (RoCE on 4791)

local function take_port(port)
  if current_port ~= 0 then
    udp_table:remove(current_port, mrc)
    if displaced then udp_table:add(current_port, displaced) end
  end
  displaced = nil
  current_port = port
  if port ~= 0 then
    displaced = udp_table:get_dissector(port)
    udp_table:add(port, mrc)
  end
end
take_port(DEFAULT_PORT)

function mrc.prefs_changed()
  if mrc.prefs.udp_port ~= current_port then take_port(mrc.prefs.udp_port) end
end

-- A heuristic for captures where the UDP source port (which carries the
-- path's entropy value) is a port another dissector owns, e.g. 53: with
-- "udp.try_heuristic_first" set, packets to the MRC port go to MRC first.
local function heuristic(tvb, pinfo, root)
  if pinfo.dst_port ~= current_port or tvb:len() < 12 then return false end
  if pkt_type(tvb(0, 1):uint()) == nil then return false end
  dissect(tvb, pinfo, root)
  return true
end
mrc:register_heuristic("udp", heuristic)
