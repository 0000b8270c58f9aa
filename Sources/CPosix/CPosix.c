#include "CPosix.h"
