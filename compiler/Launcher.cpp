//===- Launcher.cpp - The C launcher of a code object ---------------------===//
#include "compiler/Launcher.h"
#include "target/CodeObject.h"
#include "target/Error.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace kcc {

std::string cIdentifier(StringRef text) {
  std::string id;
  for (char c : text)
    id += (isAlnum(c) || c == '_') ? c : '_';
  if (id.empty() || isDigit(id[0]))
    id = "_" + id;
  return id;
}

namespace {

/// One argument of a launch function: its C parameter and kcc_arg.
struct CArgument {
  std::string type, name, kind, field;
};

/// C's keywords and the launch function's own parameters, which an
/// argument name must not take.
bool reserved(StringRef name) {
  static const char *const words[] = {
      "auto", "break", "case", "char", "const", "continue", "default", "do",
      "double", "else", "enum", "extern", "float", "for", "goto", "if",
      "inline", "int", "long", "register", "restrict", "return", "short",
      "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
      "unsigned", "void", "volatile", "while", "device", "stream", "grid",
      "block", "module", "args"};
  for (const char *w : words)
    if (name == w)
      return true;
  return false;
}

Expected<std::vector<CArgument>> cArguments(const KernelInfo &kernel,
                                            const KernelSignature *signature) {
  std::vector<const KernelArg *> slots = kernel.explicitArgs();
  // The source's names and float types, when it declares as many arguments
  // as the code object has (it always does for kcc's own compiles).
  bool named = signature && signature->arguments.size() == slots.size();
  std::vector<CArgument> out;
  StringSet<> taken;
  for (size_t i = 0; i < slots.size(); ++i) {
    const KernelArg &slot = *slots[i];
    CArgument a;
    std::string name = named ? signature->arguments[i].name : "";
    if (name.empty())
      name = slot.name.empty() ? "arg" + std::to_string(i) : slot.name;
    a.name = cIdentifier(name);
    if (reserved(a.name) || taken.count(a.name))
      a.name += "_" + std::to_string(i);
    taken.insert(a.name);
    bool isFloat = named && signature->arguments[i].isFloat;
    std::string what = "argument " + std::to_string(i) + " ('" + name +
                       "') of kernel '" + kernel.name + "'";
    if (slot.kind == ArgKind::GlobalBuffer) {
      a.type = "kcc_devptr";
      a.kind = "KCC_ARG_POINTER";
      a.field = "pointer";
    } else if (slot.kind == ArgKind::ByValue && (slot.size == 4 || slot.size == 8)) {
      bool wide = slot.size == 8;
      a.type = isFloat ? (wide ? "double" : "float") : (wide ? "int64_t" : "int32_t");
      a.kind = isFloat ? (wide ? "KCC_ARG_F64" : "KCC_ARG_F32")
                       : (wide ? "KCC_ARG_I64" : "KCC_ARG_I32");
      a.field = isFloat ? (wide ? "f64" : "f32") : (wide ? "i64" : "i32");
    } else {
      return makeError(what + " is a " + Twine(slot.size) + "-byte '" +
                       slot.valueKind + "' argument; launchers pass pointers "
                       "and 4- or 8-byte values");
    }
    out.push_back(std::move(a));
  }
  return out;
}

} // namespace

Expected<LauncherFiles> writeLauncher(StringRef name,
                                      ArrayRef<uint8_t> codeObject,
                                      ArrayRef<KernelSignature> signatures,
                                      StringRef origin) {
  Expected<CodeObject> co = CodeObject::parse(codeObject);
  if (!co)
    return co.takeError();
  if (co->kernels().empty())
    return makeError("the code object has no kernel to launch");
  std::string id = cIdentifier(name);
  std::string chip = co->chip() ? getChipInfo(*co->chip()).name.str()
                                : co->machineName().str();
  LauncherFiles files;
  raw_string_ostream h(files.header), c(files.source);
  std::string guard = "KCC_LAUNCHER_" + StringRef(id).upper() + "_H";
  h << "/* " << id << ".h: launchers of " << origin
    << ", written by kcc --emit=launcher.\n"
    << " * Build with " << id << ".c and -lkcc_c (pkg-config kcc-c). */\n"
    << "#ifndef " << guard << "\n#define " << guard << "\n\n"
    << "#include \"kcc_c.h\"\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
    << "/* The code object, for " << chip << ". */\n"
    << "extern const unsigned char " << id << "_code_object[];\n"
    << "extern const size_t " << id << "_code_object_size;\n"
    << "#define " << StringRef(id).upper() << "_CHIP \"" << chip << "\"\n";

  c << "/* " << id << ".c: written by kcc --emit=launcher from " << origin
    << ". */\n#include \"" << id << ".h\"\n\n"
    << "const unsigned char " << id << "_code_object[] = {";
  for (size_t i = 0; i < codeObject.size(); ++i)
    c << (i % 16 ? " " : "\n    ") << format("0x%02x", codeObject[i]) << ",";
  c << "\n};\nconst size_t " << id << "_code_object_size = sizeof(" << id
    << "_code_object);\n";

  for (const KernelInfo &kernel : co->kernels()) {
    const KernelSignature *signature = nullptr;
    for (const KernelSignature &s : signatures)
      if (s.name == kernel.name)
        signature = &s;
    Expected<std::vector<CArgument>> args = cArguments(kernel, signature);
    if (!args)
      return args.takeError();
    std::string fn = id + "_" + cIdentifier(kernel.name) + "_launch";
    std::string params = "kcc_device *device, kcc_stream stream, kcc_dim3 grid, "
                         "kcc_dim3 block";
    for (const CArgument &a : *args)
      params += ", " + a.type + " " + a.name;
    h << "\n/* Runs kernel '" << kernel.name << "' on `device` (the code object "
      << "is loaded there on first use)\n * and waits for it: grid in "
      << "workgroups, block in work-items";
    if (kernel.reqdWorkgroupSize)
      h << " (it requires " << (*kernel.reqdWorkgroupSize)[0] << "x"
        << (*kernel.reqdWorkgroupSize)[1] << "x" << (*kernel.reqdWorkgroupSize)[2]
        << ")";
    h << ". Returns 0, or -1\n * with kcc_last_error(). */\nint " << fn << "("
      << params << ");\n";
    c << "\nint " << fn << "(" << params << ") {\n"
      << "  kcc_module *module;\n"
      << "  if (kcc_module_load_cached(device, " << id << "_code_object, " << id
      << "_code_object_size, &module))\n    return -1;\n";
    if (args->empty()) {
      c << "  return kcc_launch(module, \"" << kernel.name
        << "\", stream, grid, block, NULL, 0);\n}\n";
      continue;
    }
    c << "  kcc_arg args[" << args->size() << "];\n";
    for (size_t i = 0; i < args->size(); ++i)
      c << "  args[" << i << "].kind = " << (*args)[i].kind << ";\n  args[" << i
        << "].value." << (*args)[i].field << " = " << (*args)[i].name << ";\n";
    c << "  return kcc_launch(module, \"" << kernel.name
      << "\", stream, grid, block, args, " << args->size() << ");\n}\n";
  }
  h << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
  return files;
}

} // namespace kcc
