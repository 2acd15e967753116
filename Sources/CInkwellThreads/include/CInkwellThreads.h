// Where a parallel render's threads run: what Swift cannot ask of Linux through its Glibc module
// (the calling thread's processor and its affinity, which need _GNU_SOURCE).

#ifndef CINKWELL_THREADS_H
#define CINKWELL_THREADS_H

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
/// was (so the system may move it again later). The first worker then yields its processor a few
/// times while the others have not started, so that one placed behind it gets to run and move.
/// Linux only; elsewhere it only counts.
int inkwell_spread_start(inkwell_spread *spread);

/// How many workers have started so far.
int inkwell_spread_started(const inkwell_spread *spread);

/// How many started workers moved to another processor (for tests and measurements).
int inkwell_spread_moves(const inkwell_spread *spread);

/// How many processors the calling thread may run on (its affinity), or 0 where the system does
/// not say.
int inkwell_allowed_processors(void);

#endif
