"""Flips one bit of a code object, as a damaged copy would have it.

    flip-bit.py IN OUT HEX_BYTES BYTE BIT

Finds HEX_BYTES (an instruction's encoding, e.g. 00810081) exactly once in
IN, flips bit BIT of its byte BYTE and writes the result to OUT. A pattern
found zero or several times is an error: the test must damage the
instruction it means to.
"""
import sys

src, dst, pattern, byte, bit = sys.argv[1:6]
data = bytearray(open(src, 'rb').read())
needle = bytes.fromhex(pattern)
at = data.find(needle)
if at < 0 or data.find(needle, at + 1) >= 0:
    sys.exit('flip-bit.py: %s occurs %s in %s' %
             (pattern, 'nowhere' if at < 0 else 'more than once', src))
data[at + int(byte)] ^= 1 << int(bit)
open(dst, 'wb').write(data)
