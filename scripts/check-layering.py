#!/usr/bin/env python3
"""Checks that no #include in kcc's tree runs against the flow of DESIGN.md.

    target <- dialects <- passes <- compiler <- runtime <- kernels <- tools, python

A part may include its own folder and the parts below it, never those above.
Besides the order, three rules: the runtime (runtime/ and everything in it)
reaches the compiler through compiler/ only, never passes/ (what both need,
such as a kernel parameter's binding, stands on target/); the emulator
(runtime/emu) and the HIP device (runtime/hip) stand on target/ and the
runtime's interfaces only, never on the compiler nor on each other; and the
ops in kernels/ reach a device through the Device interface, never an
implementation of it.

Usage: check-layering.py [ROOT]   (default: the tree this script is in)
Prints one line per forbidden include ("FILE:LINE: PART must not include
HEADER (RULE)") and exits 1 when there is any, else prints a summary and
exits 0. test/, benchmarks/ and build folders are not checked for includes:
tests and benchmarks may reach into any part they test or measure.

One rule holds everywhere, tests and benchmarks included: a device is reached
through the Device interface (runtime/Device.h), so no file outside runtime/
names the emulator's device or context (emu::Context, EmuDevice), except the
emulator's own tests (test/emu), which test exactly that API.

And a chip's facts are target/'s (ChipInfo in target/Target.cpp, the MFMA
rules in target/Isa.cpp): outside target/ no code (comments and string
literals aside; tests, which may state the facts they check, not looked at;
benchmarks are) writes one down again: MI300X's 304 CUs, MI355X's 256 where
a CU count is named, the peak clocks 2.1 and 2.4 GHz, the HBM bandwidths
5.3e12 and 8e12 B/s, the dense 16-bit peaks 1307.4 and 2516.6 TFLOPS.
"""
import os
import re
import sys

# Parts from the floor up. A file belongs to the longest matching prefix.
ORDER = ["target", "dialects", "passes", "compiler", "runtime", "kernels",
         "tools", "python"]

# Extra rules: (part of the including file, forbidden header prefix, why).
# A rule for a part holds in the folders inside it too ("runtime" for
# runtime/emu and runtime/hip as well).
SIBLING_RULES = [
    ("runtime", "passes/", "the runtime reaches the compiler through "
     "compiler/ only"),
    ("runtime/emu", "runtime/", "the emulator uses target/ only, not the "
     "rest of the runtime"),
    ("runtime/emu", "compiler/", "the emulator never uses the compiler"),
    ("runtime/emu", "passes/", "the emulator never uses the compiler"),
    ("runtime/emu", "dialects/", "the emulator never uses the compiler"),
    ("runtime/hip", "runtime/emu/", "devices never use each other"),
    ("runtime/hip", "compiler/", "the HIP device never uses the compiler"),
    ("runtime/hip", "passes/", "the HIP device never uses the compiler"),
    ("runtime/hip", "dialects/", "the HIP device never uses the compiler"),
    ("kernels", "runtime/emu/", "ops reach devices through the Device "
     "interface only"),
    ("kernels", "runtime/hip/", "ops reach devices through the Device "
     "interface only"),
]
# runtime/emu may include its own folder and runtime/hip its own.
SIBLING_ALLOWED = {"runtime/emu": ("runtime/emu/",),
                   "runtime/hip": ("runtime/hip/", "runtime/Device.h",
                                   "runtime/Launch.h")}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCE_SUFFIXES = (".h", ".cpp", ".c", ".inc", ".td")
SKIP_TOP = {"test", "benchmarks", "build", ".git", "docs", "scripts", "cmake"}


def part_of(path):
    """The part a tree-relative path belongs to, e.g. 'runtime/emu'."""
    if path.startswith("runtime/emu/"):
        return "runtime/emu"
    if path.startswith("runtime/hip/"):
        return "runtime/hip"
    top = path.split("/", 1)[0]
    return top if top in ORDER else None


def layer(part):
    return ORDER.index(part.split("/", 1)[0])


def violations(root):
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        if rel_dir == ".":
            dirnames[:] = [d for d in dirnames if d not in SKIP_TOP
                           and not d.startswith("build")]
            continue
        for name in sorted(filenames):
            if not name.endswith(SOURCE_SUFFIXES):
                continue
            rel = os.path.join(rel_dir, name).replace(os.sep, "/")
            part = part_of(rel)
            if part is None:
                continue
            with open(os.path.join(dirpath, name), encoding="utf-8",
                      errors="replace") as f:
                for number, text in enumerate(f, 1):
                    m = INCLUDE.match(text)
                    if not m:
                        continue
                    header = m.group(1)
                    target = part_of(header)
                    if target is None:
                        continue  # LLVM, MLIR, generated or system headers
                    why = None
                    if layer(target) > layer(part):
                        why = "%s is below %s in DESIGN.md's flow" % (
                            part.split("/")[0], target.split("/")[0])
                    allowed = SIBLING_ALLOWED.get(part, ())
                    if why is None and not header.startswith(allowed):
                        for who, prefix, reason in SIBLING_RULES:
                            inside = part == who or part.startswith(who + "/")
                            if inside and header.startswith(prefix):
                                why = reason
                                break
                    if why:
                        yield "%s:%d: %s must not include %s (%s)" % (
                            rel, number, part, header, why)


DEVICE_INTERNALS = re.compile(r"\b(emu::Context|EmuDevice)\b")
DEVICE_INTERNALS_ALLOWED = ("runtime/", "test/emu/", "test/layering/")


def device_internals(root):
    """Files outside runtime/ that name the emulator's device or context."""
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        if rel_dir == ".":
            dirnames[:] = [d for d in dirnames if d not in (".git", "docs")
                           and not d.startswith("build")]
            continue
        for name in sorted(filenames):
            if not name.endswith(SOURCE_SUFFIXES):
                continue
            rel = rel_dir + "/" + name
            if rel.startswith(DEVICE_INTERNALS_ALLOWED):
                continue
            with open(os.path.join(dirpath, name), encoding="utf-8",
                      errors="replace") as f:
                for number, text in enumerate(f, 1):
                    m = DEVICE_INTERNALS.search(text)
                    if m:
                        yield ("%s:%d: names %s (a device is reached through "
                               "the Device interface, runtime/Device.h)" %
                               (rel, number, m.group(1)))


# Literals that write a chip fact down, in code stripped of comments and
# string literals.
CHIP_FACTS = [
    (re.compile(r"\b304\b"), "MI300X's CU count"),
    (re.compile(r"\b(?:computeUnits|compute_units|cus|numCus|cu)\b[^;]*\b256\b"),
     "MI355X's CU count"),
    (re.compile(r"(?<![\w.])2\.[14](?![\w.])"), "a peak clock (GHz)"),
    (re.compile(r"(?<![\w.])(?:5\.3|8(?:\.0*)?)e\+?12\b"),
     "an HBM bandwidth (B/s)"),
    (re.compile(r"(?<![\w.])(?:1307\.4|2516\.6)(?:e\+?12)?\b"),
     "a dense 16-bit MFMA peak (TFLOPS)"),
]
CHIP_FACT_SUFFIXES = SOURCE_SUFFIXES + (".py",)
CHIP_FACT_TOPS = set(ORDER) - {"target"} | {"benchmarks"}
STRING_LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')


def code_lines(path):
    """(line number, the line's code): comments and string literals blanked."""
    python = path.endswith(".py")
    in_comment = False
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, text in enumerate(f, 1):
            code = STRING_LITERAL.sub('""', text)
            if python:
                yield number, code.split("#", 1)[0]
                continue
            if in_comment:
                if "*/" not in code:
                    continue
                code = code.split("*/", 1)[1]
                in_comment = False
            code = re.sub(r"/\*.*?\*/", " ", code)
            if "/*" in code:
                code, in_comment = code.split("/*", 1)[0], True
            yield number, code.split("//", 1)[0]


def chip_facts(root):
    """Code outside target/ that writes down a fact of target/'s ChipInfo."""
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        if rel_dir == ".":
            dirnames[:] = [d for d in dirnames if d in CHIP_FACT_TOPS]
            continue
        for name in sorted(filenames):
            if not name.endswith(CHIP_FACT_SUFFIXES):
                continue
            rel = rel_dir + "/" + name
            for number, code in code_lines(os.path.join(dirpath, name)):
                whats = [what for pattern, what in CHIP_FACTS
                         if pattern.search(code)]
                if whats:
                    yield ("%s:%d: writes down %s (a chip's facts are "
                           "target/'s: read them from ChipInfo)" %
                           (rel, number, " and ".join(whats)))


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))
    found = list(violations(root))
    named = list(device_internals(root))
    facts = list(chip_facts(root))
    for line in found + named + facts:
        print(line)
    if found:
        print("check-layering: %d forbidden include(s)" % len(found))
    if named:
        print("check-layering: %d use(s) of the emulator's device past the "
              "Device interface" % len(named))
    if facts:
        print("check-layering: %d chip fact(s) written down outside target/" %
              len(facts))
    if found or named or facts:
        return 1
    print("check-layering: no include runs against the flow, devices are "
          "reached through the Device interface, and chip facts come from "
          "target/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
