// Opening configuration files and directories once, by descriptor, so that what is
// checked (fstat) is what is read; see Configuration's SystemLayers.
#include "CShim.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

_Static_assert(PL_AT_FDCWD == AT_FDCWD, "AT_FDCWD differs from CShim.h's PL_AT_FDCWD");

int pl_openat_directory(int dirfd, const char *name, int following_symlink) {
  int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
  if (!following_symlink) flags |= O_NOFOLLOW;
  return openat(dirfd, name, flags);
}

int pl_openat_read_following(int dirfd, const char *name) {
  return openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
}

// A duplicate, so closedir leaves the caller's descriptor open; the duplicate shares
// the directory's offset, hence the rewind.
void *pl_opendir_descriptor(int dirfd) {
  int copy = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) return NULL;
  DIR *listing = fdopendir(copy);
  if (listing == NULL) {
    int saved = errno;
    close(copy);
    errno = saved;
    return NULL;
  }
  rewinddir(listing);
  return listing;
}
