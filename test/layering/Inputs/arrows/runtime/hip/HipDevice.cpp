#include "runtime/emu/Emulator.h"
