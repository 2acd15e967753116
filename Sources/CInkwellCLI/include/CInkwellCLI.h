// Process-wide settings of the inkwell command that Swift cannot reach through Glibc.

#ifndef CINKWELL_CLI_H
#define CINKWELL_CLI_H

#include <stddef.h>

/// Asks the C library to keep freed blocks of up to `mapped_limit` bytes in the heap instead of
/// giving each back to the system, and to give the heap's free top back only past `trim_limit`
/// bytes. Returns 1 where it could (glibc), 0 elsewhere, where nothing changes.
int inkwell_cli_keep_freed_memory(size_t mapped_limit, size_t trim_limit);

/// From now on SIGINT and SIGTERM only ask the process to stop (`inkwell_cli_stop_signal` reports
/// which arrived first); a second one of either acts as it would have. Lets a batch finish the
/// documents it has started, so that none is left half written, and skip the rest. Call it on the
/// main thread before any other starts: it also unblocks the two signals there, where a parent
/// may have left them blocked.
void inkwell_cli_stop_on_signals(void);

/// The first of SIGINT and SIGTERM received since `inkwell_cli_stop_on_signals`, or 0.
int inkwell_cli_stop_signal(void);

#endif
