// OpenMP loops behind InkwellOpenMP.h. See the header for what each one promises.
//
// No <omp.h>: the Swift toolchain's clang does not ship it and the runtime's copy lives in an
// LLVM-versioned folder, so the one runtime function used is declared here (its signature is fixed
// by the OpenMP specification).

#include "InkwellOpenMP.h"

#ifdef _OPENMP
int omp_get_thread_num(void);
#endif

void inkwell_omp_for_each(int count, int threads, void *context, void (*body)(void *context, int index)) {
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
#endif
  for (int index = 0; index < count; index++) body(context, index);
  (void)threads;
}

void inkwell_omp_for_each_static(int count, int threads, void *context,
                                 void (*body)(void *context, int index)) {
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(threads)
#endif
  for (int index = 0; index < count; index++) body(context, index);
  (void)threads;
}

int inkwell_omp_thread_number(void) {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

int inkwell_omp_available(void) {
#ifdef _OPENMP
  return _OPENMP;
#else
  return 0;
#endif
}
