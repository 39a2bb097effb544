//===- ParamBinding.h - A kernel parameter bound from outside ---*- C++ -*-===//
//
// A kernel declares its compile-time parameters (`tile.param_decl`,
// `tile.type_param_decl`); their values come from outside its source: `-D
// NAME=VALUE` on kcc's command line, a keyword of kcc.compile, the tiles an
// op picks. Each is parsed once, where it is written, into a typed binding
// (an integer or an element type's name); the specialization pass checks it
// against the parameter's declaration, and the ops that inspect their
// parameters look them up by name (findParamBinding): no part of kcc reads
// NAME=VALUE text again. Here, on the floor (no MLIR), so that the compiler,
// the JIT's public header (runtime/Jit.h) and the ops all take the same
// bindings.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TARGET_PARAMBINDING_H
#define KCC_TARGET_PARAMBINDING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace kcc {

struct ParamBinding {
  std::string name;
  /// An integer (`true` and `false` are 1 and 0, as i1 parameters take
  /// them), or the name of an element type (`bf16`) for a type parameter.
  std::variant<int64_t, std::string> value;

  bool isInteger() const { return std::holds_alternative<int64_t>(value); }
  int64_t integer() const { return std::get<int64_t>(value); }
  const std::string &typeName() const { return std::get<std::string>(value); }

  /// The value as written back: "64", "bf16".
  std::string valueText() const;
  /// NAME=VALUE in one canonical spelling (cache keys, messages).
  std::string str() const;

  /// Parses NAME=VALUE (spaces around either side ignored; integers in
  /// decimal or with a 0x prefix). The error says what is wrong with `text`.
  static llvm::Expected<ParamBinding> parse(llvm::StringRef text);
};

/// Parses each NAME=VALUE of `texts`; the first malformed one is the error.
llvm::Expected<std::vector<ParamBinding>>
parseParamBindings(llvm::ArrayRef<std::string> texts);

/// The canonical spelling of each binding, in order.
std::vector<std::string> paramBindingTexts(llvm::ArrayRef<ParamBinding> params);

/// The binding of `name` in `params`: the last one, as with -D, where a
/// later binding of a name replaces an earlier one; null when there is none.
const ParamBinding *findParamBinding(llvm::ArrayRef<ParamBinding> params,
                                     llvm::StringRef name);

/// The integer that `name` is bound to in `params`, if it is bound to one.
std::optional<int64_t> paramInteger(llvm::ArrayRef<ParamBinding> params,
                                    llvm::StringRef name);

/// Binds `binding.name` in `params`: every earlier binding of the name goes,
/// and `binding` comes last (where -D would put a later one).
void setParamBinding(std::vector<ParamBinding> &params, ParamBinding binding);

/// Removes every binding of `name` from `params`.
void eraseParamBinding(std::vector<ParamBinding> &params, llvm::StringRef name);

} // namespace kcc

#endif // KCC_TARGET_PARAMBINDING_H
