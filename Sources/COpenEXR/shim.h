// The OpenEXR core C API (OpenEXRCore, part of OpenEXR 3): no C++ needed. Included by its
// directory so that no pkg-config flags are needed (OpenEXR.pc adds -pthread, which SwiftPM
// refuses).
#include <OpenEXR/openexr.h>
