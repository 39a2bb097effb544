#include "runtime/Device.h"
#include "llvm/Support/Error.h"
