#!/usr/bin/env python3
"""Fails when the README or a page of docs/ names something that does not exist.

  check_docs.py --root SRC --kcc KCC [FILE.md ...]

Checks every FILE (default: SRC/README.md and SRC/docs/**/*.md) for
  - tile ops: `tile.NAME` must be an op of dialects/Tile/TileOps.td (its
    mnemonic), or one of the dialect's attribute names (`tile.kernel`,
    `tile.block_size`, ... as the dialect and passes spell them);
    `!tile.NAME` must be a type of TileTypes.td, `#tile.NAME` an attribute of
    TileAttrs.td;
  - kcc options: a `--NAME` on a line or inline span that runs `kcc` must be
    listed by `kcc --help` for that subcommand (`kcc run`, `kcc cache`,
    `kcc emu-coverage`, `kcc run gemm|attention|attention_backward`, whose
    help lists its own options and defers the timing ones to `kcc run --help`,
    so both count);
  - repository paths: a path under one of the tree's top folders
    (kernels/gemm/gemm.mlir, docs/x.md, benchmarks/y.cpp; {a,b} alternatives
    and * globs expanded) must exist, and so must the target of every
    relative Markdown link.
Prints one line per problem, FILE:LINE: ..., and exits 1 if there is any.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

TOP = ("benchmarks", "cmake", "compiler", "dialects", "docs", "kernels", "passes",
       "python", "runtime", "scripts", "target", "test", "tools")


def defined_ops(root):
    td = open(os.path.join(root, "dialects/Tile/TileOps.td")).read()
    ops = set(re.findall(r'Tile_Op<"([a-z0-9_]+)"', td))
    ops |= set(re.findall(r'Tile_(?:Binary|Reduce)Op<"([a-z0-9_]+)"', td))
    return ops


def defined_mnemonics(root, path, kind):
    td = open(os.path.join(root, path)).read()
    return set(re.findall(r'Tile_%s<"\w+", "([a-z0-9_]+)"' % kind, td))


def attribute_names(root):
    """`tile.NAME` strings the dialect and the passes read or write."""
    names = set()
    for folder in ("dialects", "passes", "compiler"):
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            for f in files:
                if f.endswith((".cpp", ".h", ".td")):
                    text = open(os.path.join(dirpath, f), errors="replace").read()
                    names |= set(re.findall(r'"tile\.([a-z0-9_]+)"', text))
    return names


def help_options(kcc, args):
    out = subprocess.run([kcc] + args + ["--help"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, universal_newlines=True).stdout
    opts = set(re.findall(r"--[a-z][a-z0-9-]*", out))
    if not opts:
        sys.exit("check_docs: `%s %s --help` lists no options" % (kcc, " ".join(args)))
    return opts


class Options:
    def __init__(self, kcc):
        self.kcc = kcc
        self.cache = {}

    def get(self, sub):
        if sub not in self.cache:
            opts = help_options(self.kcc, list(sub)) | {"--help"}
            if sub[:1] == ("run",) and len(sub) == 2:
                opts |= self.get(("run",))
            self.cache[sub] = opts
        return self.cache[sub]


KCC_CMD = re.compile(r"(?:^|[\s`(|;&$])(?:\S*/)?kcc((?:\s+[^\s`|;&]+)*)")


def kcc_commands(text):
    """(subcommand, option list) of each kcc command line in text."""
    for m in KCC_CMD.finditer(text):
        words = m.group(1).split()
        sub = ()
        if words and words[0] in ("run", "cache", "emu-coverage"):
            sub = (words[0],)
            if words[0] == "run" and len(words) > 1 and words[1] in (
                    "gemm", "attention", "attention_backward"):
                sub = ("run", words[1])
        opts = []
        for w in words:
            for o in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", w):
                opts.append(o)
        yield sub, opts


def expand(path):
    m = re.search(r"\{([^{}]*)\}", path)
    if not m:
        return [path]
    out = []
    for alt in m.group(1).split(","):
        out += expand(path[:m.start()] + alt + path[m.end():])
    return out


PATH = re.compile(r"(?<![\w./$-])((?:%s)/[\w./{},*+-]*[\w/*}])" % "|".join(TOP))
LINK = re.compile(r"\]\(([^)\s]+)\)")
OP = re.compile(r"(?<![\w.#!/=-])tile\.([a-z][a-z0-9_]*)")
TYPE = re.compile(r"!tile\.([a-z][a-z0-9_]*)")
ATTR = re.compile(r"#tile\.([a-z][a-z0-9_]*)")


def exists(root, path):
    for p in expand(path):
        full = os.path.join(root, p)
        if "*" in p:
            if not glob.glob(full):
                return False
        elif not os.path.exists(full):
            return False
    return True


def lines_of(path):
    """(line number, text, in a code block) of each line; in code blocks a
    command continued with a backslash is one line, numbered by its first."""
    in_code = False
    pending = None
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if line.lstrip().startswith("```"):
            if pending:
                yield pending[0], pending[1], True
                pending = None
            in_code = not in_code
            yield n, line, False
            continue
        if in_code:
            if pending:
                pending = (pending[0], pending[1] + " " + line.strip())
            else:
                pending = (n, line)
            if not pending[1].endswith("\\"):
                yield pending[0], pending[1], True
                pending = None
            else:
                pending = (pending[0], pending[1][:-1])
        else:
            yield n, line, False


def check_file(path, root, ops, types, attrs, names, options, problems):
    rel = os.path.relpath(path, root)
    for n, line, in_code in lines_of(path):
        where = "%s:%d" % (rel, n)
        for op in OP.findall(line):
            if op not in ops and op not in names:
                problems.append("%s: 'tile.%s' is not an op of dialects/Tile/TileOps.td" % (where, op))
        for t in TYPE.findall(line):
            if t not in types:
                problems.append("%s: '!tile.%s' is not a type of dialects/Tile/TileTypes.td" % (where, t))
        for a in ATTR.findall(line):
            if a not in attrs:
                problems.append("%s: '#tile.%s' is not an attribute of dialects/Tile/TileAttrs.td" % (where, a))
        # kcc command lines: in code blocks the whole line, in prose each inline span.
        spans = [line] if in_code else re.findall(r"`([^`]*)`", line)
        for span in spans:
            for sub, opts in kcc_commands(span):
                known = options.get(sub)
                for o in opts:
                    if o not in known:
                        problems.append("%s: '%s' is not an option of `kcc%s --help`"
                                        % (where, o, "".join(" " + s for s in sub)))
        for p in PATH.findall(LINK.sub("]", line)):  # link targets: below
            p = p.rstrip(".,:;")
            if not exists(root, p):
                problems.append("%s: '%s' does not exist in the tree" % (where, p))
        for target in LINK.findall(line):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            target = target.split("#")[0]
            if not os.path.exists(os.path.join(os.path.dirname(path), target)):
                problems.append("%s: the link '%s' leads nowhere" % (where, target))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True, help="the source tree")
    ap.add_argument("--kcc", required=True, help="the kcc binary whose --help counts")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    files = args.files or ([os.path.join(root, "README.md")] + sorted(
        glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True)))
    ops = defined_ops(root)
    types = defined_mnemonics(root, "dialects/Tile/TileTypes.td", "Type")
    attrs = defined_mnemonics(root, "dialects/Tile/TileAttrs.td", "Attr")
    if not ops or not types or not attrs:
        sys.exit("check_docs: found no ops, types or attributes under %s/dialects/Tile" % root)
    names = attribute_names(root)
    options = Options(args.kcc)
    problems = []
    for f in files:
        check_file(f, root, ops, types, attrs, names, options, problems)
    for p in problems:
        print(p)
    print("check_docs: %d files, %d ops known, %d problems" % (len(files), len(ops), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
