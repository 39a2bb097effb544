// target/ is where a chip's facts are written down.
static const ChipInfo kChips[] = {
    {Chip::gfx942, "gfx942", "MI300X", /*computeUnits=*/304, 2.1, 1307.4e12, 5.3e12},
    {Chip::gfx950, "gfx950", "MI355X", /*computeUnits=*/256, 2.4, 2516.6e12, 8.0e12},
};
