// Spreading a parallel call's workers over processors. See include/CInkwellThreads.h.
//
// Why: a kernel may place a woken thread on the processor of the thread that woke it even while
// another processor idles (this machine's Firecracker guest boots with `sched_vcpu_pack=15`,
// which packs woken threads onto busy virtual processors). The caller of a parallel render goes
// on working there, and Dispatch's worker waits behind it until the caller's time slice ends or
// the load balancer moves it: after 50 ms of idle, the 1536 × 2048 notes scene filled on two
// threads in 7.4–8.3 ms, as long as on one, its second worker starting 0.4–3.8 ms into a raster
// stage of 4–8 ms. Moving the worker by its affinity alone did not help (it cannot run to move
// itself while it waits); the first worker's yield lets it run, and its move then wakes the idle
// processor: 4.1–4.7 ms. Where each worker starts on a processor of its own, as it does without
// idle, the cost is reading the processor and a yield or two (a system call each) while the
// others start.

#if defined(__linux__)
#define _GNU_SOURCE
#include <sched.h>
#endif

#include "CInkwellThreads.h"

#include <stdatomic.h>
#include <stdlib.h>

struct inkwell_spread {
  int workers;
  // How many workers' processors are recorded: at most `RECORDED_WORKERS`, more than a machine has
  // processors that the affinity calls here can name; later workers are counted only.
  int recorded;
  atomic_int started;
  atomic_int moves;
  // The processor of each started worker in the order they started, −1 until it is known.
  atomic_int cpus[];
};

enum { RECORDED_WORKERS = 1024 };

// How many times a worker making way yields while the others have not started.
enum { FIRST_WORKER_YIELDS = 4 };

inkwell_spread *inkwell_spread_create(int workers) {
  if (workers < 1) workers = 1;
  const int recorded = workers < RECORDED_WORKERS ? workers : RECORDED_WORKERS;
  inkwell_spread *spread = malloc(sizeof(inkwell_spread) + (size_t)recorded * sizeof(atomic_int));
  if (!spread) return NULL;
  spread->workers = workers;
  spread->recorded = recorded;
  atomic_init(&spread->started, 0);
  atomic_init(&spread->moves, 0);
  for (int i = 0; i < recorded; i++) atomic_init(&spread->cpus[i], -1);
  return spread;
}

void inkwell_spread_destroy(inkwell_spread *spread) { free(spread); }

int inkwell_spread_started(const inkwell_spread *spread) {
  return spread ? atomic_load_explicit(&spread->started, memory_order_acquire) : 0;
}

int inkwell_spread_moves(const inkwell_spread *spread) {
  return spread ? atomic_load_explicit(&spread->moves, memory_order_relaxed) : 0;
}

int inkwell_spread_processor(const inkwell_spread *spread, int order) {
  if (!spread || order < 0 || order >= spread->recorded) return -1;
  return atomic_load_explicit(&spread->cpus[order], memory_order_acquire);
}

int inkwell_spread_join(inkwell_spread *spread) {
  const int order = inkwell_spread_start(spread);
  if (order == 0) inkwell_spread_make_way(spread);
  return order;
}

#if defined(__linux__)

// Whether a worker started before `order` runs on `cpu`.
static int taken(const inkwell_spread *spread, int order, int cpu) {
  for (int i = 0; i < order; i++) {
    if (atomic_load_explicit(&spread->cpus[i], memory_order_acquire) == cpu) return 1;
  }
  return 0;
}

// Moves the calling thread to an allowed processor that no worker started before `order` uses,
// then gives it its affinity back; returns where it runs.
static int move_to_free_processor(inkwell_spread *spread, int order, int cpu) {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return cpu;
  for (int candidate = 0; candidate < CPU_SETSIZE; candidate++) {
    if (!CPU_ISSET(candidate, &allowed) || candidate == cpu || taken(spread, order, candidate)) continue;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(candidate, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) return cpu;
    sched_setaffinity(0, sizeof allowed, &allowed);
    atomic_fetch_add_explicit(&spread->moves, 1, memory_order_relaxed);
    int now = sched_getcpu();
    return now >= 0 ? now : candidate;
  }
  return cpu;
}

int inkwell_allowed_processors(void) {
  cpu_set_t allowed;
  return sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : 0;
}

int inkwell_spread_start(inkwell_spread *spread) {
  if (!spread) return 0;
  const int order = atomic_fetch_add_explicit(&spread->started, 1, memory_order_acq_rel);
  if (order >= spread->recorded) return order;
  int cpu = sched_getcpu();
  if (cpu >= 0 && taken(spread, order, cpu)) cpu = move_to_free_processor(spread, order, cpu);
  atomic_store_explicit(&spread->cpus[order], cpu, memory_order_release);
  return order;
}

void inkwell_spread_make_way(const inkwell_spread *spread) {
  if (!spread) return;
  for (int k = 0; k < FIRST_WORKER_YIELDS; k++) {
    if (atomic_load_explicit(&spread->started, memory_order_acquire) >= spread->workers) return;
    sched_yield();
  }
}

#else

int inkwell_allowed_processors(void) { return 0; }

int inkwell_spread_start(inkwell_spread *spread) {
  return spread ? atomic_fetch_add_explicit(&spread->started, 1, memory_order_acq_rel) : 0;
}

void inkwell_spread_make_way(const inkwell_spread *spread) { (void)spread; }

#endif
