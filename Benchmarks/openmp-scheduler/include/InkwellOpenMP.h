// InkwellOpenMP: parallel loops on the OpenMP runtime (libomp), for the scheduler benchmark only.
//
// Built with -fopenmp, an unsafe flag, so no target of the Inkwell library links this; the
// inkwell-omp-bench executable wraps it in a TileScheduler. When the package is built without
// libomp the loops run serially on the calling thread and inkwell_omp_available() returns 0.

#ifndef INKWELL_OPENMP_H
#define INKWELL_OPENMP_H

#ifdef __cplusplus
extern "C" {
#endif

/// Calls body(context, index) once for every index in [0, count) on up to `threads` threads,
/// handing out one index at a time to whichever thread is free (schedule(dynamic, 1)). Returns when
/// every call has returned.
void inkwell_omp_for_each(int count, int threads, void *context, void (*body)(void *context, int index));

/// Like inkwell_omp_for_each, with the indices split up front into one contiguous block per thread
/// (schedule(static)).
void inkwell_omp_for_each_static(int count, int threads, void *context,
                                 void (*body)(void *context, int index));

/// The calling thread's number in the innermost OpenMP parallel region, in [0, threads); 0 outside
/// one.
int inkwell_omp_thread_number(void);

/// The OpenMP specification the loops were compiled for (the _OPENMP date, e.g. 202011), or 0 when
/// they were compiled without OpenMP and run serially.
int inkwell_omp_available(void);

#ifdef __cplusplus
}
#endif

#endif
