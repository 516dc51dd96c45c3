#include "CMosquittoShim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <mosquitto.h>

_Static_assert(PL_MQTT_SUCCESS == MOSQ_ERR_SUCCESS && PL_MQTT_NO_CONNECTION == MOSQ_ERR_NO_CONN &&
                   PL_MQTT_CONNECTION_LOST == MOSQ_ERR_CONN_LOST && PL_MQTT_ERRNO == MOSQ_ERR_ERRNO,
               "libmosquitto's error values moved");

// Enough for a burst between two drains: the loop drains after every call into the
// library, which reads at most a few packets.
#define PL_MQTT_RING 64

struct pl_mqtt {
  struct mosquitto *mosq;
  pl_mqtt_record ring[PL_MQTT_RING];
  int first;
  int count;
  int lost;
};

static pl_mqtt_record *pl_mqtt_push(pl_mqtt *client) {
  if (client->count == PL_MQTT_RING) {
    // The oldest goes: a later record (a newer CONNACK or disconnect) says more.
    client->first = (client->first + 1) % PL_MQTT_RING;
    client->count -= 1;
    client->lost += 1;
  }
  pl_mqtt_record *record = &client->ring[(client->first + client->count) % PL_MQTT_RING];
  client->count += 1;
  memset(record, 0, sizeof *record);
  return record;
}

static void pl_mqtt_on_connect(struct mosquitto *mosq, void *object, int code) {
  (void)mosq;
  pl_mqtt_record *record = pl_mqtt_push(object);
  record->kind = PL_MQTT_CONNECTED;
  record->code = code;
}

static void pl_mqtt_on_disconnect(struct mosquitto *mosq, void *object, int code) {
  (void)mosq;
  pl_mqtt_record *record = pl_mqtt_push(object);
  record->kind = PL_MQTT_DISCONNECTED;
  record->code = code;
}

static void pl_mqtt_on_publish(struct mosquitto *mosq, void *object, int mid) {
  (void)mosq;
  pl_mqtt_record *record = pl_mqtt_push(object);
  record->kind = PL_MQTT_PUBLISHED;
  record->mid = mid;
}

static void pl_mqtt_on_message(struct mosquitto *mosq, void *object, const struct mosquitto_message *message) {
  (void)mosq;
  pl_mqtt_record *record = pl_mqtt_push(object);
  record->kind = PL_MQTT_MESSAGE;
  record->mid = message->mid;
  // Set only when the broker sent a message it kept (a new subscription's retained
  // one); a live message on an established subscription comes with it clear.
  record->retained = message->retain ? 1 : 0;
  if (message->topic) {
    strncpy(record->topic, message->topic, sizeof record->topic - 1);
    if (strlen(message->topic) >= sizeof record->topic) record->truncated = 1;
  }
  int length = message->payloadlen;
  if (length > (int)sizeof record->payload) {
    length = sizeof record->payload;
    record->truncated = 1;
  }
  if (length > 0) memcpy(record->payload, message->payload, (size_t)length);
  record->payload_length = length;
}

pl_mqtt *pl_mqtt_new(const char *client_id) {
  // Once per process; later calls only count.
  mosquitto_lib_init();
  pl_mqtt *client = calloc(1, sizeof *client);
  if (!client) return NULL;
  client->mosq = mosquitto_new(client_id, true, client);
  if (!client->mosq) {
    int saved = errno;
    free(client);
    errno = saved;
    return NULL;
  }
  mosquitto_connect_callback_set(client->mosq, pl_mqtt_on_connect);
  mosquitto_disconnect_callback_set(client->mosq, pl_mqtt_on_disconnect);
  mosquitto_publish_callback_set(client->mosq, pl_mqtt_on_publish);
  mosquitto_message_callback_set(client->mosq, pl_mqtt_on_message);
  return client;
}

void pl_mqtt_free(pl_mqtt *client) {
  if (!client) return;
  mosquitto_destroy(client->mosq);
  free(client);
}

int pl_mqtt_set_login(pl_mqtt *client, const char *username, const char *password) {
  return mosquitto_username_pw_set(client->mosq, username, password);
}

int pl_mqtt_set_tls(pl_mqtt *client, const char *ca, const char *certificate, const char *key) {
  return mosquitto_tls_set(client->mosq, ca, NULL, certificate, key, NULL);
}

int pl_mqtt_set_will(pl_mqtt *client, const char *topic, const char *payload) {
  return mosquitto_will_set(client->mosq, topic, (int)strlen(payload), payload, 1, true);
}

int pl_mqtt_connect(pl_mqtt *client, const char *host, int port, int keepalive_seconds) {
  return mosquitto_connect(client->mosq, host, port, keepalive_seconds);
}

int pl_mqtt_disconnect(pl_mqtt *client) { return mosquitto_disconnect(client->mosq); }

int pl_mqtt_socket(pl_mqtt *client) { return mosquitto_socket(client->mosq); }

int pl_mqtt_wants_write(pl_mqtt *client) { return mosquitto_want_write(client->mosq) ? 1 : 0; }

int pl_mqtt_read(pl_mqtt *client) { return mosquitto_loop_read(client->mosq, 1); }

int pl_mqtt_write(pl_mqtt *client) { return mosquitto_loop_write(client->mosq, 1); }

int pl_mqtt_misc(pl_mqtt *client) { return mosquitto_loop_misc(client->mosq); }

int pl_mqtt_publish(pl_mqtt *client, int *mid, const char *topic, const void *payload, int length, int qos, int retain) {
  return mosquitto_publish(client->mosq, mid, topic, length, payload, qos, retain != 0);
}

int pl_mqtt_subscribe(pl_mqtt *client, const char *topic, int qos) {
  return mosquitto_subscribe(client->mosq, NULL, topic, qos);
}

int pl_mqtt_next(pl_mqtt *client, pl_mqtt_record *record) {
  if (client->count == 0) return 0;
  *record = client->ring[client->first];
  client->first = (client->first + 1) % PL_MQTT_RING;
  client->count -= 1;
  return 1;
}

int pl_mqtt_take_lost(pl_mqtt *client) {
  int lost = client->lost;
  client->lost = 0;
  return lost;
}

const char *pl_mqtt_error_text(int code) { return mosquitto_strerror(code); }

const char *pl_mqtt_connack_text(int code) { return mosquitto_connack_string(code); }
