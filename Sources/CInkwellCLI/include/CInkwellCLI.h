// Process-wide settings of the inkwell command that Swift cannot reach through Glibc.

#ifndef CINKWELL_CLI_H
#define CINKWELL_CLI_H

#include <stddef.h>

/// Asks the C library to keep freed blocks of up to `mapped_limit` bytes in the heap instead of
/// giving each back to the system, and to give the heap's free top back only past `trim_limit`
/// bytes. Returns 1 where it could (glibc), 0 elsewhere, where nothing changes.
int inkwell_cli_keep_freed_memory(size_t mapped_limit, size_t trim_limit);

#endif
