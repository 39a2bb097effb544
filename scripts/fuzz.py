#!/usr/bin/env python3
"""Fuzzing of kcc: crash fuzzing of its front door, differential fuzzing of the emulator.

kcc must answer bad input with an error, never a crash, a hang or an
assertion. The mlir and code-object modes mutate inputs and run the tools on
them; any run that dies by a signal, prints an LLVM stack dump / assertion /
"LLVM ERROR", or exceeds the time limit is saved under OUT_DIR for a look.
The emu-diff mode checks the emulator's results against the host's.

  scripts/fuzz.py mlir  [--build build] [--seed N] [--runs N] [--out DIR]
      mutates kernels/*/*.mlir and test/{Dialect,Transforms}/**/*.mlir
      (deleted, duplicated, re-typed and re-numbered lines, cut tokens) and
      compiles them with kcc (kernels) or kcc-opt's tile pipeline (tests),
      for gfx942 or gfx950 at random.
  scripts/fuzz.py code-object [--build build] [--seed N] [--runs N] [--out DIR]
      compiles kernels/gemm/gemm.mlir, damages the code object (truncation,
      random bytes, bit flips, 0/-1/2^31 words) and runs it with kcc run on
      the emulator.
  scripts/fuzz.py emu-diff [--build build] [--seed S] [--runs N] [--chip gfx942|gfx950]
      differential fuzzing of the emulator (docs/testing.md, "Differential fuzzing"):
      N random LLVM IR programs per chip (both chips unless --chip), seeds
      S .. S+N-1, each compiled for the chip and run on the emulator and on
      the host by kcc-emu-fuzz, every lane's results compared. Mismatching
      programs are written to OUT_DIR (their GPU and host modules, the
      optimised IR, the assembly and the inputs); a program that crashes the
      tool is reported by its seed and the run goes on after it.

Not part of the test suite (it takes minutes and is random by design); the
crashes it found are fixed and kept as tests (test/unit/CompilerTest.cpp,
test/Transforms/tile-specialize-errors.mlir), the emulator's mismatches in
test/emu/FuzzRegressionTests.cpp, and a fixed-seed emu-diff set runs in
test/emu/fuzz.
"""
import argparse
import glob
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def crashed(r):
    text = r.stderr
    return (r.returncode < 0 or r.returncode >= 128 or 'Stack dump' in text or
            'Assertion' in text or 'LLVM ERROR' in text or 'UNREACHABLE' in text)


def run(cmd, timeout):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, errors='replace',
                              timeout=timeout), False
    except subprocess.TimeoutExpired:
        return None, True


WORDS = ['index', 'i32', 'f32', 'bf16', 'i1', '0', '1', '-1', '64', '%c0', '#tile.mfma<a>',
         '#tile.mfma<acc>', '!tile.tile<[32, 32], f32, #tile.mfma<acc>>', '[BN, D]',
         'transpose', 'pad = 8', 'stages = 3', '@BN', 'x 0', '}', '{', ')', '(', ':', '->',
         'tile.yield', 'scf.yield', '0xFFFFFFFF']


def mutate(text, rng):
    lines = text.split('\n')
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        kind = rng.randrange(6)
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif kind == 2:
            toks = re.split(r'(\s+)', lines[i])
            toks[rng.randrange(len(toks))] = rng.choice(WORDS)
            lines[i] = ''.join(toks)
        elif kind == 3:
            lines[i] = re.sub(r'\d+', lambda m: str(rng.choice(
                [0, 1, 3, 7, 17, 33, 100, 4096, 65536, 2**31, 2**40])), lines[i], count=1)
        elif kind == 4:
            j = rng.randrange(max(1, len(lines[i])))
            lines[i] = lines[i][:j] + lines[i][j + rng.randint(1, 5):]
        else:
            lines[i] = (lines[i].replace('f32', 'f16', 1) if rng.random() < 0.5
                        else lines[i].replace('index', 'i64', 1))
    return '\n'.join(lines)


def fuzz_mlir(args, rng, tmp):
    files = sorted(glob.glob(os.path.join(ROOT, 'kernels/*/*.mlir')) +
                   glob.glob(os.path.join(ROOT, 'test/Dialect/**/*.mlir'), recursive=True) +
                   glob.glob(os.path.join(ROOT, 'test/Transforms/**/*.mlir'), recursive=True))
    sources = {f: open(f).read() for f in files}
    bad = 0
    for n in range(args.runs):
        f = rng.choice(files)
        case = os.path.join(tmp, 'case.mlir')
        open(case, 'w').write(mutate(sources[f], rng))
        chip = rng.choice(['gfx942', 'gfx950'])
        if '/kernels/' in f:
            cmd = [os.path.join(args.build, 'bin/kcc'), case, '--mcpu=' + chip,
                   '--emit=asm', '-o', os.devnull]
        else:
            cmd = [os.path.join(args.build, 'bin/kcc-opt'), case,
                   '--tile-specialize=chip=' + chip, '--tile-allocate-lds',
                   '--tile-expand-schedule', '--convert-tile-to-rocdl']
        r, timed_out = run(cmd, args.timeout)
        if timed_out or crashed(r):
            bad += 1
            out = os.path.join(args.out, 'mlir_%d_%d.mlir' % (args.seed, n))
            os.replace(case, out)
            print('TIMEOUT' if timed_out else 'CRASH', os.path.relpath(f, ROOT), '->', out)
    return bad


def fuzz_code_object(args, rng, tmp):
    base_path = os.path.join(tmp, 'gemm.hsaco')
    subprocess.run([os.path.join(args.build, 'bin/kcc'), os.path.join(ROOT, 'kernels/gemm/gemm.mlir'),
                    '--mcpu=gfx950', '-o', base_path], check=True)
    base = open(base_path, 'rb').read()
    a = os.path.join(tmp, 'a.bin')
    open(a, 'wb').write(bytes(256 * 64 * 2))
    kargs = ['--arg', 'in=' + a, '--arg', 'in=' + a, '--arg', 'out=%s:262144' % os.path.join(tmp, 'c.bin'),
             '--arg', 'null', '--arg', 'i32=256', '--arg', 'i32=256', '--arg', 'i32=64',
             '--arg', 'i32=64', '--arg', 'i32=64', '--arg', 'i32=256']
    bad = 0
    for n in range(args.runs):
        b = bytearray(base)
        kind = rng.randrange(4)
        if kind == 0:
            b = b[:rng.randrange(len(b))]
        else:
            for _ in range(rng.randint(1, 8)):
                i = rng.randrange(len(b))
                if kind == 1:
                    b[i] = rng.randrange(256)
                elif kind == 2:
                    b[i] ^= 1 << rng.randrange(8)
                else:
                    j = rng.randrange(max(1, len(b) - 4))
                    b[j:j + 4] = rng.choice([b'\xff\xff\xff\xff', b'\x00\x00\x00\x00',
                                             b'\x00\x00\x00\x80', b'\x01\x00\x00\x00'])
        case = os.path.join(tmp, 'case.hsaco')
        open(case, 'wb').write(bytes(b))
        cmd = [os.path.join(args.build, 'bin/kcc'), 'run', case, '--kernel', 'gemm', '--device',
               'emu:gfx950', '--grid', '2,2,1', '--block', '256'] + kargs
        r, timed_out = run(cmd, args.timeout)
        # A damaged instruction may make the kernel loop for a long time, as
        # it would on a GPU: time-outs are reported but not counted as bugs.
        if timed_out:
            print('TIMEOUT (long-running kernel?)', n)
        elif crashed(r):
            bad += 1
            out = os.path.join(args.out, 'co_%d_%d.hsaco' % (args.seed, n))
            os.replace(case, out)
            print('CRASH', r.returncode, '->', out, r.stderr.strip().split('\n')[-1][:160])
    return bad


def fuzz_emu_diff(args, rng, tmp):
    tool = os.path.join(args.build, 'bin/kcc-emu-fuzz')
    chips = [args.chip] if args.chip else ['gfx942', 'gfx950']
    bad = 0
    for chip in chips:
        seed, end = args.seed, args.seed + args.runs
        programs = mismatches = crashes = 0
        seconds = 0.0
        while seed < end:
            n = min(args.batch, end - seed)
            cmd = [tool, '--chip', chip, '--seed', str(seed), '--runs', str(n), '--dump', args.out]
            r, timed_out = run(cmd, args.timeout * n)
            if timed_out:
                print('TIMEOUT', chip, 'seeds', seed, '..', seed + n - 1)
                crashes += 1
                seed += n
                continue
            for line in r.stderr.splitlines():
                if 'mismatching values' in line or 'failed' in line or ': lane ' in line:
                    print(line)
            m = re.search(r'^(\d+) programs on \S+ \(seeds \S+, ([\d.]+) s\): (\d+) mismatches'
                          r'(?:, (\d+) failed)?', r.stdout, re.M)
            if m:
                programs += int(m.group(1))
                seconds += float(m.group(2))
                mismatches += int(m.group(3)) + int(m.group(4) or 0)
                seed += n
                continue
            # The tool died: its crash handler names the seed it was running.
            c = re.search(r'while running seed (\d+)', r.stderr)
            crashed_at = int(c.group(1)) if c else seed
            print('CRASH', chip, 'seed', crashed_at, r.stderr.strip().split('\n')[-1][:200])
            crashes += 1
            programs += crashed_at - seed + 1
            seed = crashed_at + 1
        print('%s: %d programs, %d mismatches, %d crashes (%.0f s in the tool)' %
              (chip, programs, mismatches, crashes, seconds))
        bad += mismatches + crashes
    return bad


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('mode', choices=['mlir', 'code-object', 'emu-diff'])
    p.add_argument('--chip', choices=['gfx942', 'gfx950'], help='emu-diff: one chip only')
    p.add_argument('--batch', type=int, default=200, help='emu-diff: programs per process')
    p.add_argument('--build', default=os.path.join(ROOT, 'build'))
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--runs', type=int, default=200)
    p.add_argument('--timeout', type=int, default=60)
    p.add_argument('--out', default='fuzz-out')
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        if args.mode == 'emu-diff':
            bad = fuzz_emu_diff(args, rng, tmp)
            print('%d runs per chip, %d mismatches, crashes or hangs' % (args.runs, bad))
        else:
            bad = (fuzz_mlir if args.mode == 'mlir' else fuzz_code_object)(args, rng, tmp)
            print('%d runs, %d crashes or hangs' % (args.runs, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
