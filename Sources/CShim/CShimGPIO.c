// See CShimGPIO.h.
#include "CShimGPIO.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

// Copies a kernel name field (at most GPIO_MAX_NAME_SIZE, maybe unterminated).
static void copy_name(char *out, size_t size, const char *name) {
  if (size == 0) return;
  size_t length = strnlen(name, GPIO_MAX_NAME_SIZE);
  if (length >= size) length = size - 1;
  memcpy(out, name, length);
  out[length] = '\0';
}

// The chip opened read-only for an ioctl, then closed keeping the ioctl's errno.
static int chip_ioctl(const char *chip_path, unsigned long request, void *argument) {
  int chip = open(chip_path, O_RDONLY | O_CLOEXEC);
  if (chip < 0) return -1;
  int result = ioctl(chip, request, argument);
  int saved = errno;
  (void)close(chip);
  errno = saved;
  return result < 0 ? -1 : 0;
}

int pl_gpio_chip_info(const char *chip_path, char *label, size_t label_size, uint32_t *lines) {
  struct gpiochip_info info;
  memset(&info, 0, sizeof info);
  if (chip_ioctl(chip_path, GPIO_GET_CHIPINFO_IOCTL, &info) != 0) return -1;
  copy_name(label, label_size, info.label);
  *lines = info.lines;
  return 0;
}

int pl_gpio_line_name(const char *chip_path, uint32_t line, char *name, size_t name_size) {
  struct gpio_v2_line_info info;
  memset(&info, 0, sizeof info);
  info.offset = line;
  if (chip_ioctl(chip_path, GPIO_V2_GET_LINEINFO_IOCTL, &info) != 0) return -1;
  copy_name(name, name_size, info.name);
  return 0;
}

int pl_gpio_request_line(const char *chip_path, uint32_t line, uint64_t flags, uint32_t debounce_us) {
  int chip = open(chip_path, O_RDWR | O_CLOEXEC);
  if (chip < 0) return -1;
  struct gpio_v2_line_request request;
  memset(&request, 0, sizeof request);
  request.offsets[0] = line;
  request.num_lines = 1;
  request.config.flags = flags;
  if (debounce_us > 0) {
    request.config.num_attrs = 1;
    request.config.attrs[0].mask = 1;
    request.config.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_DEBOUNCE;
    request.config.attrs[0].attr.debounce_period_us = debounce_us;
  }
  strncpy(request.consumer, "patternlock", sizeof request.consumer - 1);
  int result = ioctl(chip, GPIO_V2_GET_LINE_IOCTL, &request);
  int saved = errno;
  (void)close(chip);
  errno = saved;
  return result < 0 ? -1 : request.fd;
}

int pl_gpio_input_request(const char *chip_path, uint32_t line, int active_low, uint32_t debounce_us) {
  uint64_t flags = GPIO_V2_LINE_FLAG_INPUT | GPIO_V2_LINE_FLAG_EDGE_RISING | GPIO_V2_LINE_FLAG_EDGE_FALLING |
                   (active_low ? GPIO_V2_LINE_FLAG_ACTIVE_LOW : 0);
  int fd = pl_gpio_request_line(chip_path, line, flags, debounce_us);
  if (fd < 0) return -1;
  int status = fcntl(fd, F_GETFL);
  if (status < 0 || fcntl(fd, F_SETFL, status | O_NONBLOCK) < 0) {
    int saved = errno;
    (void)close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

int pl_gpio_input_next_edge(int fd) {
  struct gpio_v2_line_event event;
  ssize_t got = read(fd, &event, sizeof event);
  if (got < 0) return -1;
  if ((size_t)got != sizeof event) {
    errno = EIO;
    return -1;
  }
  return event.id == GPIO_V2_LINE_EVENT_RISING_EDGE ? 1 : 0;
}

int pl_gpio_input_level(int fd) {
  struct gpio_v2_line_values values = {.bits = 0, .mask = 1};
  if (ioctl(fd, GPIO_V2_LINE_GET_VALUES_IOCTL, &values) < 0) return -1;
  return (int)(values.bits & 1);
}
