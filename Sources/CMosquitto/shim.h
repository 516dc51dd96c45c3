// libmosquitto (Debian libmosquitto-dev): the MQTT client `patternlock mqtt` reports
// the lock's events with. Only CMosquittoShim calls it.
#include <mosquitto.h>
