//===- NpyTest.cpp - .npy reading and writing -----------------------------===//
//
// Headers as NumPy writes them (version 1.0 and 2.0, both quote styles) and
// every rejection with its message.
//
//===----------------------------------------------------------------------===//
#include "runtime/DType.h"
#include "runtime/Npy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace kcc;

namespace {

std::vector<uint8_t> npyFile(int major, const std::string &dict,
                             const std::vector<uint8_t> &data) {
  std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', uint8_t(major), 0};
  std::string header = dict + "\n";
  if (major == 1) {
    out.push_back(uint8_t(header.size()));
    out.push_back(uint8_t(header.size() >> 8));
  } else {
    for (int i = 0; i < 4; ++i)
      out.push_back(uint8_t(header.size() >> (8 * i)));
  }
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::string parseError(const std::vector<uint8_t> &bytes) {
  auto a = parseNpy(bytes);
  EXPECT_FALSE(bool(a));
  return a ? "" : llvm::toString(a.takeError());
}

TEST(Npy, RoundTrip) {
  NpyArray a;
  a.type = NpyType::F32;
  a.shape = {2, 3};
  for (float f : {1.f, 2.f, 3.f, 4.f, 5.f, 6.f}) {
    uint8_t b[4];
    std::memcpy(b, &f, 4);
    a.data.insert(a.data.end(), b, b + 4);
  }
  std::vector<uint8_t> bytes = serializeNpy(a);
  EXPECT_EQ((bytes.size() - a.data.size()) % 64, 0u); // NumPy's alignment
  std::string header(bytes.begin() + 10, bytes.end() - a.data.size());
  EXPECT_EQ(header.substr(0, header.find('}') + 1),
            "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }");
  auto back = parseNpy(bytes);
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->type, NpyType::F32);
  EXPECT_EQ(back->shape, a.shape);
  EXPECT_EQ(back->data, a.data);

  NpyArray v;
  v.type = NpyType::U16;
  v.shape = {3};
  v.data = {1, 0, 2, 0, 3, 0};
  std::vector<uint8_t> vb = serializeNpy(v);
  std::string vh(vb.begin() + 10, vb.end() - 6);
  EXPECT_NE(vh.find("'shape': (3,)"), std::string::npos) << vh;
  auto vback = parseNpy(vb);
  ASSERT_TRUE(bool(vback));
  EXPECT_EQ(vback->shape, std::vector<uint64_t>{3});
}

TEST(Npy, Version2AndDoubleQuotes) {
  auto a = parseNpy(npyFile(
      2, "{\"descr\": \"<f2\", \"fortran_order\": False, \"shape\": (2,)}",
      {0, 0x3c, 0, 0xc0}));
  ASSERT_TRUE(bool(a)) << llvm::toString(a.takeError());
  EXPECT_EQ(a->type, NpyType::F16);
  uint16_t h[2];
  std::memcpy(h, a->data.data(), 4);
  EXPECT_EQ(f16ToFloat(h[0]), 1.0f);
  EXPECT_EQ(f16ToFloat(h[1]), -2.0f);
}

TEST(Npy, Rejections) {
  EXPECT_EQ(parseError({1, 2, 3}), "not a .npy file (no \\x93NUMPY magic)");
  EXPECT_EQ(parseError(npyFile(1, "{'descr': '<f8', 'fortran_order': False, "
                                  "'shape': (1,), }",
                               {0, 0, 0, 0, 0, 0, 0, 0})),
            "unsupported .npy dtype '<f8'; kcc reads '<f4' (f32), '<f2' (f16), "
            "'<u2' (bf16 bits), '|u1' (FP8 bits) and '|i1' (int8)");
  EXPECT_EQ(parseError(npyFile(1, "{'descr': '>f4', 'fortran_order': False, "
                                  "'shape': (1,), }",
                               {0, 0, 0, 0})),
            "unsupported .npy dtype '>f4'; kcc reads '<f4' (f32), '<f2' (f16), "
            "'<u2' (bf16 bits), '|u1' (FP8 bits) and '|i1' (int8)");
  EXPECT_EQ(parseError(npyFile(1, "{'descr': '<f4', 'fortran_order': True, "
                                  "'shape': (1, 1), }",
                               {0, 0, 0, 0})),
            ".npy array is in Fortran order; save it in C order "
            "(numpy.ascontiguousarray)");
  EXPECT_EQ(parseError(npyFile(1, "{'descr': '<f4', 'fortran_order': False, "
                                  "'shape': (2, 2), }",
                               {0, 0, 0, 0})),
            ".npy data is 4 bytes; shape (2, 2) of <f4 needs 16");
  EXPECT_EQ(parseError(npyFile(1, "{'descr': '<f4', 'shape': (1,), }", {0, 0, 0, 0})),
            ".npy header lacks descr, fortran_order or shape: {'descr': '<f4', "
            "'shape': (1,), }");
  EXPECT_EQ(parseError(npyFile(4, "{}", {})),
            "unsupported .npy version 4.0 (1.0, 2.0 and 3.0 are read)");
  auto missing = readNpy("/nonexistent/x.npy");
  ASSERT_FALSE(bool(missing));
  EXPECT_EQ(llvm::toString(missing.takeError()),
            "cannot read '/nonexistent/x.npy': No such file or directory");
}

TEST(DType, Conversions) {
  EXPECT_EQ(floatToBf16(1.0f), 0x3f80);
  EXPECT_EQ(floatToBf16(1.00390625f), 0x3f80);  // tie: to even
  EXPECT_EQ(floatToBf16(1.01171875f), 0x3f82);  // tie: to even (up)
  EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBf16(NAN))));
  EXPECT_EQ(floatToF16(1.0f), 0x3c00);
  EXPECT_EQ(floatToF16(65504.f), 0x7bff);
  EXPECT_EQ(floatToF16(65520.f), 0x7c00);       // rounds to infinity
  EXPECT_EQ(floatToF16(0x1p-24f), 0x0001);      // smallest subnormal
  EXPECT_EQ(floatToF16(0x1p-25f), 0x0000);      // tie: to even (zero)
  EXPECT_EQ(floatToF16(-2.5f), 0xc100);
  for (uint32_t h = 0; h < 0x7c00; ++h) // every finite positive f16
    ASSERT_EQ(floatToF16(f16ToFloat(uint16_t(h))), h) << h;
  EXPECT_EQ(dtypeName(*parseDType("bf16")), "bf16");
  EXPECT_FALSE(parseDType("f64").has_value());
}

} // namespace
