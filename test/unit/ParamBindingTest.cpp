//===- ParamBindingTest.cpp - -D NAME=VALUE read once, typed ---------------===//
#include "target/ParamBinding.h"

#include "gtest/gtest.h"

using namespace kcc;

namespace {

std::string errorOf(llvm::StringRef text) {
  llvm::Expected<ParamBinding> b = ParamBinding::parse(text);
  EXPECT_FALSE(bool(b)) << text.str() << " parsed";
  return b ? std::string() : llvm::toString(b.takeError());
}

TEST(ParamBinding, IntegersAndTypeNames) {
  auto b = ParamBinding::parse(" BK = 0x40 ");
  ASSERT_TRUE(bool(b)) << llvm::toString(b.takeError());
  EXPECT_EQ(b->name, "BK");
  ASSERT_TRUE(b->isInteger());
  EXPECT_EQ(b->integer(), 64);
  EXPECT_EQ(b->str(), "BK=64");

  auto neg = ParamBinding::parse("PAD=-1");
  ASSERT_TRUE(bool(neg));
  EXPECT_EQ(neg->integer(), -1);

  // i1 parameters take true/false as 1/0: one canonical spelling each.
  auto t = ParamBinding::parse("CAUSAL=True");
  ASSERT_TRUE(bool(t));
  EXPECT_EQ(t->str(), "CAUSAL=1");
  auto f = ParamBinding::parse("CAUSAL=false");
  ASSERT_TRUE(bool(f));
  EXPECT_EQ(f->str(), "CAUSAL=0");

  auto ty = ParamBinding::parse("DTYPE=bf16");
  ASSERT_TRUE(bool(ty));
  ASSERT_FALSE(ty->isInteger());
  EXPECT_EQ(ty->typeName(), "bf16");
  EXPECT_EQ(ty->str(), "DTYPE=bf16");
}

TEST(ParamBinding, MalformedTextSaysWhy) {
  EXPECT_EQ(errorOf("CAUSAL"), "parameter 'CAUSAL': write it NAME=VALUE");
  EXPECT_EQ(errorOf("=3"), "parameter '=3': the name before '=' is missing");
  EXPECT_EQ(errorOf("BK="), "parameter 'BK=': the value after '=' is missing");
  EXPECT_EQ(errorOf("2X=3"), "parameter '2X=3': '2X' is not a parameter name");
  EXPECT_EQ(errorOf("BK=1.5"),
            "parameter 'BK=1.5': '1.5' is neither an integer nor a type name");
  EXPECT_EQ(errorOf("BK=99999999999999999999"),
            "parameter 'BK=99999999999999999999': '99999999999999999999' is "
            "neither an integer nor a type name");
}

TEST(ParamBinding, ListStopsAtTheFirstMalformed) {
  auto ok = parseParamBindings({"A=1", "B=f16"});
  ASSERT_TRUE(bool(ok));
  EXPECT_EQ(paramBindingTexts(*ok), (std::vector<std::string>{"A=1", "B=f16"}));
  auto bad = parseParamBindings({"A=1", "B", "C"});
  ASSERT_FALSE(bool(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()), "parameter 'B': write it NAME=VALUE");
}

} // namespace
