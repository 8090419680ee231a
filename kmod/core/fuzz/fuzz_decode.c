// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: mrc_pkt_decode() on arbitrary bytes.
 *
 * Whatever the decoder accepts must re-encode to the very same header
 * bytes (the wire format has no two spellings of one packet), and decode
 * again to the same struct. Rejections must name a known reason. The
 * first half of the bytes, taken as an ICMPv6 error's quote of the whole,
 * is decoded too: mrc_pkt_decode_quote() reads nothing past it.
 */
#include <stdlib.h>
#include <string.h>

#include "mrc_fuzz.h"
#include "mrc_wire.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	/* a padded probe is as long as the input */
	static u8 out[65536 + MRC_PKT_HDR_MAX];
	struct mrc_pkt pkt, again;
	u32 len = size > 65536 ? 65536 : (u32)size;
	u32 have = len / 2;
	u8 *quote;
	int err, n;

	/* exact-size copy: ASan sees any read past the quote */
	quote = malloc(have ? have : 1);
	if (!quote)
		abort();
	memcpy(quote, data, have);
	err = mrc_pkt_decode_quote(quote, have, len, &pkt);
	free(quote);
	if (!err && pkt.type != MRC_PKT_DATA && pkt.type != MRC_PKT_PROBE)
		abort();

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
