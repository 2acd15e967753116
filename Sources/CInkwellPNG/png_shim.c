#include "CInkwellPNG.h"
