#include "runtime/CodeObject.h"
