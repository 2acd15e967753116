// Files that have no name until they are complete, for the atomic writer (Sources/Inkwell/Output).
// Linux's O_TMPFILE is not imported into Swift's Glibc module, and naming such a file goes through
// /proc, so both live here.

#ifndef CINKWELL_OUTPUT_H
#define CINKWELL_OUTPUT_H

/// An unnamed regular file in `directory`, open for writing with permissions `mode`: a descriptor,
/// or -1 with errno where the system or the file system makes none (then nothing was created).
/// Until it is named the file is not in the directory, and the system reclaims it whenever the
/// process ends, killed or not.
int inkwell_open_unnamed(const char *directory, unsigned mode);

/// Gives the unnamed file open as `descriptor` the name `path`, which must not exist: 0, or -1
/// with errno (EEXIST when it does exist).
int inkwell_name_unnamed(int descriptor, const char *path);

#endif
