#include "runtime/emu/Observer.h"
