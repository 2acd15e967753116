#include "CInkwellCLI.h"

#include <limits.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int inkwell_cli_keep_freed_memory(size_t mapped_limit, size_t trim_limit) {
#if defined(__GLIBC__)
  if (mapped_limit > INT_MAX || trim_limit > INT_MAX) return 0;
  return mallopt(M_MMAP_THRESHOLD, (int)mapped_limit) == 1 && mallopt(M_TRIM_THRESHOLD, (int)trim_limit) == 1;
#else
  (void)mapped_limit;
  (void)trim_limit;
  return 0;
#endif
}
