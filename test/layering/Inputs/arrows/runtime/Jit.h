#include "passes/ParamBinding.h"
