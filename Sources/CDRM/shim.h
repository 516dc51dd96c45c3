// libdrm's modesetting API (Debian libdrm-dev): drmModeGetResources, drmModeSetCrtc,
// drmModePageFlip, dumb buffers, drmHandleEvent.
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
#include <string.h>
#include <errno.h>

// An atomic commit of `count` properties of one object straight through
// DRM_IOCTL_MODE_ATOMIC, from arrays on the stack. drmModeAtomicCommit would copy and
// sort the request into heap buffers on every flip; the per-frame path allocates
// nothing. drmIoctl retries EINTR and EAGAIN; -1 with errno on failure.
static inline int pl_drm_atomic_commit_object(int fd, uint32_t object, uint32_t count, uint32_t *properties,
                                              uint64_t *values, uint32_t flags, void *user_data) {
  uint32_t objects[1] = {object};
  uint32_t counts[1] = {count};
  struct drm_mode_atomic request;
  memset(&request, 0, sizeof request);
  request.flags = flags;
  request.count_objs = 1;
  request.objs_ptr = (uint64_t)(uintptr_t)objects;
  request.count_props_ptr = (uint64_t)(uintptr_t)counts;
  request.props_ptr = (uint64_t)(uintptr_t)properties;
  request.prop_values_ptr = (uint64_t)(uintptr_t)values;
  request.user_data = (uint64_t)(uintptr_t)user_data;
  return drmIoctl(fd, DRM_IOCTL_MODE_ATOMIC, &request);
}

// A page flip: the plane's FB_ID, and with it the flip's damage: the plane's
// FB_DAMAGE_CLIPS set to a blob holding one rectangle (x1, y1 inclusive; x2, y2
// exclusive, in framebuffer pixels), so drivers that send pixels over a slow link
// (virtio-gpu, SPI and USB panels) transfer only that. The blob is created from a
// struct on the stack and destroyed again after the commit, which holds its own
// reference. damage_property 0 means the plane has no FB_DAMAGE_CLIPS: FB_ID alone.
// -1 with errno on failure.
static inline int pl_drm_atomic_flip_damage(int fd, uint32_t plane, uint32_t framebuffer_property, uint64_t framebuffer,
                                            uint32_t damage_property, int32_t x1, int32_t y1, int32_t x2, int32_t y2,
                                            uint32_t flags, void *user_data) {
  uint32_t properties[2] = {framebuffer_property, damage_property};
  uint64_t values[2] = {framebuffer, 0};
  if (damage_property == 0) return pl_drm_atomic_commit_object(fd, plane, 1, properties, values, flags, user_data);
  struct drm_mode_rect clip = {x1, y1, x2, y2};
  struct drm_mode_create_blob blob;
  memset(&blob, 0, sizeof blob);
  blob.data = (uint64_t)(uintptr_t)&clip;
  blob.length = sizeof clip;
  if (drmIoctl(fd, DRM_IOCTL_MODE_CREATEPROPBLOB, &blob) != 0) return -1;
  values[1] = blob.blob_id;
  int result = pl_drm_atomic_commit_object(fd, plane, 2, properties, values, flags, user_data);
  int saved = errno;
  struct drm_mode_destroy_blob destroy = {blob.blob_id};
  (void)drmIoctl(fd, DRM_IOCTL_MODE_DESTROYPROPBLOB, &destroy);
  errno = saved;
  return result;
}

// drmModeDirtyFB for one rectangle from the stack: tells a legacy driver that sends
// pixels over a link which part of the buffer changed. -1 with errno (ENOSYS: the
// driver does not need it) on failure.
static inline int pl_drm_dirty_fb(int fd, uint32_t framebuffer, uint16_t x1, uint16_t y1, uint16_t x2, uint16_t y2) {
  drmModeClip clip = {x1, y1, x2, y2};
  return drmModeDirtyFB(fd, framebuffer, &clip, 1);
}

// Switches a CRTC off or on for idle blanking (DPMS through atomic): off is the CRTC's
// ACTIVE = 0 alone, keeping its mode blob and the plane's framebuffer, so the driver
// keeps the configuration; on is ACTIVE = 1 with the mode blob and the plane's
// FB_ID, the buffer to show. Both need DRM_MODE_ATOMIC_ALLOW_MODESET in `flags`.
// Straight through DRM_IOCTL_MODE_ATOMIC from arrays on the stack, like
// pl_drm_atomic_commit_object: the waking touch's path allocates nothing. -1 with errno on failure.
static inline int pl_drm_atomic_set_active(int fd, uint32_t crtc, uint32_t active_property, int active,
                                           uint32_t mode_property, uint32_t mode_blob, uint32_t plane,
                                           uint32_t framebuffer_property, uint32_t framebuffer, uint32_t flags) {
  uint32_t objects[2] = {crtc, plane};
  uint32_t counts[2] = {active ? 2 : 1, 1};
  uint32_t properties[3] = {active_property, mode_property, framebuffer_property};
  uint64_t values[3] = {active ? 1 : 0, mode_blob, framebuffer};
  struct drm_mode_atomic request;
  memset(&request, 0, sizeof request);
  request.flags = flags;
  request.count_objs = active ? 2 : 1;
  request.objs_ptr = (uint64_t)(uintptr_t)objects;
  request.count_props_ptr = (uint64_t)(uintptr_t)counts;
  request.props_ptr = (uint64_t)(uintptr_t)properties;
  request.prop_values_ptr = (uint64_t)(uintptr_t)values;
  return drmIoctl(fd, DRM_IOCTL_MODE_ATOMIC, &request);
}
