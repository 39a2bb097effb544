//===- TileAttrs.cpp - Layout attributes ----------------------------------===//
#include "dialects/Tile/Layout.h"
#include "dialects/Tile/TileDialect.h"
#include "target/Float8.h"
#include "target/Target.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kcc::tile;

#define GET_ATTRDEF_CLASSES
#include "dialects/Tile/TileAttrs.cpp.inc"

void TileDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Tile/TileAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// MfmaLayoutAttr
//===----------------------------------------------------------------------===//

/// `#tile.mfma<a>`, `#tile.mfma<acc, 16x16>`, `#tile.mfma<b, 32x32x16>`.
Attribute MfmaLayoutAttr::parse(AsmParser &parser, Type) {
  StringRef role;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeyword(&role))
    return {};
  std::optional<MfmaOperand> operand = symbolizeMfmaOperand(role);
  if (!operand) {
    parser.emitError(loc, "expected MFMA operand 'a', 'b' or 'acc', got '")
        << role << "'";
    return {};
  }
  SmallVector<int64_t, 3> dims = {32, 32};
  bool kFromAcc = false, kWide = false, haveShape = false;
  while (succeeded(parser.parseOptionalComma())) {
    loc = parser.getCurrentLocation();
    // The orders of K, by keyword, each at most once.
    bool flagged = false;
    for (auto [name, seen] : {std::pair<StringRef, bool *>{"k_from_acc", &kFromAcc},
                              std::pair<StringRef, bool *>{"k_wide", &kWide}}) {
      if (failed(parser.parseOptionalKeyword(name)))
        continue;
      if (*seen) {
        parser.emitError(loc, "'") << name << "' given twice";
        return {};
      }
      *seen = flagged = true;
      break;
    }
    if (flagged)
      continue;
    if (kFromAcc || kWide) {
      parser.emitError(loc, "the MFMA shape comes before 'k_from_acc' and 'k_wide'");
      return {};
    }
    if (haveShape) {
      parser.emitError(loc, "expected 'k_from_acc' or 'k_wide'");
      return {};
    }
    dims.clear();
    if (parser.parseDimensionList(dims, /*allowDynamic=*/false,
                                  /*withTrailingX=*/false))
      return {};
    if (dims.size() != 2 && dims.size() != 3) {
      parser.emitError(loc, "expected an MxN or MxNxK MFMA shape");
      return {};
    }
    haveShape = true;
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<MfmaLayoutAttr>(parser.getContext(), *operand,
                                           dims[0], dims[1],
                                           dims.size() == 3 ? dims[2] : 0,
                                           kFromAcc, kWide);
}

void MfmaLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyMfmaOperand(getOperand());
  if (getK() != 0)
    printer << ", " << getM() << "x" << getN() << "x" << getK();
  else if (getM() != 32 || getN() != 32)
    printer << ", " << getM() << "x" << getN();
  if (getKFromAcc())
    printer << ", k_from_acc";
  if (getKWide())
    printer << ", k_wide";
  printer << ">";
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef chip) {
  if (!kcc::parseChip(chip))
    return emitError() << "unsupported chip '" << chip
                       << "'; supported: " << kcc::supportedChipList();
  return success();
}

kcc::Chip TargetAttr::getChipKind() const { return *kcc::parseChip(getChip()); }

const kcc::ChipInfo &TargetAttr::getInfo() const {
  return kcc::getChipInfo(getChipKind());
}

LogicalResult
MfmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       MfmaOperand operand, int64_t m, int64_t n, int64_t k,
                       bool kFromAcc, bool kWide) {
  if (kFromAcc && operand == MfmaOperand::acc)
    return emitError() << "'k_from_acc' orders the K dimension of an 'a' or "
                          "'b' operand; an accumulator has none";
  if (kWide && operand == MfmaOperand::acc)
    return emitError() << "'k_wide' orders the K dimension of an 'a' or 'b' "
                          "operand; an accumulator has none";
  if (kWide && kFromAcc)
    return emitError() << "'k_wide' and 'k_from_acc' are two orders of K; an "
                          "operand takes one";
  // The shapes come from the chips' tables (target/Target.h: 16-bit floats,
  // FP8, i8); neither the chip nor the element type is known here, so a
  // shape of any chip and input family is a shape (tile.mma checks it
  // against its inputs' family and the chip).
  auto anyShape = [](kcc::MfmaShape s) {
    return kcc::anyChipHasMfmaShapeOf(kcc::MfmaInputs::float16, s) ||
           kcc::anyChipHasMfmaShapeOf(kcc::MfmaInputs::float8, s) ||
           kcc::anyChipHasMfmaShapeOf(kcc::MfmaInputs::int8, s);
  };
  if (m != n || !anyShape({int(m), int(n), 0}))
    return emitError() << "no MFMA has an " << m << "x" << n
                       << " shape; supported: 32x32 and 16x16";
  if (k == 0)
    return success();
  if (!anyShape({int(m), int(n), int(k)}))
    return emitError() << "no MFMA has shape " << m << "x" << n << "x" << k
                       << "; supported: " << kcc::mfmaShapesByChip()
                       << " for 16-bit inputs, " << kcc::mfmaShapes8ByChip()
                       << " for FP8, "
                       << kcc::mfmaShapesByChipOf(kcc::MfmaInputs::int8) << " for i8";
  return success();
}

//===----------------------------------------------------------------------===//
// BlockedLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
BlockedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<int64_t> perLane, ArrayRef<int64_t> lanes) {
  if (perLane.size() != 2 || lanes.size() != 2)
    return emitError() << "blocked layout needs two elements-per-lane and two "
                          "lane counts";
  if (perLane[0] < 1 || perLane[1] < 1 || lanes[0] < 1 || lanes[1] < 1)
    return emitError() << "blocked layout sizes must be positive";
  if (lanes[0] * lanes[1] != 64)
    return emitError() << "blocked layout arranges " << lanes[0] * lanes[1]
                       << " lanes; a wave has 64";
  return success();
}

//===----------------------------------------------------------------------===//
// SliceLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
SliceLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        int64_t dim, Attribute parent) {
  if (dim != 0 && dim != 1)
    return emitError() << "slice dimension must be 0 or 1, got " << dim;
  if (!isa<MfmaLayoutAttr, BlockedLayoutAttr>(parent))
    return emitError() << "slice parent must be an MFMA or blocked layout";
  return success();
}
