// Tests may state the facts they check.
EXPECT_EQ(getChipInfo(Chip::gfx942).computeUnits, 304);
EXPECT_DOUBLE_EQ(getChipInfo(Chip::gfx950).peakClockGHz, 2.4);
