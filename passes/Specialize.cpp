//===- Specialize.cpp - Bind parameters and the target chip ---------------===//
//
// Kernels are written once with compile-time parameters; this pass turns one
// kernel source into the concrete kernel for one parameter set and one chip.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "passes/ConstantFold.h"
#include "target/ParamBinding.h"

#include "dialects/Tile/Layout.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"

namespace kcc {
#define GEN_PASS_DEF_TILESPECIALIZE
#include "passes/Passes.h.inc"
} // namespace kcc

using namespace mlir;
using namespace kcc;
using namespace kcc::tile;

namespace {

/// The bound value of every declared parameter.
struct Bindings {
  llvm::StringMap<int64_t> ints;
  llvm::StringMap<Type> types;
};

struct TileSpecializePass
    : public kcc::impl::TileSpecializeBase<TileSpecializePass> {
  using TileSpecializeBase::TileSpecializeBase;
  /// The compiler's way in: chip and parameters already typed.
  TileSpecializePass(Chip chip, std::vector<ParamBinding> params)
      : typedChip(chip), typedParams(std::move(params)) {}

  void runOnOperation() override;

private:
  /// The chip and the bindings: the typed ones when the pass was made with
  /// them, else the textual options (a pipeline string, kcc-opt) parsed here.
  /// `params` views the typed bindings, or `parsed`, which holds those
  /// read from the textual option.
  LogicalResult readInputs(ModuleOp module, Chip &chip,
                           ArrayRef<ParamBinding> &params,
                           std::vector<ParamBinding> &parsed);
  LogicalResult bind(ModuleOp module, Chip chip, ArrayRef<ParamBinding> params,
                     Bindings &bindings);

  std::optional<Chip> typedChip;
  std::optional<std::vector<ParamBinding>> typedParams;
};

} // namespace

/// MFMA K for a shape left to the target: the widest the chip's table has
/// for an M x M tile; 0 when the chip has no MFMA of that M (the layout's
/// verifier then names the shapes it has).
static int64_t defaultMfmaK(Chip chip, int64_t m, MfmaInputs inputs = MfmaInputs::float16) {
  int64_t k = 0;
  for (const MfmaShape &shape : mfmaShapesOf(chip, inputs))
    if (shape.m == m && shape.n == m)
      k = std::max<int64_t>(k, shape.k);
  return k;
}

/// Where a diagnostic about the pass's inputs from outside the source (the
/// chip, a parameter the kernel does not declare) points: the kernel, else
/// the first function. Never the module's own location, which the parser
/// gives line 0, so that the message names a line of the file.
static Location kernelLoc(ModuleOp module) {
  for (auto f : module.getOps<func::FuncOp>())
    if (f->hasAttr(TileDialect::kKernelAttrName))
      return f.getLoc();
  for (auto f : module.getOps<func::FuncOp>())
    return f.getLoc();
  return module.getLoc();
}

/// The same for a parameter: the kernel's first parameter declaration (the
/// list the message gives), else the kernel.
static Location paramDeclsLoc(ModuleOp module) {
  for (Operation &op : module.getBody()->getOperations())
    if (isa<ParamDeclOp, TypeParamDeclOp>(op))
      return op.getLoc();
  return kernelLoc(module);
}

LogicalResult TileSpecializePass::readInputs(ModuleOp module, Chip &chip,
                                             ArrayRef<ParamBinding> &params,
                                             std::vector<ParamBinding> &parsed) {
  if (typedChip) {
    chip = *typedChip;
  } else {
    std::optional<Chip> parsed = parseChip(this->chip);
    if (!parsed)
      return emitError(kernelLoc(module), this->chip.empty()
                                            ? "no target chip given"
                                            : "unsupported chip '" + this->chip + "'")
             << "; supported: " << supportedChipList();
    chip = *parsed;
  }
  if (typedParams) {
    params = *typedParams;
    return success();
  }
  std::vector<std::string> texts(this->params.begin(), this->params.end());
  llvm::Expected<std::vector<ParamBinding>> bindings = parseParamBindings(texts);
  if (!bindings)
    return emitError(paramDeclsLoc(module)) << llvm::toString(bindings.takeError());
  parsed = std::move(*bindings);
  params = parsed;
  return success();
}

/// "WM * WGM", "WGM * WGN * 64": a derived parameter's product, for
/// diagnostics.
static std::string productText(ParamDeclOp decl) {
  SmallVector<std::string> factors;
  for (Attribute a : decl.getProductAttr())
    factors.push_back(isa<FlatSymbolRefAttr>(a)
                          ? cast<FlatSymbolRefAttr>(a).getValue().str()
                          : std::to_string(cast<IntegerAttr>(a).getInt()));
  return llvm::join(factors, " * ");
}

LogicalResult TileSpecializePass::bind(ModuleOp module, Chip chip,
                                       ArrayRef<ParamBinding> params,
                                       Bindings &bindings) {
  MLIRContext *ctx = module.getContext();
  // A declaration's default on `chip` (its `on {CHIP = ...}`), else its own.
  StringRef chipName = getChipInfo(chip).name;
  auto chipDefault = [&](DictionaryAttr defaults, Attribute own) {
    if (defaults)
      if (Attribute a = defaults.get(chipName))
        return a;
    return own;
  };
  llvm::StringMap<ParamDeclOp> intDecls;
  llvm::StringMap<TypeParamDeclOp> typeDecls;
  for (auto decl : module.getOps<ParamDeclOp>())
    intDecls[decl.getSymName()] = decl;
  for (auto decl : module.getOps<TypeParamDeclOp>())
    typeDecls[decl.getSymName()] = decl;

  auto declaredList = [&]() {
    SmallVector<std::string> names;
    for (auto &e : intDecls)
      names.push_back(e.getKey().str());
    for (auto &e : typeDecls)
      names.push_back(e.getKey().str());
    llvm::sort(names);
    return names.empty() ? std::string("none") : llvm::join(names, ", ");
  };

  // Values given from outside the source (-D, an op's choice).
  llvm::StringMap<const ParamBinding *> given;
  for (const ParamBinding &param : params) {
    StringRef name = param.name;
    if (!intDecls.count(name) && !typeDecls.count(name))
      return emitError(paramDeclsLoc(module), "unknown parameter '")
             << name << "' (-D " << param.str() << "); this kernel declares: "
             << declaredList();
    if (given.count(name)) {
      Operation *decl = intDecls.count(name) ? intDecls[name].getOperation()
                                             : typeDecls[name].getOperation();
      return decl->emitError("parameter '") << name << "' is given twice";
    }
    given[name] = &param;
  }

  for (auto &entry : intDecls) {
    ParamDeclOp decl = entry.getValue();
    Type type = decl.getType();
    auto it = given.find(entry.getKey());
    if (decl.getProductAttr()) {
      if (it != given.end())
        return decl.emitError("parameter '")
               << entry.getKey() << "' is derived (" << productText(decl)
               << "); set those instead";
      continue; // computed below, once every parameter it names is bound
    }
    if (it != given.end()) {
      const ParamBinding &b = *it->second;
      bool fits = b.isInteger() &&
                  (!type.isInteger(1) || b.integer() == 0 || b.integer() == 1);
      if (!fits)
        return decl.emitError("parameter '")
               << entry.getKey() << "' is " << type << "; '" << b.valueText()
               << "' is not a valid value";
      bindings.ints[entry.getKey()] = b.integer();
    } else if (auto def = dyn_cast_or_null<IntegerAttr>(
                   chipDefault(decl.getChipDefaultsAttr(), decl.getDefaultValueAttr()))) {
      bindings.ints[entry.getKey()] =
          type.isInteger(1) ? (int64_t)def.getValue().getZExtValue()
                            : def.getInt();
    } else {
      return decl.emitError("parameter '")
             << entry.getKey() << "' has no default; give it a value (-D "
             << entry.getKey() << "=...)";
    }
  }
  // Derived parameters: products of bound (not derived) ones.
  for (auto &entry : intDecls) {
    ParamDeclOp decl = entry.getValue();
    ArrayAttr product = decl.getProductAttr();
    if (!product)
      continue;
    int64_t value = 1;
    for (Attribute a : product) {
      int64_t factor;
      if (auto sym = dyn_cast<FlatSymbolRefAttr>(a)) {
        auto d = intDecls.find(sym.getValue());
        if (d == intDecls.end() || d->getValue().getProductAttr() ||
            !d->getValue().getType().isInteger(64))
          return decl.emitError("parameter '")
                 << entry.getKey() << "' multiplies '" << sym.getValue()
                 << "', which is not an i64 parameter of its own";
        factor = bindings.ints[sym.getValue()];
      } else {
        factor = cast<IntegerAttr>(a).getInt();
      }
      value *= factor;
    }
    bindings.ints[entry.getKey()] = value;
  }
  for (auto &entry : typeDecls) {
    TypeParamDeclOp decl = entry.getValue();
    auto it = given.find(entry.getKey());
    if (it != given.end()) {
      const ParamBinding &b = *it->second;
      Type type;
      if (!b.isInteger()) {
        // A value that does not parse is reported once, below, in terms of
        // the parameter; the parser's own diagnostic would only confuse.
        ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
        type = parseType(b.typeName(), ctx);
      }
      if (!type || !llvm::is_contained(decl.getAllowedTypeList(), type))
        return decl.emitError("type parameter '")
               << entry.getKey() << "' must be " << decl.allowedTypesText()
               << ", not '" << b.valueText() << "'";
      bindings.types[entry.getKey()] = type;
    } else if (auto def = dyn_cast_or_null<TypeAttr>(
                   chipDefault(decl.getChipDefaultsAttr(), decl.getDefaultTypeAttr()))) {
      bindings.types[entry.getKey()] = def.getValue();
    } else {
      return decl.emitError("type parameter '")
             << entry.getKey() << "' has no default; give it a value (-D "
             << entry.getKey() << "=bf16)";
    }
  }
  return success();
}

void TileSpecializePass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  Chip targetChip;
  ArrayRef<ParamBinding> params;
  std::vector<ParamBinding> parsedParams;
  if (failed(readInputs(module, targetChip, params, parsedParams)))
    return signalPassFailure();
  Bindings bindings;
  if (failed(bind(module, targetChip, params, bindings)))
    return signalPassFailure();

  // Types and attributes: dimensions, element types, MFMA shapes.
  bool unknownName = false, badDim = false;
  std::string unknown, badDimText;
  auto resolveDims = [&](ArrayRef<int64_t> shape, ArrayRef<StringAttr> names,
                         SmallVectorImpl<int64_t> &out) {
    for (size_t i = 0; i < shape.size(); ++i) {
      StringRef name = names[i].getValue();
      if (name.empty()) {
        out.push_back(shape[i]);
        continue;
      }
      auto it = bindings.ints.find(name);
      if (it == bindings.ints.end()) {
        unknownName = true;
        unknown = name.str();
        out.push_back(1);
        continue;
      }
      if (it->second < 1) {
        badDim = true;
        badDimText = (name + " = " + Twine(it->second)).str();
        out.push_back(1);
        continue;
      }
      out.push_back(it->second);
    }
  };
  AttrTypeReplacer replacer;
  replacer.addReplacement([&](MfmaLayoutAttr attr) -> Attribute {
    if (attr.isResolved())
      return attr;
    return MfmaLayoutAttr::get(ctx, attr.getOperand(), attr.getM(), attr.getN(),
                               defaultMfmaK(targetChip, attr.getM()),
                               attr.getKFromAcc(), attr.getKWide());
  });
  replacer.addReplacement([&](DtypeParamType type) -> Type {
    auto it = bindings.types.find(type.getName());
    if (it == bindings.types.end()) {
      unknownName = true;
      unknown = type.getName().str();
      return type;
    }
    return it->second;
  });
  replacer.addReplacement([&](TileType type) -> Type {
    SmallVector<int64_t> shape;
    resolveDims(type.getShape(), type.getDimParams(), shape);
    SmallVector<StringAttr> none(shape.size(), StringAttr::get(ctx, ""));
    Type element = replacer.replace(type.getElementType());
    // An FP8 or i8 operand left to the target takes the chip's widest K of
    // its family, which only the tile knows (its element type, bound just
    // above); the generic replacement below gives every other MFMA layout
    // the 16-bit K.
    Attribute layout = type.getLayout();
    auto mfma = dyn_cast<MfmaLayoutAttr>(layout);
    bool int8 = element.isSignlessInteger(8);
    if (mfma && !mfma.isResolved() && mfma.getOperand() != MfmaOperand::acc &&
        (fp8FormatOf(element) || int8))
      layout = MfmaLayoutAttr::get(
          ctx, mfma.getOperand(), mfma.getM(), mfma.getN(),
          defaultMfmaK(targetChip, mfma.getM(), int8 ? MfmaInputs::int8 : MfmaInputs::float8),
          mfma.getKFromAcc(), mfma.getKWide());
    return TileType::get(ctx, shape, none, element, replacer.replace(layout));
  });
  replacer.addReplacement([&](LdsType type) -> Type {
    SmallVector<int64_t> shape;
    resolveDims(type.getShape(), type.getDimParams(), shape);
    SmallVector<StringAttr> none(shape.size(), StringAttr::get(ctx, ""));
    // pad and swizzle may name parameters.
    auto bindInt = [&](int64_t value, StringAttr param) {
      StringRef name = param.getValue();
      if (name.empty())
        return value;
      auto it = bindings.ints.find(name);
      if (it == bindings.ints.end()) {
        unknownName = true;
        unknown = name.str();
      } else if (it->second < 0) {
        badDim = true;
        badDimText = (name + " = " + Twine(it->second)).str();
      } else {
        return it->second;
      }
      return value;
    };
    int64_t pad = bindInt(type.getPad(), type.getPadParam());
    int64_t swizzle = bindInt(type.getSwizzle(), type.getSwizzleParam());
    StringAttr bound = StringAttr::get(ctx, ""); // no parameter left to bind
    // An order gated by an i1 parameter is kept when it is true.
    Type order = type.getOrder();
    if (order && bindInt(0, type.getOrderParam()) == 0 &&
        !type.getOrderParam().getValue().empty())
      order = {};
    if (order)
      order = replacer.replace(order);
    return LdsType::get(ctx, shape, none, replacer.replace(type.getElementType()),
                        pad, type.getStages(), bound, swizzle, bound, order,
                        order ? type.getOrderTranspose() : false, bound);
  });
  replacer.addReplacement([&](BufferType type) -> Type {
    return BufferType::get(ctx, replacer.replace(type.getElementType()));
  });
  replacer.addReplacement([&](PtrType type) -> Type {
    return PtrType::get(ctx, replacer.replace(type.getElementType()));
  });

  // Values.
  SmallVector<ParamOp> uses;
  module.walk([&](ParamOp op) { uses.push_back(op); });
  for (ParamOp op : uses) {
    OpBuilder builder(op);
    Type type = op.getType();
    int64_t value = bindings.ints.lookup(op.getName());
    Attribute attr = type.isIndex() ? (Attribute)builder.getIndexAttr(value)
                                    : builder.getIntegerAttr(type, value);
    Value c = arith::ConstantOp::create(builder, op.getLoc(), cast<TypedAttr>(attr));
    op.replaceAllUsesWith(c);
    op.erase();
  }

  // Take the branches that the parameters decide: an scf.if whose condition
  // folds to a constant is replaced by the region it would run, so code for
  // other parameter values (an instruction the chip lacks, say) is gone
  // before it is verified. Nothing else is folded or erased: the output
  // stays the kernel as written.
  SmallVector<scf::IfOp> ifs;
  module.walk<WalkOrder::PreOrder>([&](scf::IfOp op) { ifs.push_back(op); });
  llvm::SmallPtrSet<Operation *, 8> erased;
  for (scf::IfOp op : ifs) {
    if (erased.count(op))
      continue;
    std::optional<int64_t> folded = foldToConstant(op.getCondition());
    if (!folded)
      continue;
    bool cond = *folded != 0;
    Region &taken = cond ? op.getThenRegion() : op.getElseRegion();
    // Whatever sits in the other region goes with it.
    Region &dropped = cond ? op.getElseRegion() : op.getThenRegion();
    dropped.walk([&](Operation *inner) { erased.insert(inner); });
    if (taken.empty()) {
      op.erase();
      continue;
    }
    Block &block = taken.front();
    auto yield = cast<scf::YieldOp>(block.getTerminator());
    SmallVector<Value> results(yield.getOperands());
    yield.erase();
    op->getBlock()->getOperations().splice(Block::iterator(op),
                                           block.getOperations());
    op.replaceAllUsesWith(results);
    op.erase();
  }

  // Check every value's type before replacing, so a bad value is reported
  // at the op (or block) that holds it.
  auto checkType = [&](Type original, auto emit) -> bool {
    unknownName = false;
    badDim = false;
    Type t = replacer.replace(original);
    if (unknownName) {
      emit() << "uses undeclared parameter '" << unknown << "'";
      return false;
    }
    if (badDim) {
      emit() << "needs a positive dimension (a non-negative pad), but "
             << badDimText;
      return false;
    }
    if (auto tile = dyn_cast<TileType>(t)) {
      std::string why;
      if (!LayoutMap::get(tile, &why)) {
        emit() << "with the bound parameters, " << why;
        return false;
      }
    }
    return true;
  };
  WalkResult checked = module.walk([&](Operation *op) -> WalkResult {
    for (Value v : op->getResults())
      if (!checkType(v.getType(), [&] { return op->emitOpError(); }))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (!checkType(arg.getType(), [&] {
                return op->emitOpError("argument #") << arg.getArgNumber() << " ";
              }))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (checked.wasInterrupted())
    return signalPassFailure();
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);

  // A kernel's workgroup size and waves per SIMD may be parameters too:
  // tile.block_size = @NAME, tile.waves_per_simd = @NAME.
  for (auto func : module.getOps<func::FuncOp>()) {
    for (StringRef attrName :
         {TileDialect::kBlockSizeAttrName, TileDialect::kWavesPerSimdAttrName}) {
      auto ref = func->getAttrOfType<FlatSymbolRefAttr>(attrName);
      if (!ref)
        continue;
      auto it = bindings.ints.find(ref.getValue());
      if (it == bindings.ints.end()) {
        func.emitOpError() << attrName << " names '" << ref.getValue()
                           << "', which is not an integer parameter";
        return signalPassFailure();
      }
      if (attrName == TileDialect::kWavesPerSimdAttrName &&
          (it->second < 1 || it->second > 8)) {
        func.emitOpError() << attrName << " = @" << ref.getValue() << " is "
                           << it->second << "; it must be from 1 to 8";
        return signalPassFailure();
      }
      func->setAttr(attrName, OpBuilder(ctx).getI64IntegerAttr(it->second));
    }
  }

  // Record what was bound, then drop the declarations.
  SmallVector<NamedAttribute> bound;
  OpBuilder builder(ctx);
  for (auto &e : bindings.ints)
    bound.push_back(builder.getNamedAttr(e.getKey(), builder.getI64IntegerAttr(e.getValue())));
  for (auto &e : bindings.types)
    bound.push_back(builder.getNamedAttr(e.getKey(), TypeAttr::get(e.getValue())));
  module->setAttr("tile.params", builder.getDictionaryAttr(bound));
  module->setAttr(TileDialect::kTargetAttrName,
                  TargetAttr::get(ctx, getChipInfo(targetChip).name));
  for (auto decl : llvm::make_early_inc_range(module.getOps<ParamDeclOp>()))
    decl.erase();
  for (auto decl : llvm::make_early_inc_range(module.getOps<TypeParamDeclOp>()))
    decl.erase();
}

std::unique_ptr<Pass> kcc::createTileSpecialize(Chip chip,
                                                std::vector<ParamBinding> params) {
  return std::make_unique<TileSpecializePass>(chip, std::move(params));
}
