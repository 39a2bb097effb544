//===- TileTypes.cpp - Types of the tile dialect --------------------------===//
#include "dialects/Tile/Layout.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kcc::tile;

#define GET_TYPEDEF_CLASSES
#include "dialects/Tile/TileTypes.cpp.inc"

void TileDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/Tile/TileTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Shapes with parameter names: `[128, BK]`
//===----------------------------------------------------------------------===//

static ParseResult parseShape(AsmParser &parser, SmallVectorImpl<int64_t> &shape,
                              SmallVectorImpl<StringAttr> &names) {
  auto parseDim = [&]() -> ParseResult {
    int64_t value = 0;
    OptionalParseResult isInt = parser.parseOptionalInteger(value);
    if (isInt.has_value()) {
      if (failed(*isInt))
        return failure();
      shape.push_back(value);
      names.push_back(StringAttr::get(parser.getContext(), ""));
      return success();
    }
    StringRef name;
    if (parser.parseKeyword(&name))
      return failure();
    shape.push_back(ShapedType::kDynamic);
    names.push_back(StringAttr::get(parser.getContext(), name));
    return success();
  };
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseDim);
}

static void printShape(AsmPrinter &printer, ArrayRef<int64_t> shape,
                       ArrayRef<StringAttr> names) {
  printer << "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      printer << ", ";
    if (i < names.size() && !names[i].getValue().empty())
      printer << names[i].getValue();
    else
      printer << shape[i];
  }
  printer << "]";
}

static LogicalResult verifyShape(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> shape,
                                 ArrayRef<StringAttr> names) {
  if (shape.size() != 2 || names.size() != 2)
    return emitError() << "tiles are 2-D; got " << shape.size() << " dimensions";
  for (size_t i = 0; i < 2; ++i) {
    bool symbolic = !names[i].getValue().empty();
    if (symbolic != (shape[i] == ShapedType::kDynamic))
      return emitError() << "dimension " << i
                         << " must be a positive integer or a parameter name";
    if (!symbolic && shape[i] < 1)
      return emitError() << "dimension " << i << " must be positive, got "
                         << shape[i];
  }
  return success();
}

static bool isResolvedElement(Type type) { return !isa<DtypeParamType>(type); }

static bool isResolvedLayout(Attribute layout) {
  if (auto mfma = dyn_cast<MfmaLayoutAttr>(layout))
    return mfma.isResolved();
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout))
    return isResolvedLayout(slice.getParent());
  return true;
}

static bool hasNoParams(ArrayRef<StringAttr> names) {
  return llvm::all_of(names, [](StringAttr n) { return n.getValue().empty(); });
}

//===----------------------------------------------------------------------===//
// TileType
//===----------------------------------------------------------------------===//

Type TileType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  SmallVector<StringAttr> names;
  Type element;
  Attribute layout;
  if (parser.parseLess() || parseShape(parser, shape, names) ||
      parser.parseComma() || parser.parseType(element) || parser.parseComma() ||
      parser.parseAttribute(layout) || parser.parseGreater())
    return {};
  return parser.getChecked<TileType>(parser.getContext(), shape, names, element,
                                     layout);
}

void TileType::print(AsmPrinter &printer) const {
  printer << "<";
  printShape(printer, getShape(), getDimParams());
  printer << ", " << getElementType() << ", " << getLayout() << ">";
}

LogicalResult TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape,
                               ArrayRef<StringAttr> dimParams, Type elementType,
                               Attribute layout) {
  if (failed(verifyShape(emitError, shape, dimParams)))
    return failure();
  if (!elementType.isIntOrFloat() && !isa<DtypeParamType>(elementType))
    return emitError() << "tile elements must be integers or floats, got "
                       << elementType;
  if (!isa<MfmaLayoutAttr, BlockedLayoutAttr, SliceLayoutAttr>(layout))
    return emitError() << "expected a tile layout (#tile.mfma, #tile.blocked or "
                          "#tile.slice), got "
                       << layout;
  if (!hasNoParams(dimParams) || !isResolvedLayout(layout))
    return success();
  std::string why;
  std::optional<std::array<int64_t, 2>> inst =
      LayoutMap::instanceShape(layout, &why);
  if (!inst)
    return emitError() << why;
  if (shape[0] % (*inst)[0] || shape[1] % (*inst)[1])
    return emitError() << "tile shape " << shape[0] << "x" << shape[1]
                       << " is not a multiple of its layout's " << (*inst)[0]
                       << "x" << (*inst)[1] << " instance";
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout))
    if (shape[slice.getDim()] != 1)
      return emitError() << "a slice along dimension " << slice.getDim()
                         << " must have extent 1 there";
  return success();
}

bool TileType::isResolved() const {
  return hasNoParams(getDimParams()) && isResolvedElement(getElementType()) &&
         isResolvedLayout(getLayout());
}

TileType TileType::withElementType(Type type) const {
  return TileType::get(getContext(), getShape(), getDimParams(), type,
                       getLayout());
}

//===----------------------------------------------------------------------===//
// LdsType
//===----------------------------------------------------------------------===//

/// `<[64, 64], bf16>`, `<[BN, BK], bf16, pad = 8, stages = 2>`,
/// `<[256, 64], bf16, stages = 2, swizzle = SWZ>`,
/// `<[64, 128], bf16, order = transpose !tile.tile<...> if V_IMAGE>`.
Type LdsType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  SmallVector<StringAttr> names;
  Type element, order;
  bool orderTranspose = false;
  int64_t pad = 0, stages = 1, swizzle = 0;
  StringRef padParam, swizzleParam, orderParam;
  llvm::SmallSet<StringRef, 4> seen;
  if (parser.parseLess() || parseShape(parser, shape, names) ||
      parser.parseComma() || parser.parseType(element))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    int64_t *slot = key == "pad"       ? &pad
                    : key == "stages"  ? &stages
                    : key == "swizzle" ? &swizzle
                                       : nullptr;
    if (!slot && key != "order") {
      parser.emitError(loc, "unknown LDS buffer property '")
          << key << "'; expected 'pad', 'stages', 'swizzle' or 'order'";
      return {};
    }
    if (!seen.insert(key).second) {
      parser.emitError(loc, "LDS buffer property '") << key << "' given twice";
      return {};
    }
    if (!slot) {
      // order = [transpose] TILE [if PARAM]
      orderTranspose = succeeded(parser.parseOptionalKeyword("transpose"));
      if (parser.parseType(order))
        return {};
      if (succeeded(parser.parseOptionalKeyword("if")) && parser.parseKeyword(&orderParam))
        return {};
      continue;
    }
    // pad and swizzle may name a parameter: pad = PAD.
    StringRef name;
    if (slot != &stages && succeeded(parser.parseOptionalKeyword(&name))) {
      (slot == &pad ? padParam : swizzleParam) = name;
      continue;
    }
    if (parser.parseInteger(*slot))
      return {};
  }
  if (parser.parseGreater())
    return {};
  MLIRContext *ctx = parser.getContext();
  return parser.getChecked<LdsType>(ctx, shape, names, element, pad, stages,
                                    StringAttr::get(ctx, padParam), swizzle,
                                    StringAttr::get(ctx, swizzleParam), order, orderTranspose,
                                    StringAttr::get(ctx, orderParam));
}

void LdsType::print(AsmPrinter &printer) const {
  printer << "<";
  printShape(printer, getShape(), getDimParams());
  printer << ", " << getElementType();
  if (!getPadParam().getValue().empty())
    printer << ", pad = " << getPadParam().getValue();
  else if (getPad())
    printer << ", pad = " << getPad();
  if (getStages() != 1)
    printer << ", stages = " << getStages();
  if (!getSwizzleParam().getValue().empty())
    printer << ", swizzle = " << getSwizzleParam().getValue();
  else if (getSwizzle())
    printer << ", swizzle = " << getSwizzle();
  if (getOrder()) {
    printer << ", order = " << (getOrderTranspose() ? "transpose " : "") << getOrder();
    if (!getOrderParam().getValue().empty())
      printer << " if " << getOrderParam().getValue();
  }
  printer << ">";
}

LogicalResult LdsType::verify(function_ref<InFlightDiagnostic()> emitError,
                              ArrayRef<int64_t> shape,
                              ArrayRef<StringAttr> dimParams, Type elementType,
                              int64_t pad, int64_t stages, StringAttr padParam,
                              int64_t swizzle, StringAttr swizzleParam, Type order,
                              bool orderTranspose, StringAttr orderParam) {
  if (failed(verifyShape(emitError, shape, dimParams)))
    return failure();
  if (!elementType.isIntOrFloat() && !isa<DtypeParamType>(elementType))
    return emitError() << "LDS elements must be integers or floats, got "
                       << elementType;
  if (pad < 0)
    return emitError() << "LDS row padding must be non-negative, got " << pad;
  if (stages < 1)
    return emitError() << "an LDS buffer needs at least one stage, got "
                       << stages;
  if (swizzle != 0 && (swizzle < 2 || !llvm::isPowerOf2_64(swizzle)))
    return emitError() << "an LDS swizzle must be 0 (none) or a power of two "
                          "of at least 2, got "
                       << swizzle;
  auto orderTile = dyn_cast_if_present<TileType>(order);
  if (order && !orderTile)
    return emitError() << "an LDS buffer's order is a !tile.tile type, got " << order;
  if (orderTile && orderTile.getShape().size() != 2)
    return emitError() << "an LDS buffer's order is a 2-d tile, got " << order;
  // The rest needs every size known.
  bool known = hasNoParams(dimParams) && padParam.getValue().empty() &&
               swizzleParam.getValue().empty() && isResolvedElement(elementType);
  if (orderTile && known && orderParam.getValue().empty()) {
    if (pad != 0 || swizzle != 0)
      return emitError() << "an LDS buffer stored in a tile's order is neither padded nor "
                            "swizzled (pad = "
                         << pad << ", swizzle = " << swizzle << ")";
    if (orderTile.getElementType() != elementType)
      return emitError() << "an LDS buffer of " << elementType
                         << " cannot be stored in the order of a tile of "
                         << orderTile.getElementType();
    if (hasNoParams(orderTile.getDimParams())) {
      ArrayRef<int64_t> ts = orderTile.getShape();
      int64_t r = orderTranspose ? ts[1] : ts[0], c = orderTranspose ? ts[0] : ts[1];
      if (r != shape[0] || c != shape[1])
        return emitError() << "an LDS buffer of [" << shape[0] << ", " << shape[1]
                           << "] cannot be stored in the order of a "
                           << (orderTranspose ? "transposed " : "") << "tile of [" << ts[0]
                           << ", " << ts[1] << "]";
    }
  }
  if (swizzle == 0 || !known)
    return success();
  if (pad != 0)
    return emitError() << "an LDS buffer is either padded or swizzled, not both "
                          "(pad = "
                       << pad << ", swizzle = " << swizzle << ")";
  int64_t rowBytes = shape[1] * elementBytes(elementType);
  if (rowBytes % (kSwizzleChunkBytes * swizzle) != 0)
    return emitError() << "swizzle = " << swizzle << " permutes " << swizzle
                       << " chunks of " << kSwizzleChunkBytes
                       << " bytes within a row, but a row of " << shape[1]
                       << " x " << elementType << " is " << rowBytes << " bytes";
  return success();
}

bool LdsType::isResolved() const {
  return hasNoParams(getDimParams()) && isResolvedElement(getElementType()) &&
         getPadParam().getValue().empty() && getSwizzleParam().getValue().empty() &&
         getOrderParam().getValue().empty();
}

int64_t LdsType::getSwizzleRowGroup(int64_t bankLineBytes) const {
  int64_t rowBytes = getCols() * elementBytes(getElementType());
  // A power of two, so that the lowering divides by a shift.
  return std::max<int64_t>(1, int64_t(llvm::bit_floor(uint64_t(bankLineBytes / rowBytes))));
}

int64_t LdsType::getStageBytes() const {
  return getRows() * getRowStride() * elementBytes(getElementType());
}
