#include "target/Target.h"
#include "compiler/Target.h"
