//===- CompileForTest.h - The e2e tests' way to compile a kernel -*- C++ -*-===//
//
// Every end-to-end test compiles tile-dialect source for one chip with some
// parameter bindings and needs, on failure, the compiler's diagnostics in
// the assertion's message: one call instead of options, bindings, a
// diagnostics stream and the stage in every test.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TEST_E2E_COMPILEFORTEST_H
#define KCC_TEST_E2E_COMPILEFORTEST_H

#include "compiler/Pipeline.h"
#include "target/ParamBinding.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kcc::e2e {

/// `source` (named `bufferName` in diagnostics) compiled for `chip` with
/// the bindings `params` ("NAME=VALUE", as -D takes them) to a code object.
/// A failure's error carries the compiler's diagnostics.
inline llvm::Expected<std::vector<uint8_t>>
compileForTest(llvm::StringRef source, llvm::StringRef bufferName, Chip chip,
               llvm::ArrayRef<std::string> params = {}) {
  CompileOptions options;
  options.chip = chip;
  auto bindings = parseParamBindings(params);
  if (!bindings)
    return bindings.takeError();
  options.params = *bindings;
  std::string diags;
  llvm::raw_string_ostream ds(diags);
  auto hsaco = compileKernelSource(source, bufferName, options, Stage::Hsaco, ds);
  if (!hsaco)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   llvm::toString(hsaco.takeError()) + "\n" + diags);
  return hsaco;
}

} // namespace kcc::e2e

#endif // KCC_TEST_E2E_COMPILEFORTEST_H
