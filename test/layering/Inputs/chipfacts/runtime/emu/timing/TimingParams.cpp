// The timing model's table before it read the chip's facts from target/:
// comments may say 304 CUs at 2.1 GHz, and so may strings.
const TimingConstant kGfx942[] = {
    {"clock_ghz", 2.1, "GHz", "[DS300] peak engine clock 2100 MHz"},
    {"compute_units", 304, "CUs", "[DS300]"},
    {"valu_cycles", 4, "cycles", "Check: 304*4*16*2 flop*2.1 GHz = 81.7 TFLOPS"},
    {"hbm_bytes_per_second", 5.3e12, "B/s", "[DS300] 5.3 TB/s"},
    /* 256 CUs, 2.4 GHz: a block comment
       over two lines, 8e12 B/s */
    {"lds_latency", 64, "cycles", "assumption"},
};
