// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: mrc_pkt_decode() on arbitrary bytes.
 *
 * Whatever the decoder accepts must re-encode to the very same header
 * bytes (the wire format has no two spellings of one packet), and decode
 * again to the same struct. Rejections must name a known reason.
 */
#include <stdlib.h>
#include <string.h>

#include "mrc_fuzz.h"
#include "mrc_wire.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct mrc_pkt pkt, again;
	u8 out[MRC_PKT_HDR_MAX];
	u32 len = size > 65536 ? 65536 : (u32)size;
	int err, n;

	err = mrc_pkt_decode(data, len, &pkt);
	if (err) {
		if (err > 0 || -err >= __MRC_WERR_MAX || err == -MRC_WERR_NOSPC)
			abort();
		if (!strcmp(mrc_wire_err_name(err), "unknown"))
			abort();
		return 0;
	}

	n = mrc_pkt_encode(&pkt, out, sizeof(out));
	if (n <= 0)
		abort();
	if (pkt.type == MRC_PKT_DATA) {
		const struct mrc_data *d = &pkt.u.data;

		if ((u32)n != d->payload_off ||
		    d->payload_off + d->payload_len + pkt.bth.pad_cnt != len ||
		    pkt.bth.pad_cnt != mrc_pad_len(d->payload_len))
			abort();
	} else if ((u32)n != len) {
		abort();
	}
	if (memcmp(out, data, n))
		abort();

	/* the headers alone decode to the same packet (data: no payload) */
	if (pkt.type != MRC_PKT_DATA) {
		if (mrc_pkt_decode(out, n, &again) ||
		    memcmp(&again, &pkt, sizeof(pkt)))
			abort();
	}
	return 0;
}
