//===- Npy.cpp - NumPy .npy files for kernel inputs and outputs -----------===//
#include "runtime/Npy.h"
#include "target/Error.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;

namespace kcc {

StringRef npyDescr(NpyType type) {
  switch (type) {
  case NpyType::F32: return "<f4";
  case NpyType::F16: return "<f2";
  case NpyType::U16: return "<u2";
  case NpyType::U8: return "|u1";
  case NpyType::I8: return "|i1";
  }
  return "?";
}

unsigned npyTypeSize(NpyType type) {
  return type == NpyType::F32 ? 4 : (type == NpyType::U8 || type == NpyType::I8) ? 1 : 2;
}

uint64_t NpyArray::elementCount() const {
  uint64_t n = 1;
  for (uint64_t d : shape)
    n *= d;
  return n;
}


/// The value text of `'key': value` in the header dict (a Python literal).
static std::optional<StringRef> dictValue(StringRef dict, StringRef key) {
  for (char quote : {'\'', '"'}) {
    std::string k = quote + key.str() + quote;
    size_t at = dict.find(k);
    if (at == StringRef::npos)
      continue;
    StringRef rest = dict.drop_front(at + k.size()).ltrim();
    if (!rest.consume_front(":"))
      return std::nullopt;
    rest = rest.ltrim();
    size_t end;
    if (rest.starts_with("(")) {
      end = rest.find(')');
      if (end == StringRef::npos)
        return std::nullopt;
      ++end;
    } else if (rest.starts_with("'") || rest.starts_with("\"")) {
      end = rest.find(rest[0], 1);
      if (end == StringRef::npos)
        return std::nullopt;
      ++end;
    } else {
      end = rest.find_first_of(",}");
    }
    return rest.take_front(end).trim();
  }
  return std::nullopt;
}

Expected<NpyArray> parseNpy(ArrayRef<uint8_t> bytes) {
  static const char magic[] = "\x93NUMPY";
  if (bytes.size() < 10 || std::memcmp(bytes.data(), magic, 6) != 0)
    return makeError("not a .npy file (no \\x93NUMPY magic)");
  uint8_t major = bytes[6];
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = support::endian::read16le(bytes.data() + 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return makeError(".npy header is truncated");
    headerLen = support::endian::read32le(bytes.data() + 8);
    headerStart = 12;
  } else {
    return makeError("unsupported .npy version " + Twine(unsigned(major)) + "." +
                 Twine(unsigned(bytes[7])) + " (1.0, 2.0 and 3.0 are read)");
  }
  if (bytes.size() < headerStart + headerLen)
    return makeError(".npy header is truncated");
  StringRef dict(reinterpret_cast<const char *>(bytes.data() + headerStart),
                 headerLen);
  std::optional<StringRef> descr = dictValue(dict, "descr");
  std::optional<StringRef> fortran = dictValue(dict, "fortran_order");
  std::optional<StringRef> shape = dictValue(dict, "shape");
  if (!descr || !fortran || !shape)
    return makeError(".npy header lacks descr, fortran_order or shape: " + dict.trim());
  NpyArray a;
  StringRef d = descr->drop_front().drop_back();
  if (d == "<f4")
    a.type = NpyType::F32;
  else if (d == "<f2")
    a.type = NpyType::F16;
  else if (d == "<u2")
    a.type = NpyType::U16;
  else if (d == "|u1" || d == "<u1")
    a.type = NpyType::U8;
  else if (d == "|i1" || d == "<i1")
    a.type = NpyType::I8;
  else
    return makeError("unsupported .npy dtype '" + d +
                 "'; kcc reads '<f4' (f32), '<f2' (f16), '<u2' (bf16 bits), '|u1' "
                 "(FP8 bits) and '|i1' (int8)");
  if (*fortran == "True")
    return makeError(".npy array is in Fortran order; save it in C order "
                 "(numpy.ascontiguousarray)");
  if (*fortran != "False")
    return makeError(".npy header has fortran_order " + *fortran);
  StringRef dims = shape->drop_front().drop_back();
  SmallVector<StringRef, 4> parts;
  dims.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef p : parts) {
    uint64_t v;
    if (p.trim().getAsInteger(10, v))
      return makeError(".npy header has a bad shape " + *shape);
    a.shape.push_back(v);
  }
  uint64_t bytesNeeded = a.elementCount() * npyTypeSize(a.type);
  size_t dataStart = headerStart + headerLen;
  if (bytes.size() - dataStart != bytesNeeded)
    return makeError(".npy data is " + Twine(bytes.size() - dataStart) +
                 " bytes; shape " + *shape + " of " + d + " needs " +
                 Twine(bytesNeeded));
  a.data.assign(bytes.begin() + dataStart, bytes.end());
  return a;
}

Expected<NpyArray> readNpy(StringRef path) {
  auto file = MemoryBuffer::getFile(path, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
  if (!file)
    return makeError("cannot read '" + path + "': " + file.getError().message());
  ArrayRef<uint8_t> bytes(
      reinterpret_cast<const uint8_t *>((*file)->getBufferStart()),
      (*file)->getBufferSize());
  Expected<NpyArray> a = parseNpy(bytes);
  if (!a)
    return makeError(path + ": " + toString(a.takeError()));
  return a;
}

std::vector<uint8_t> serializeNpy(const NpyArray &a) {
  std::string dict = "{'descr': '" + npyDescr(a.type).str() +
                     "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < a.shape.size(); ++i)
    dict += std::to_string(a.shape[i]) + (a.shape.size() == 1 || i + 1 < a.shape.size() ? "," : "") +
            (i + 1 < a.shape.size() ? " " : "");
  dict += "), }";
  // NumPy pads the header with spaces and a newline so that the data starts
  // on a 64-byte boundary.
  size_t total = 10 + dict.size() + 1;
  size_t padded = (total + 63) / 64 * 64;
  dict.append(padded - total, ' ');
  dict += '\n';
  std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0};
  support::endian::write16le(out.data() + 8, uint16_t(dict.size()));
  out.insert(out.end(), dict.begin(), dict.end());
  out.insert(out.end(), a.data.begin(), a.data.end());
  return out;
}

Error writeNpy(StringRef path, const NpyArray &a) {
  std::vector<uint8_t> bytes = serializeNpy(a);
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_None);
  if (ec)
    return makeError("cannot write '" + path + "': " + ec.message());
  os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  os.close();
  if (os.has_error()) {
    std::error_code e = os.error();
    os.clear_error();
    return makeError("cannot write '" + path + "': " + e.message());
  }
  return Error::success();
}

} // namespace kcc
