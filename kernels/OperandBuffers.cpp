//===- OperandBuffers.cpp - Every operand given, all on one device --------===//
#include "kernels/OperandBuffers.h"
#include "runtime/Device.h"
#include "target/Error.h"

using namespace llvm;

namespace kcc::ops {

Error checkOperandBuffers(StringRef component, ArrayRef<NamedBuffer> operands) {
  for (const NamedBuffer &o : operands)
    if (!o.buffer)
      return makeError(component, o.name + " has no buffer");
  if (operands.empty())
    return Error::success();
  Device &device = operands.front().buffer->device();
  for (const NamedBuffer &o : operands.drop_front())
    if (&o.buffer->device() != &device)
      return makeError(component, o.name + " is on " + o.buffer->device().spec() + " but " +
                                      operands.front().name + " is on " + device.spec() +
                                      "; all operands must be on one device");
  return Error::success();
}

} // namespace kcc::ops
