//===- CheckedMain.cpp - Every emulator test again, in check mode ---------===//
//
// KCCEmuCheckedTests links the same tests as KCCEmuTests and turns check
// mode on for every launch (KCC_EMU_CHECK=1, read by the emulator), so any
// finding in a correct kernel - a false positive - fails the test that
// launched it.
//
//===----------------------------------------------------------------------===//
#include "gtest/gtest.h"

#include <cstdlib>

int main(int argc, char **argv) {
  setenv("KCC_EMU_CHECK", "1", /*overwrite=*/1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
