// Process-wide settings of the command line that Swift cannot make through its Glibc module:
// malloc's limits (`mallopt`) and signal handlers, which must be C to be async-signal-safe. See
// include/CInkwellCLI.h.

#include "CInkwellCLI.h"

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

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

// Read by the workers while the handler may write it: a lock-free atomic, which a signal handler
// may also use.
static atomic_int stop_signal = 0;

static void request_stop(int signal) {
  int none = 0;
  atomic_compare_exchange_strong(&stop_signal, &none, signal);
  // Either signal again ends the process as usual (sigaction is async-signal-safe).
  struct sigaction standard;
  memset(&standard, 0, sizeof standard);
  standard.sa_handler = SIG_DFL;
  sigemptyset(&standard.sa_mask);
  sigaction(SIGINT, &standard, NULL);
  sigaction(SIGTERM, &standard, NULL);
}

void inkwell_cli_stop_on_signals(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = request_stop;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, NULL);
  sigaction(SIGTERM, &action, NULL);
  // A parent spawning from a thread that blocks them (a pool's worker) hands that mask down; a
  // blocked SIGTERM would wait until the batch had ended. Threads made later inherit this one's.
  sigset_t stops;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  pthread_sigmask(SIG_UNBLOCK, &stops, NULL);
}

int inkwell_cli_stop_signal(void) { return atomic_load_explicit(&stop_signal, memory_order_relaxed); }
