// libmosquitto behind a few plain calls for `patternlock mqtt`: the client is driven
// from the program's own poll loop (never libmosquitto's thread), and what its
// callbacks report is copied into a fixed ring that Swift drains after each read,
// write or housekeeping call, so no C callback ever calls into Swift.
#ifndef PATTERNLOCK_CMOSQUITTOSHIM_H
#define PATTERNLOCK_CMOSQUITTOSHIM_H

#include <stdint.h>

typedef struct pl_mqtt pl_mqtt;

/// What a record of the ring reports.
enum {
  /// The broker answered CONNECT: `code` is its CONNACK code (0 accepted).
  PL_MQTT_CONNECTED = 1,
  /// The connection ended: `code` 0 when asked for, else why (a MOSQ_ERR_ value).
  PL_MQTT_DISCONNECTED = 2,
  /// The broker acknowledged the QoS 1 message `mid`.
  PL_MQTT_PUBLISHED = 3,
  /// A message arrived on `topic` (its first 64 bytes in `payload`; `truncated` when
  /// it was longer; `retained` when the broker kept it and replays it on subscribing).
  PL_MQTT_MESSAGE = 4,
};

typedef struct pl_mqtt_record {
  int kind;
  int code;
  int mid;
  int payload_length;
  int truncated;
  int retained;
  char topic[256];
  unsigned char payload[64];
} pl_mqtt_record;

/// A client with id `client_id` and a clean session; NULL with errno when out of memory.
pl_mqtt *pl_mqtt_new(const char *client_id);
void pl_mqtt_free(pl_mqtt *client);

/// The broker's user name and password (either may be NULL): a MOSQ_ERR_ value.
int pl_mqtt_set_login(pl_mqtt *client, const char *username, const char *password);
/// TLS with the CA file `ca` and, when both are given, the client certificate and key.
int pl_mqtt_set_tls(pl_mqtt *client, const char *ca, const char *certificate, const char *key);
/// The last will: `payload` retained on `topic` with QoS 1 when the connection is lost.
int pl_mqtt_set_will(pl_mqtt *client, const char *topic, const char *payload);

/// Connects (a TCP connect and the CONNECT packet; the CONNACK comes later, as a
/// record): a MOSQ_ERR_ value, with errno set for MOSQ_ERR_ERRNO.
int pl_mqtt_connect(pl_mqtt *client, const char *host, int port, int keepalive_seconds);
int pl_mqtt_disconnect(pl_mqtt *client);

/// The connection's socket, -1 without one.
int pl_mqtt_socket(pl_mqtt *client);
/// Whether packets wait to be written.
int pl_mqtt_wants_write(pl_mqtt *client);
/// One read, one write, the keepalive's housekeeping: MOSQ_ERR_ values.
int pl_mqtt_read(pl_mqtt *client);
int pl_mqtt_write(pl_mqtt *client);
int pl_mqtt_misc(pl_mqtt *client);

/// Publishes `length` bytes of `payload` on `topic`; `*mid` is the message's id.
int pl_mqtt_publish(pl_mqtt *client, int *mid, const char *topic, const void *payload, int length, int qos, int retain);
int pl_mqtt_subscribe(pl_mqtt *client, const char *topic, int qos);

/// Takes the oldest record into `*record`: 1, or 0 when the ring is empty.
int pl_mqtt_next(pl_mqtt *client, pl_mqtt_record *record);
/// Records lost because the ring was full, since the last call (then 0 again).
int pl_mqtt_take_lost(pl_mqtt *client);

/// libmosquitto's text for a MOSQ_ERR_ value, and for a CONNACK code.
const char *pl_mqtt_error_text(int code);
const char *pl_mqtt_connack_text(int code);

/// MOSQ_ERR_ values the caller tells apart.
enum {
  PL_MQTT_SUCCESS = 0,
  PL_MQTT_NO_CONNECTION = 4,
  PL_MQTT_CONNECTION_LOST = 7,
  PL_MQTT_ERRNO = 14,
};

#endif
