#include "kernels/EmbeddedKernels.h"
