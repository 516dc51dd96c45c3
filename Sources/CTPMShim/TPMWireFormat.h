// The TPM 2.0 wire form (Part 2, "Structures") of the few structures the enrolment
// keeps on disk, written here rather than through libtss2-mu. That library changed
// its structure sizes between Debian releases under one soname (bookworm's libtss2-mu0,
// trixie's libtss2-mu-4.0.1-0t64): a binary built against one release and run on the
// other must not hand it structures of the other size. ESAPI, whose ABI Debian keeps,
// does all other marshalling.
#ifndef PL_TPM_WIRE_FORMAT_H
#define PL_TPM_WIRE_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <tss2/tss2_tpm2_types.h>

/// Writes a TPM2B_PUBLIC of type KEYEDHASH (the only type enrolled) into `out`;
/// 0 for any other type or scheme, or when `capacity` is too small.
int pl_wire_write_keyedhash_public(const TPM2B_PUBLIC *value, uint8_t *out, size_t capacity, size_t *size);

/// Reads what `pl_wire_write_keyedhash_public` wrote: exactly `size` bytes, a
/// KEYEDHASH area with a NULL or HMAC scheme, sizes within their buffers; else 0.
int pl_wire_read_keyedhash_public(const uint8_t *bytes, size_t size, TPM2B_PUBLIC *value);

/// Writes a TPM2B_PRIVATE (its size and its opaque bytes).
int pl_wire_write_private(const TPM2B_PRIVATE *value, uint8_t *out, size_t capacity, size_t *size);

/// Reads a TPM2B_PRIVATE of exactly `size` bytes whose contents fit `capacity` bytes
/// of `value->buffer` (the buffer as this build knows it); else 0.
int pl_wire_read_private(const uint8_t *bytes, size_t size, TPM2B_PRIVATE *value);

/// The 8 bytes of a PIN index's TPMS_NV_PIN_COUNTER_PARAMETERS.
enum { PL_WIRE_PIN_COUNTER_SIZE = 8 };
void pl_wire_write_pin_counter(uint32_t count, uint32_t limit, uint8_t out[PL_WIRE_PIN_COUNTER_SIZE]);
int pl_wire_read_pin_counter(const uint8_t *bytes, size_t size, uint32_t *count, uint32_t *limit);

#endif
