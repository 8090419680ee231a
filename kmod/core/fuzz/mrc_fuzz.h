/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The libFuzzer entry point, declared once for every fuzz target (its
 * name is fixed by libFuzzer).
 */
#ifndef _MRC_FUZZ_H
#define _MRC_FUZZ_H

#include "mrc_core_types.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

#endif /* _MRC_FUZZ_H */
