#include "compiler/Target.h"
