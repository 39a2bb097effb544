# MI355X: 256 CUs at 2.4 GHz, in a comment.
BLOCK = 256
PEAK_CLOCK_GHZ = {"gfx942": 2.1, "gfx950": 2.4}
