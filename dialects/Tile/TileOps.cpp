//===- TileOps.cpp - Operations of the tile dialect -----------------------===//
//
// Verifiers check what the IR itself can tell; checks that need the target
// (which MFMA shapes and LDS instructions exist) run once the module names its
// chip (`tile.chip`, set by tile-specialize), so the same kernel source
// verifies for every chip and is rejected, at the op, for the wrong one.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/Layout.h"
#include "dialects/Tile/TileDialect.h"

#include "target/Target.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace kcc::tile;

/// `[valu, salu]` <-> the sched_barrier mask (bits of SchedGroupKind).
static ParseResult parseSchedKinds(OpAsmParser &parser, IntegerAttr &mask) {
  int32_t bits = 0;
  auto parseKind = [&]() -> ParseResult {
    StringRef name;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&name))
      return failure();
    std::optional<SchedGroupKind> kind = symbolizeSchedGroupKind(name);
    if (!kind)
      return parser.emitError(loc, "unknown instruction class '")
             << name << "'; expected alu, valu, salu, mfma, vmem, vmem_read, "
                        "vmem_write, ds, ds_read, ds_write or trans";
    bits |= static_cast<int32_t>(*kind);
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseKind))
    return failure();
  mask = parser.getBuilder().getI32IntegerAttr(bits);
  return success();
}

static void printSchedKinds(OpAsmPrinter &printer, Operation *, IntegerAttr mask) {
  printer << "[";
  bool first = true;
  for (int32_t bit = 1; bit <= 1024; bit <<= 1) {
    if (!(mask.getInt() & bit))
      continue;
    printer << (first ? "" : ", ")
            << stringifySchedGroupKind(static_cast<SchedGroupKind>(bit));
    first = false;
  }
  printer << "]";
}

#define GET_OP_CLASSES
#include "dialects/Tile/TileOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static bool sameShape(TileType a, TileType b) {
  return a.getShape() == b.getShape() && a.getDimParams() == b.getDimParams();
}

static bool sameShapeAndLayout(TileType a, TileType b) {
  return sameShape(a, b) && a.getLayout() == b.getLayout();
}

/// The chip of the enclosing module, once specialised.
static std::optional<kcc::Chip> chipOf(Operation *op) {
  if (TargetAttr target = getModuleTarget(op))
    return target.getChipKind();
  return std::nullopt;
}

static bool is16BitFloat(Type t) { return t.isBF16() || t.isF16(); }

static LogicalResult verifyBounds(Operation *op, Value rows, Value cols) {
  if ((rows == nullptr) != (cols == nullptr))
    return op->emitOpError("needs both row and column bounds, or neither");
  return success();
}

static LogicalResult verifyElementMatch(Operation *op, Type memory, Type tile,
                                        StringRef what) {
  if (memory != tile)
    return op->emitOpError() << what << " holds " << memory
                             << " but the tile holds " << tile;
  return success();
}

//===----------------------------------------------------------------------===//
// Parameters
//===----------------------------------------------------------------------===//

/// Checks `on {CHIP = VALUE}`: every key a chip kcc supports, every value
/// accepted by `valueOk` (whose message follows the chip's name).
static LogicalResult
verifyChipDefaults(Operation *op, DictionaryAttr defaults,
                   llvm::function_ref<std::optional<std::string>(Attribute)> valueOk) {
  if (!defaults)
    return success();
  for (NamedAttribute entry : defaults) {
    if (!kcc::parseChip(entry.getName().getValue()))
      return op->emitOpError("'on' names chips (")
             << kcc::supportedChipList() << "); got '" << entry.getName().getValue() << "'";
    if (std::optional<std::string> bad = valueOk(entry.getValue()))
      return op->emitOpError("the default on ") << entry.getName().getValue() << " " << *bad;
  }
  return success();
}

LogicalResult ParamDeclOp::verify() {
  Type type = getType();
  if (!type.isSignlessInteger() && !type.isIndex())
    return emitOpError("parameters are signless integers (i1 for flags); got ")
           << type;
  if (auto def = getDefaultValueAttr())
    if (def.getType() != type)
      return emitOpError("default value ")
             << def << " does not have the parameter's type " << type;
  if (failed(verifyChipDefaults(*this, getChipDefaultsAttr(),
                                [&](Attribute a) -> std::optional<std::string> {
                                  auto i = dyn_cast<IntegerAttr>(a);
                                  if (i && i.getType() == type)
                                    return std::nullopt;
                                  std::string text;
                                  llvm::raw_string_ostream os(text);
                                  os << a << " does not have the parameter's type " << type;
                                  return text;
                                })))
    return failure();
  if (getChipDefaultsAttr() && getProductAttr())
    return emitOpError("a derived parameter (product) has no per-chip defaults");
  if (ArrayAttr product = getProductAttr()) {
    if (getDefaultValueAttr())
      return emitOpError("a derived parameter (product) has no default value");
    if (!type.isInteger(64))
      return emitOpError("a derived parameter (product) is i64; got ") << type;
    if (product.empty())
      return emitOpError("the product is empty");
    for (Attribute a : product)
      if (!isa<FlatSymbolRefAttr>(a) && !isa<IntegerAttr>(a))
        return emitOpError("the product's factors are parameters (@NAME) or "
                           "integers; got ")
               << a;
  }
  return success();
}

/// What -D can bind an element type to: the 16- and 32-bit floats, the
/// FP8 formats (whether the chip has the format is checked once the module
/// names it), and i8 and i32 (int8 MFMA inputs and their accumulators).
static bool isParamElementType(Type t) {
  return t.isBF16() || t.isF16() || t.isF32() || fp8FormatOf(t) || t.isSignlessInteger(8) ||
         t.isSignlessInteger(32);
}

SmallVector<Type> TypeParamDeclOp::getAllowedTypeList() {
  SmallVector<Type> types;
  if (ArrayAttr allowed = getAllowedTypesAttr()) {
    for (Attribute a : allowed)
      types.push_back(cast<TypeAttr>(a).getValue());
    return types;
  }
  MLIRContext *ctx = getContext();
  return {BFloat16Type::get(ctx), Float16Type::get(ctx), Float32Type::get(ctx)};
}

std::string TypeParamDeclOp::allowedTypesText() {
  std::string text;
  llvm::raw_string_ostream os(text);
  SmallVector<Type> types = getAllowedTypeList();
  for (size_t i = 0; i < types.size(); ++i)
    os << (i == 0 ? "" : i + 1 == types.size() ? " or " : ", ") << types[i];
  return text;
}

LogicalResult TypeParamDeclOp::verify() {
  if (failed(verifyChipDefaults(*this, getChipDefaultsAttr(),
                                [&](Attribute a) -> std::optional<std::string> {
                                  auto t = dyn_cast<TypeAttr>(a);
                                  if (t && llvm::is_contained(getAllowedTypeList(),
                                                              t.getValue()))
                                    return std::nullopt;
                                  std::string text;
                                  llvm::raw_string_ostream os(text);
                                  os << a << " is not one of the allowed types, "
                                     << allowedTypesText();
                                  return text;
                                })))
    return failure();
  if (ArrayAttr allowed = getAllowedTypesAttr()) {
    if (allowed.empty())
      return emitOpError("the list of allowed types is empty");
    for (Attribute a : allowed)
      if (!isParamElementType(cast<TypeAttr>(a).getValue()))
        return emitOpError("element-type parameters are bf16, f16, f32, an FP8 "
                           "format, i8 or i32 (as -D accepts); the allowed type ")
               << cast<TypeAttr>(a).getValue() << " is not";
  }
  if (auto def = getDefaultTypeAttr()) {
    Type t = def.getValue();
    if (!isParamElementType(t))
      return emitOpError("element-type parameters are bf16, f16, f32, an FP8 "
                         "format, i8 or i32 (as -D accepts); the default ")
             << t << " is not";
    if (!llvm::is_contained(getAllowedTypeList(), t))
      return emitOpError("the default ") << t << " is not one of the allowed types, "
                                         << allowedTypesText();
  }
  return success();
}

LogicalResult ParamOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto decl = symbolTable.lookupNearestSymbolFrom<ParamDeclOp>(*this, getNameAttr());
  if (!decl)
    return emitOpError("'") << getName()
                            << "' is not declared by a tile.param_decl";
  Type declared = decl.getType();
  Type result = getResult().getType();
  if (declared.isInteger(1) != result.isInteger(1))
    return emitOpError("parameter '")
           << getName() << "' is declared " << declared << " but used as "
           << result;
  return success();
}

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

LogicalResult MakeBufferOp::verify() {
  Type p = getPtr().getType().getElementType();
  Type b = getResult().getType().getElementType();
  if (p != b)
    return emitOpError("the pointer holds ")
           << p << " but the buffer holds " << b;
  return success();
}

LogicalResult LoadOp::verify() {
  if (failed(verifyBounds(*this, getBoundRows(), getBoundCols())))
    return failure();
  return verifyElementMatch(*this, getBuffer().getType().getElementType(),
                            getResult().getType().getElementType(),
                            "the buffer");
}

LogicalResult StoreOp::verify() {
  if (failed(verifyBounds(*this, getBoundRows(), getBoundCols())))
    return failure();
  return verifyElementMatch(*this, getBuffer().getType().getElementType(),
                            getValue().getType().getElementType(),
                            "the buffer");
}

//===----------------------------------------------------------------------===//
// LDS
//===----------------------------------------------------------------------===//

LogicalResult LdsAllocOp::verify() {
  // The type's own verifier ran when it was written; a swizzle or padding
  // bound by a parameter is checked again once specialisation resolved it.
  LdsType t = getType();
  if (!t.isResolved())
    return success();
  return LdsType::verify([&] { return emitOpError(); }, t.getShape(), t.getDimParams(),
                         t.getElementType(), t.getPad(), t.getStages(), t.getPadParam(),
                         t.getSwizzle(), t.getSwizzleParam(), t.getOrder(),
                         t.getOrderTranspose(), t.getOrderParam());
}

LogicalResult AsyncCopyOp::verify() {
  if (failed(verifyBounds(*this, getBoundRows(), getBoundCols())))
    return failure();
  if (getInbounds() && getBoundRows())
    return emitOpError("is either 'inbounds' (the block lies inside the buffer) "
                       "or bounded ('bounds'), not both");
  LdsType lds = getLds().getType();
  if (failed(verifyElementMatch(*this, getBuffer().getType().getElementType(),
                                lds.getElementType(), "the buffer")))
    return failure();
  int64_t width = getWidth();
  // gfx950's 12-byte DMA (dwordx3) writes its lanes 16 bytes apart in LDS,
  // as dwordx4 does (LLVM's notes on llvm.amdgcn.load.to.lds; the
  // emulator's lds_dma_x34_gfx950.s), so it cannot fill the dense block
  // this op copies into.
  if (width == 12)
    return emitOpError("LDS DMA of 12 bytes per lane writes its lanes 16 bytes apart in LDS "
                       "(as 16-byte DMA does), which leaves a dword of every 16 bytes of the "
                       "dense LDS block unwritten; use width = 4 or 16");
  if (width != 4 && width != 16)
    return emitOpError("LDS DMA moves 4 or 16 bytes per lane, not ") << width;
  std::optional<kcc::Chip> chip = chipOf(*this);
  if (chip && width != 4 && !kcc::getChipInfo(*chip).hasWideLdsDma)
    return emitOpError("LDS DMA of ")
           << width << " bytes per lane needs gfx950; "
           << kcc::getChipInfo(*chip).name << " moves 4 (use width = 4)";
  if (!lds.isResolved())
    return success();
  int64_t line = 64 * width;
  int64_t esize = elementBytes(lds.getElementType());
  int64_t rowBytes = lds.getCols() * esize;
  if (lds.getPad() != 0 && rowBytes % line != 0)
    return emitOpError("a padded LDS row must hold whole DMA lines of ")
           << line << " bytes (64 lanes x " << width << "); a row of "
           << lds.getCols() << " x " << lds.getElementType() << " is "
           << rowBytes << " bytes";
  if (lds.getPad() == 0 && (lds.getRows() * rowBytes) % line != 0)
    return emitOpError("the LDS stage (")
           << lds.getRows() * rowBytes
           << " bytes) must be a whole number of DMA lines of " << line
           << " bytes";
  return success();
}

LogicalResult WaitOp::verify() {
  if (!getVmcnt() && !getLgkmcnt())
    return emitOpError("waits on nothing; give vmcnt(N), lgkmcnt(N) or both");
  return success();
}

/// True when `v` is the constant 0.
static bool isZeroIndex(Value v) {
  IntegerAttr attr;
  return matchPattern(v, m_Constant(&attr)) && attr.getInt() == 0;
}

LogicalResult LdsLoadOp::verify() {
  TileType tile = getResult().getType();
  if (failed(verifyElementMatch(*this, getLds().getType().getElementType(),
                                tile.getElementType(), "the LDS buffer")))
    return failure();
  // A buffer stored in a tile's reading order holds that tile and nothing
  // else: only the read that order describes finds its elements.
  LdsType lds = getLds().getType();
  if (TileType order = lds.getOrderTile(); order && tile.isResolved() && order.isResolved()) {
    if (order != tile || lds.getOrderTranspose() != getTranspose())
      return emitOpError("reads ")
             << (getTranspose() ? "transposed " : "") << tile
             << " from a buffer stored in the order of "
             << (lds.getOrderTranspose() ? "transposed " : "") << order
             << ": such a buffer is read only as that tile";
    if (!isZeroIndex(getRow()) || !isZeroIndex(getCol()))
      return emitOpError("reads a buffer stored in a tile's order at a position other than "
                         "[0, 0]: such a buffer holds that one tile");
  }
  std::optional<kcc::Chip> chip = chipOf(*this);
  if (!chip || kcc::getChipInfo(*chip).hasTransposingLdsRead || !tile.isResolved())
    return success();
  // On a chip without ds_read_b64_tr_b16 / _tr_b8, an MFMA operand whose
  // registers run down an LDS column would take one ds_read_u16 (u8) per
  // element: reject it here, where the author can still store the operand
  // the other way round.
  auto mfma = dyn_cast<MfmaLayoutAttr>(tile.getLayout());
  int64_t esize = elementBytes(tile.getElementType());
  if (!mfma || mfma.getOperand() == MfmaOperand::acc || (esize != 2 && esize != 1))
    return success();
  std::optional<LayoutMap> map = LayoutMap::get(tile);
  if (!map || map->numRegs() < 2)
    return success();
  if (MemoryView{*map, getTranspose()}.contiguousRun(0) > 1)
    return success();
  return emitOpError("reads each lane's ")
         << stringifyMfmaOperand(mfma.getOperand())
         << " operand down an LDS column, which needs the transposing LDS read "
            "(ds_read_b64_tr_b"
         << 8 * esize << ") of gfx950; "
         << kcc::getChipInfo(*chip).name
         << " has none: store the matrix transposed in LDS and read it with "
            "'transpose'";
}

LogicalResult LdsStoreOp::verify() {
  return verifyElementMatch(*this, getLds().getType().getElementType(),
                            getValue().getType().getElementType(),
                            "the LDS buffer");
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

LogicalResult MmaOp::verify() {
  TileType a = getA().getType(), b = getB().getType(), c = getAcc().getType();
  auto la = dyn_cast<MfmaLayoutAttr>(a.getLayout());
  auto lb = dyn_cast<MfmaLayoutAttr>(b.getLayout());
  auto lc = dyn_cast<MfmaLayoutAttr>(c.getLayout());
  if (!la || la.getOperand() != MfmaOperand::a)
    return emitOpError("operand a must have an #tile.mfma<a, ...> layout, not ")
           << a.getLayout();
  if (!lb || lb.getOperand() != MfmaOperand::b)
    return emitOpError("operand b must have an #tile.mfma<b, ...> layout, not ")
           << b.getLayout();
  if (!lc || lc.getOperand() != MfmaOperand::acc)
    return emitOpError("the accumulator must have an #tile.mfma<acc, ...> "
                       "layout, not ")
           << c.getLayout();
  // An accumulator's layout does not depend on K (Layout.cpp), so only a
  // and b must agree on it: an FP8 kernel's `#tile.mfma<acc>` resolves to
  // the 16-bit K of the chip and still feeds an FP8 MFMA of twice that K.
  if (la.getM() != lb.getM() || la.getM() != lc.getM() || la.getK() != lb.getK())
    return emitOpError("operands use different MFMA shapes: ")
           << la << ", " << lb << ", " << lc;
  if (la.getKFromAcc() != lb.getKFromAcc())
    return emitOpError("a and b must order K the same way (both or neither "
                       "'k_from_acc'): ")
           << la << ", " << lb;
  if (la.getKWide() != lb.getKWide())
    return emitOpError("a and b must order K the same way (both or neither "
                       "'k_wide'): ")
           << la << ", " << lb;
  Type ea = a.getElementType(), eb = b.getElementType();
  std::optional<kcc::Fp8Format> fa = fp8FormatOf(ea), fb = fp8FormatOf(eb);
  // FP8 MFMAs take e4m3 and e5m2 in either operand (fp8_bf8, bf8_fp8 and the
  // f8f6f4 format selectors), but both of one chip's family.
  if (fa && fb) {
    if (kcc::isFnuz(*fa) != kcc::isFnuz(*fb))
      return emitOpError("a and b mix FP8 families: ")
             << ea << " is " << (kcc::isFnuz(*fa) ? "FNUZ" : "OCP") << ", " << eb
             << " is " << (kcc::isFnuz(*fb) ? "FNUZ" : "OCP")
             << " (no chip has both)";
  } else if (ea != eb && !isa<DtypeParamType>(ea) && !isa<DtypeParamType>(eb)) {
    // Two parameters may bind to two FP8 formats; checked once bound.
    return emitOpError("a and b must hold the same element type; got ")
           << ea << " and " << eb;
  } else if (!isa<DtypeParamType>(ea) && !is16BitFloat(ea) && !ea.isSignlessInteger(8)) {
    return emitOpError("MFMA inputs must be bf16, f16, FP8 (")
           << fp8TypeList() << ") or i8, not " << ea;
  }
  // i8 inputs accumulate in i32, the floats in f32.
  bool int8 = ea.isSignlessInteger(8);
  Type ec = c.getElementType();
  if (!isa<DtypeParamType>(ec) && !isa<DtypeParamType>(ea)) {
    if (int8 && !ec.isSignlessInteger(32))
      return emitOpError("an i8 MFMA accumulates in i32, not ") << ec;
    if (!int8 && !ec.isF32())
      return emitOpError("the accumulator must be f32, not ") << ec;
  }
  // Shapes: a is M x K, b is K x N, acc is M x N (parameter names must agree).
  auto dim = [](TileType t, unsigned i) {
    return std::make_pair(t.getShape()[i], t.getDimParams()[i]);
  };
  if (dim(a, 0) != dim(c, 0) || dim(b, 1) != dim(c, 1) || dim(a, 1) != dim(b, 0))
    return emitOpError("shapes do not chain: a is ")
           << a << ", b is " << b << ", acc is " << c
           << " (need MxK, KxN, MxN)";
  if (!la.isResolved() || isa<DtypeParamType>(ea))
    return success();
  kcc::MfmaShape shape{(int)la.getM(), (int)la.getN(), (int)la.getK()};
  kcc::MfmaInputs inputs = fa    ? kcc::MfmaInputs::float8
                           : int8 ? kcc::MfmaInputs::int8
                                  : kcc::MfmaInputs::float16;
  StringRef family = fa ? "FP8" : int8 ? "i8" : "16-bit";
  if (!kcc::anyChipHasMfmaShapeOf(inputs, shape))
    return emitOpError("no ")
           << family << " MFMA has shape " << la.getM() << "x" << la.getN() << "x"
           << la.getK() << "; the " << family << " shapes are "
           << kcc::mfmaShapesByChipOf(inputs);
  std::optional<kcc::Chip> chip = chipOf(*this);
  if (chip && !kcc::chipHasMfmaShape(*chip, inputs, shape))
    return emitOpError("no ")
           << (inputs == kcc::MfmaInputs::float16 ? std::string() : (family + " ").str()) << "MFMA of shape "
           << la.getM() << "x" << la.getN() << "x" << la.getK() << " on "
           << kcc::getChipInfo(*chip).name << "; it has "
           << kcc::mfmaShapeListOf(*chip, inputs);
  return success();
}

/// Float arithmetic on float tiles, integer arithmetic on integer tiles (an
/// element type parameter is checked once bound).
static LogicalResult verifyArithElements(Operation *op, TileType type, bool isFloat) {
  Type e = type.getElementType();
  if (isa<DtypeParamType>(e))
    return success();
  if (isFloat && !isa<FloatType>(e))
    return op->emitOpError("works on float tiles, not tiles of ") << e;
  if (isFloat && fp8FormatOf(e))
    return op->emitOpError("has no FP8 form: ")
           << e << " tiles are MFMA operands and conversion results; "
           << "tile.convert them to f32 for arithmetic";
  if (!isFloat && (!e.isSignlessInteger() || e.isInteger(1)))
    return op->emitOpError("works on integer tiles, not tiles of ") << e;
  return success();
}

#define KCC_FLOAT_BINARY(Op)                                                   \
  LogicalResult Op::verify() {                                                 \
    return verifyArithElements(*this, getResult().getType(), true);            \
  }
#define KCC_INT_BINARY(Op)                                                     \
  LogicalResult Op::verify() {                                                 \
    return verifyArithElements(*this, getResult().getType(), false);           \
  }
KCC_FLOAT_BINARY(AddFOp)
KCC_FLOAT_BINARY(SubFOp)
KCC_FLOAT_BINARY(MulFOp)
KCC_FLOAT_BINARY(DivFOp)
KCC_FLOAT_BINARY(MaxFOp)
KCC_FLOAT_BINARY(MinFOp)
KCC_FLOAT_BINARY(FmaOp)
KCC_INT_BINARY(AddIOp)
KCC_INT_BINARY(SubIOp)
#undef KCC_FLOAT_BINARY
#undef KCC_INT_BINARY

LogicalResult Exp2Op::verify() {
  Type e = getOperand().getType().getElementType();
  if (!e.isF32())
    return emitOpError("exp2 works on f32 tiles, not ") << e;
  return success();
}

LogicalResult Log2Op::verify() {
  Type e = getOperand().getType().getElementType();
  if (!e.isF32())
    return emitOpError("log2 works on f32 tiles, not ") << e;
  return success();
}

LogicalResult AnyOp::verify() {
  if (!getOperand().getType().getElementType().isInteger(1))
    return emitOpError("takes an i1 tile, not a tile of ")
           << getOperand().getType().getElementType();
  return success();
}

LogicalResult ConvertOp::verify() {
  TileType from = getOperand().getType(), to = getResult().getType();
  if (!sameShapeAndLayout(from, to))
    return emitOpError("changes only the element type; shapes and layouts must "
                       "match: ")
           << from << " vs " << to;
  Type f = from.getElementType(), t = to.getElementType();
  if (isa<DtypeParamType>(f) || isa<DtypeParamType>(t))
    return success();
  // A convert to the operand's own type is the identity: what a kernel
  // whose element types are parameters writes once for every binding.
  bool ok = f == t || (f.isF32() && (is16BitFloat(t) || t.isF32() || fp8FormatOf(t))) ||
            ((is16BitFloat(f) || fp8FormatOf(f)) && t.isF32()) ||
            (f.isSignlessInteger(32) && t.isF32());
  if (!ok)
    return emitOpError("cannot convert ") << f << " to " << t
                                          << "; supported: f32 <-> bf16/f16, "
                                             "f32 <-> FP8, i32 -> f32, any type to itself";
  if (getFastRounding() && !(f.isF32() && (is16BitFloat(t) || fp8FormatOf(t))))
    return emitOpError("'fast_rounding' applies to f32 -> bf16/f16/FP8 only, not ")
           << f << " -> " << t;
  if (getTiesAny() && !(getFastRounding() && f.isF32() && is16BitFloat(t)))
    return emitOpError("'ties_any' applies to f32 -> bf16/f16 with 'fast_rounding' "
                       "only, not ")
           << f << " -> " << t << (getFastRounding() ? "" : " without it");
  return success();
}

LogicalResult SplatOp::verify() {
  Type s = getValue().getType(), e = getResult().getType().getElementType();
  if (isa<DtypeParamType>(e))
    return success();
  if (s != e)
    return emitOpError("splats a ") << s << " into a tile of " << e;
  return success();
}

LogicalResult IotaOp::verify() {
  if (!getResult().getType().getElementType().isSignlessInteger(32))
    return emitOpError("produces i32 tiles");
  return success();
}

LogicalResult CmpIOp::verify() {
  TileType lhs = getLhs().getType(), res = getResult().getType();
  if (!lhs.getElementType().isSignlessInteger())
    return emitOpError("compares integer tiles, not ") << lhs.getElementType();
  if (!res.getElementType().isInteger(1) || !sameShapeAndLayout(lhs, res))
    return emitOpError("result must be an i1 tile of the operands' shape and "
                       "layout");
  return success();
}

LogicalResult CmpFOp::verify() {
  TileType lhs = getLhs().getType(), res = getResult().getType();
  if (!isa<FloatType, DtypeParamType>(lhs.getElementType()))
    return emitOpError("compares float tiles, not ") << lhs.getElementType();
  if (fp8FormatOf(lhs.getElementType()))
    return emitOpError("has no FP8 form: tile.convert the ")
           << lhs.getElementType() << " tiles to f32 to compare them";
  if (!res.getElementType().isInteger(1) || !sameShapeAndLayout(lhs, res))
    return emitOpError("result must be an i1 tile of the operands' shape and "
                       "layout");
  return success();
}

LogicalResult SelectOp::verify() {
  TileType cond = getCondition().getType(), res = getResult().getType();
  if (!cond.getElementType().isInteger(1) || !sameShapeAndLayout(cond, res))
    return emitOpError("the condition must be an i1 tile of the result's "
                       "shape and layout");
  return success();
}

template <typename ReduceOp>
static LogicalResult verifyReduce(ReduceOp op, bool allowInt) {
  TileType in = op.getOperand().getType(), out = op.getResult().getType();
  int64_t dim = op.getDim();
  if (isa<SliceLayoutAttr>(in.getLayout()))
    return op.emitOpError("reduces MFMA or blocked tiles, not a slice");
  auto slice = dyn_cast<SliceLayoutAttr>(out.getLayout());
  if (!slice || slice.getDim() != dim || slice.getParent() != in.getLayout())
    return op.emitOpError("result layout must be #tile.slice<")
           << dim << ", " << in.getLayout() << ">";
  if (out.getShape()[dim] != 1 || out.getShape()[1 - dim] != in.getShape()[1 - dim] ||
      out.getDimParams()[1 - dim] != in.getDimParams()[1 - dim])
    return op.emitOpError("result shape must collapse dimension ")
           << dim << " of " << in << " to 1";
  if (in.getElementType() != out.getElementType())
    return op.emitOpError("keeps the element type");
  Type e = in.getElementType();
  if ((!isa<FloatType, DtypeParamType>(e) && !(allowInt && e.isSignlessInteger())) ||
      fp8FormatOf(e))
    return op.emitOpError("cannot reduce elements of type ") << e;
  return success();
}

LogicalResult ReduceMaxOp::verify() { return verifyReduce(*this, false); }
LogicalResult ReduceSumOp::verify() { return verifyReduce(*this, true); }

LogicalResult BroadcastOp::verify() {
  TileType in = getOperand().getType(), out = getResult().getType();
  auto slice = dyn_cast<SliceLayoutAttr>(in.getLayout());
  if (!slice)
    return emitOpError("broadcasts a #tile.slice tile, not ") << in.getLayout();
  int64_t dim = slice.getDim();
  if (out.getLayout() != slice.getParent())
    return emitOpError("result layout must be the slice's parent ")
           << slice.getParent();
  if (out.getShape()[1 - dim] != in.getShape()[1 - dim] ||
      out.getDimParams()[1 - dim] != in.getDimParams()[1 - dim])
    return emitOpError("result must keep dimension ") << 1 - dim << " of " << in;
  if (in.getElementType() != out.getElementType())
    return emitOpError("keeps the element type");
  return success();
}

LogicalResult RelayoutOp::verify() {
  TileType in = getOperand().getType(), out = getResult().getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError("keeps the element type");
  if (!in.isResolved() || !out.isResolved())
    return success();
  std::string why;
  std::optional<LayoutMap> a = LayoutMap::get(in, &why);
  if (!a)
    return emitOpError() << why;
  std::optional<LayoutMap> b = LayoutMap::get(out, &why);
  if (!b)
    return emitOpError() << why;
  if (a->numRegs() != b->numRegs())
    return emitOpError("reinterprets ")
           << a->numRegs() << " registers per lane as " << b->numRegs()
           << "; the counts must match";
  return success();
}

//===----------------------------------------------------------------------===//
// Scheduling
//===----------------------------------------------------------------------===//

LogicalResult SchedInterleaveOp::verify() {
  if (getPattern().empty())
    return emitOpError("needs at least one group in its pattern");
  for (Attribute a : getPattern())
    if (cast<SchedGroupAttr>(a).getCount() < 1)
      return emitOpError("group counts must be positive");
  return success();
}

LogicalResult StaggerOp::verify() {
  auto yield = cast<YieldOp>(getBody().front().getTerminator());
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError("yields (")
           << yield.getValues().getTypes() << ") but returns ("
           << getResultTypes() << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// Multi-GPU
//===----------------------------------------------------------------------===//

LogicalResult PeerPtrOp::verify() {
  if (!getBases().getType().getElementType().isSignlessInteger(64))
    return emitOpError("the heap-base table holds i64 addresses, not ")
           << getBases().getType().getElementType();
  return success();
}

static LogicalResult verifyFlagPtr(Operation *op, PtrType flags) {
  if (!flags.getElementType().isSignlessInteger(32))
    return op->emitOpError("flags are i32 words, not ") << flags.getElementType();
  return success();
}

LogicalResult FlagStoreOp::verify() { return verifyFlagPtr(*this, getFlags().getType()); }
LogicalResult FlagWaitOp::verify() { return verifyFlagPtr(*this, getFlags().getType()); }
LogicalResult FlagTestOp::verify() {
  if (failed(verifyFlagPtr(*this, getFlags().getType())))
    return failure();
  // A constant count must fit the wave (one word per lane).
  APInt count;
  if (matchPattern(getCount(), m_ConstantInt(&count)) &&
      (count.isZero() || count.ugt(64)))
    return emitOpError("tests 1 to 64 flag words (one per lane); count is ")
           << count.getZExtValue();
  return success();
}
