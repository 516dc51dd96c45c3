// Big-endian fields in the order of TPM 2.0 Part 2: TPM2B_PUBLIC (12.2.5) over
// TPMT_PUBLIC (12.2.4) with TPMS_KEYEDHASH_PARMS (12.2.3.3) and TPMU_PUBLIC_ID's
// keyedHash digest (12.2.3.2); TPM2B_PRIVATE (12.3.7); TPMS_NV_PIN_COUNTER_PARAMETERS
// (13.8).
#include "TPMWireFormat.h"

#include <string.h>

typedef struct {
  uint8_t *bytes;
  size_t capacity, at;
  int ok;
} writer;

static void put(writer *w, uint32_t value, int width) {
  if (!w->ok || w->capacity - w->at < (size_t)width) {
    w->ok = 0;
    return;
  }
  for (int i = width - 1; i >= 0; i--) w->bytes[w->at++] = (uint8_t)(value >> (8 * i));
}

static void put_bytes(writer *w, const uint8_t *bytes, size_t count) {
  if (!w->ok || w->capacity - w->at < count) {
    w->ok = 0;
    return;
  }
  memcpy(w->bytes + w->at, bytes, count);
  w->at += count;
}

typedef struct {
  const uint8_t *bytes;
  size_t size, at;
  int ok;
} reader;

static uint32_t take(reader *r, int width) {
  if (!r->ok || r->size - r->at < (size_t)width) {
    r->ok = 0;
    return 0;
  }
  uint32_t value = 0;
  for (int i = 0; i < width; i++) value = (value << 8) | r->bytes[r->at++];
  return value;
}

static void take_bytes(reader *r, uint8_t *out, size_t count) {
  if (!r->ok || r->size - r->at < count) {
    r->ok = 0;
    return;
  }
  memcpy(out, r->bytes + r->at, count);
  r->at += count;
}

/// A TPM2B_DIGEST: its size, then that many bytes (at most the buffer's room).
static void put_digest(writer *w, const TPM2B_DIGEST *digest) {
  if (digest->size > sizeof(digest->buffer)) w->ok = 0;
  put(w, digest->size, 2);
  put_bytes(w, digest->buffer, digest->size);
}

static void take_digest(reader *r, TPM2B_DIGEST *digest) {
  uint32_t size = take(r, 2);
  if (size > sizeof(digest->buffer)) r->ok = 0;
  digest->size = (UINT16)size;
  take_bytes(r, digest->buffer, size);
}

int pl_wire_write_keyedhash_public(const TPM2B_PUBLIC *value, uint8_t *out, size_t capacity, size_t *size) {
  const TPMT_PUBLIC *area = &value->publicArea;
  const TPMT_KEYEDHASH_SCHEME *scheme = &area->parameters.keyedHashDetail.scheme;
  if (area->type != TPM2_ALG_KEYEDHASH || (scheme->scheme != TPM2_ALG_NULL && scheme->scheme != TPM2_ALG_HMAC))
    return 0;
  writer w = {.bytes = out, .capacity = capacity, .at = 2, .ok = capacity >= 2};
  put(&w, area->type, 2);
  put(&w, area->nameAlg, 2);
  put(&w, area->objectAttributes, 4);
  put_digest(&w, &area->authPolicy);
  put(&w, scheme->scheme, 2);
  if (scheme->scheme == TPM2_ALG_HMAC) put(&w, scheme->details.hmac.hashAlg, 2);
  put_digest(&w, &area->unique.keyedHash);
  if (!w.ok) return 0;
  // The outer size counts the area after it.
  out[0] = (uint8_t)((w.at - 2) >> 8);
  out[1] = (uint8_t)(w.at - 2);
  *size = w.at;
  return 1;
}

int pl_wire_read_keyedhash_public(const uint8_t *bytes, size_t size, TPM2B_PUBLIC *value) {
  memset(value, 0, sizeof(*value));
  reader r = {.bytes = bytes, .size = size, .at = 0, .ok = 1};
  uint32_t outer = take(&r, 2);
  TPMT_PUBLIC *area = &value->publicArea;
  area->type = (TPMI_ALG_PUBLIC)take(&r, 2);
  area->nameAlg = (TPMI_ALG_HASH)take(&r, 2);
  area->objectAttributes = take(&r, 4);
  take_digest(&r, &area->authPolicy);
  TPMT_KEYEDHASH_SCHEME *scheme = &area->parameters.keyedHashDetail.scheme;
  scheme->scheme = (TPMI_ALG_KEYEDHASH_SCHEME)take(&r, 2);
  if (scheme->scheme == TPM2_ALG_HMAC)
    scheme->details.hmac.hashAlg = (TPMI_ALG_HASH)take(&r, 2);
  else if (scheme->scheme != TPM2_ALG_NULL)
    r.ok = 0;
  take_digest(&r, &area->unique.keyedHash);
  if (!r.ok || area->type != TPM2_ALG_KEYEDHASH || r.at != size || outer != size - 2) return 0;
  value->size = (UINT16)outer;
  return 1;
}

int pl_wire_write_private(const TPM2B_PRIVATE *value, uint8_t *out, size_t capacity, size_t *size) {
  writer w = {.bytes = out, .capacity = capacity, .at = 0, .ok = value->size <= sizeof(value->buffer)};
  put(&w, value->size, 2);
  put_bytes(&w, value->buffer, value->size);
  if (!w.ok) return 0;
  *size = w.at;
  return 1;
}

int pl_wire_read_private(const uint8_t *bytes, size_t size, TPM2B_PRIVATE *value) {
  reader r = {.bytes = bytes, .size = size, .at = 0, .ok = 1};
  uint32_t count = take(&r, 2);
  if (count > sizeof(value->buffer)) return 0;
  value->size = (UINT16)count;
  take_bytes(&r, value->buffer, count);
  return r.ok && r.at == size;
}

void pl_wire_write_pin_counter(uint32_t count, uint32_t limit, uint8_t out[PL_WIRE_PIN_COUNTER_SIZE]) {
  writer w = {.bytes = out, .capacity = PL_WIRE_PIN_COUNTER_SIZE, .at = 0, .ok = 1};
  put(&w, count, 4);
  put(&w, limit, 4);
}

int pl_wire_read_pin_counter(const uint8_t *bytes, size_t size, uint32_t *count, uint32_t *limit) {
  reader r = {.bytes = bytes, .size = size, .at = 0, .ok = size == PL_WIRE_PIN_COUNTER_SIZE};
  *count = take(&r, 4);
  *limit = take(&r, 4);
  return r.ok;
}
