// Everything is in include/CViewModelKit.h (a C target needs one source file).
#include "CViewModelKit.h"
