// A thread's scratch memory. See include/CInkwellThreads.h.
//
// Why: building a stroke's outline needs a few kilobytes for a moment (its samples, the spline's
// lanes), and blocks past glibc's per-thread cache (1032 bytes) come from the allocator's bins,
// a slow path of searches, splits and merges: on a page of notes, the pen's two such blocks a
// stroke had been about a tenth of the build's time. One block per thread, kept and grown as
// needed, costs a comparison a stroke instead.

#include "CInkwellThreads.h"

#include <pthread.h>
#include <stdlib.h>

static _Thread_local void *scratch_base;
static _Thread_local size_t scratch_size;
static pthread_key_t scratch_key;
static pthread_once_t scratch_key_once = PTHREAD_ONCE_INIT;

static void scratch_release(void *base) { free(base); }

static void scratch_make_key(void) { pthread_key_create(&scratch_key, scratch_release); }

void *inkwell_thread_scratch(size_t bytes) {
  if (bytes > INKWELL_THREAD_SCRATCH_LIMIT) return NULL;
  if (bytes == 0) bytes = 1;
  if (bytes <= scratch_size) return scratch_base;
  size_t size = scratch_size ? scratch_size : 16384;
  while (size < bytes) size *= 2;
  void *base = NULL;
  if (posix_memalign(&base, 64, size) != 0) return NULL;
  pthread_once(&scratch_key_once, scratch_make_key);
  // The thread's exit frees what the key holds; the block it replaces goes now.
  if (pthread_setspecific(scratch_key, base) != 0) {
    free(base);
    return NULL;
  }
  free(scratch_base);
  scratch_base = base;
  scratch_size = size;
  return base;
}
