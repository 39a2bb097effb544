constexpr int64_t kReduceCols = 256;
SplitCosts splitCosts(Chip chip) {
  if (chip == Chip::gfx942)
    return {1307.4e12 / 304, 5.3e12, 256e6, 17.2e12};
  return {2516.6e12 / 256, 8.0e12};
}
