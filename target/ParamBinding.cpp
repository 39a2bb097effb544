//===- ParamBinding.cpp - A kernel parameter bound from outside -----------===//
#include "target/ParamBinding.h"

#include "llvm/ADT/STLExtras.h"

#include <cctype>

using namespace llvm;

namespace kcc {

std::string ParamBinding::valueText() const {
  return isInteger() ? std::to_string(integer()) : typeName();
}

std::string ParamBinding::str() const { return name + "=" + valueText(); }

/// A name as the kernel source can declare it: a letter or '_', then
/// letters, digits and '_'.
static bool isParamName(StringRef name) {
  if (name.empty() || !(std::isalpha((unsigned char)name[0]) || name[0] == '_'))
    return false;
  return all_of(name, [](char c) { return std::isalnum((unsigned char)c) || c == '_'; });
}

Expected<ParamBinding> ParamBinding::parse(StringRef text) {
  auto fail = [&](const Twine &why) -> Expected<ParamBinding> {
    return createStringError(inconvertibleErrorCode(),
                             "parameter '" + text + "': " + why);
  };
  if (!text.contains('='))
    return fail("write it NAME=VALUE");
  auto [rawName, rawValue] = text.split('=');
  StringRef name = rawName.trim(), value = rawValue.trim();
  if (!isParamName(name))
    return fail(name.empty() ? Twine("the name before '=' is missing")
                             : "'" + name + "' is not a parameter name");
  if (value.empty())
    return fail("the value after '=' is missing");
  ParamBinding b;
  b.name = name.str();
  int64_t integer;
  if (value.equals_insensitive("true"))
    b.value = int64_t(1);
  else if (value.equals_insensitive("false"))
    b.value = int64_t(0);
  else if (!value.getAsInteger(0, integer))
    b.value = integer;
  else if (isParamName(value))
    b.value = value.str();
  else
    return fail("'" + value + "' is neither an integer nor a type name");
  return b;
}

Expected<std::vector<ParamBinding>> parseParamBindings(ArrayRef<std::string> texts) {
  std::vector<ParamBinding> out;
  out.reserve(texts.size());
  for (const std::string &text : texts) {
    Expected<ParamBinding> b = ParamBinding::parse(text);
    if (!b)
      return b.takeError();
    out.push_back(std::move(*b));
  }
  return out;
}

std::vector<std::string> paramBindingTexts(ArrayRef<ParamBinding> params) {
  std::vector<std::string> out;
  out.reserve(params.size());
  for (const ParamBinding &p : params)
    out.push_back(p.str());
  return out;
}

const ParamBinding *findParamBinding(ArrayRef<ParamBinding> params, StringRef name) {
  for (const ParamBinding &p : llvm::reverse(params))
    if (p.name == name)
      return &p;
  return nullptr;
}

std::optional<int64_t> paramInteger(ArrayRef<ParamBinding> params, StringRef name) {
  const ParamBinding *b = findParamBinding(params, name);
  if (!b || !b->isInteger())
    return std::nullopt;
  return b->integer();
}

void setParamBinding(std::vector<ParamBinding> &params, ParamBinding binding) {
  eraseParamBinding(params, binding.name);
  params.push_back(std::move(binding));
}

void eraseParamBinding(std::vector<ParamBinding> &params, StringRef name) {
  llvm::erase_if(params, [&](const ParamBinding &p) { return p.name == name; });
}

} // namespace kcc
