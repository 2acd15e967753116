// Where a parallel render's threads run: what Swift cannot ask of Linux through its Glibc module
// (the calling thread's processor and its affinity, which need _GNU_SOURCE); and each thread's
// scratch memory, which Swift has no thread-local storage to keep.

#ifndef CINKWELL_THREADS_H
#define CINKWELL_THREADS_H

#include <stddef.h>

/// The processors the workers of one parallel call have started on, so that a worker that starts
/// on a processor another already uses can move to one that none does (see
/// `inkwell_spread_start`). Made by `inkwell_spread_create`, one per call, shared by its workers.
typedef struct inkwell_spread inkwell_spread;

/// A record for up to `workers` workers, or NULL where memory is short (the workers then run
/// where the system puts them).
inkwell_spread *inkwell_spread_create(int workers);

void inkwell_spread_destroy(inkwell_spread *spread);

/// Called by each worker as it starts, before its first job; returns how many workers had started
/// before it. A worker on the processor of one started before it moves to an allowed processor
/// that no started worker uses, if there is one, and its affinity is then set back to what it
/// was (so the system may move it again later). Linux only; elsewhere it only counts.
int inkwell_spread_start(inkwell_spread *spread);

/// Yields the calling worker's processor a few times while not every worker has started, so that
/// one placed behind it gets to run (and, in `inkwell_spread_start`, move). The first worker calls
/// it before its first job. Where nothing waits behind it, each yield returns at once: renders of
/// 0.2–0.5 ms back to back on two threads took the same time with it, within the machine's noise,
/// and called after the first job instead, it left the worker waiting that job longer (notes on
/// two threads after 50 ms idle: 4.1–4.7 ms against 3.7–4.1). Linux only; elsewhere it does
/// nothing.
void inkwell_spread_make_way(const inkwell_spread *spread);

/// What each worker of a parallel call does as it starts, before its first job:
/// `inkwell_spread_start`, then, for the first worker, `inkwell_spread_make_way`. Returns how
/// many workers had started before it.
int inkwell_spread_join(inkwell_spread *spread);

/// How many workers have started so far.
int inkwell_spread_started(const inkwell_spread *spread);

/// How many started workers moved to another processor (for tests and measurements).
int inkwell_spread_moves(const inkwell_spread *spread);

/// The processor the worker that started `order`-th recorded (after any move), or −1 where none
/// is known (not started, not recorded, or not Linux).
int inkwell_spread_processor(const inkwell_spread *spread, int order);

/// How many processors the calling thread may run on (its affinity), or 0 where the system does
/// not say.
int inkwell_allowed_processors(void);

/// The most bytes `inkwell_thread_scratch` keeps for a thread: 1 MiB, a pen stroke of about seven
/// thousand samples. A larger request is the caller's to allocate (and free) itself.
#define INKWELL_THREAD_SCRATCH_LIMIT ((size_t)1 << 20)

/// At least `bytes` bytes of memory, aligned to 64 bytes, that belong to the calling thread: the
/// same block each call while it is large enough, a larger one (the contents not kept) when it
/// is not, freed when the thread exits. Valid until the thread's next call; for work that needs
/// the memory only while one function runs and calls no other user of it. NULL when `bytes`
/// exceeds `INKWELL_THREAD_SCRATCH_LIMIT` or memory is short.
void *inkwell_thread_scratch(size_t bytes);

#endif
