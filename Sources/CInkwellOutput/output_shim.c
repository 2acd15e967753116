// See include/CInkwellOutput.h.

#define _GNU_SOURCE
#include "CInkwellOutput.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int inkwell_open_unnamed(const char *directory, unsigned mode) {
#if defined(__linux__) && defined(O_TMPFILE)
  // Naming the file later goes through /proc (inkwell_name_unnamed); without it (a bare chroot)
  // only a privileged process could, so the caller takes a named temporary file instead.
  if (access("/proc/self/fd", F_OK) != 0) {
    errno = ENOTSUP;
    return -1;
  }
  return open(directory, O_TMPFILE | O_WRONLY | O_CLOEXEC, (mode_t)mode);
#else
  (void)directory;
  (void)mode;
  errno = ENOTSUP;
  return -1;
#endif
}

int inkwell_name_unnamed(int descriptor, const char *path) {
#if defined(__linux__) && defined(O_TMPFILE)
  // Through the descriptor's /proc link, which needs no privilege; AT_EMPTY_PATH, where /proc is
  // not mounted, needs CAP_DAC_READ_SEARCH.
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", descriptor);
  if (linkat(AT_FDCWD, link, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0) return 0;
  if (errno != ENOENT) return -1;
  return linkat(descriptor, "", AT_FDCWD, path, AT_EMPTY_PATH);
#else
  (void)descriptor;
  (void)path;
  errno = ENOTSUP;
  return -1;
#endif
}
