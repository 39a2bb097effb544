//===- Options.td - The options of `kcc FILE.mlir` -------------*- tablegen -*-===//
//
// What `kcc FILE.mlir ...` accepts, parsed by LLVM's OptTable (as clang and
// lld parse theirs) and printed by `kcc --help`. Long options take one or
// two dashes; the single-letter ones follow clang (-S, -c, -o, -O, -D, -v).
// OptTable prints help text as written, one line per option: keep each
// short enough for an 80-column terminal; the README has the details.
// The subcommands (`kcc run`, `kcc cache`, `kcc emu-coverage`) have their
// own options and --help.
//
//===----------------------------------------------------------------------===//
include "llvm/Option/OptParser.td"

class F<string name, string help> : Flag<["--", "-"], name>, HelpText<help>;
class Eq<string name, string meta, string help>
    : Joined<["--", "-"], name # "=">, MetaVarName<meta>, HelpText<help>;
// `--name VALUE` as well as `--name=VALUE`, folded into the `=` form.
class Sep<string name, Option eq> : Separate<["--", "-"], name>, Alias<eq>;

def mcpu_EQ : Eq<"mcpu", "CHIP", "gfx942 (MI300X) or gfx950 (MI355X); required">;
def mcpu : Sep<"mcpu", mcpu_EQ>;

def D : JoinedOrSeparate<["-"], "D">, MetaVarName<"NAME=VALUE">,
        HelpText<"bind a kernel parameter (repeatable)">;

def emit_EQ : Eq<"emit", "STAGE",
    "stop after tile, rocdl, llvm, asm, obj or hsaco (default); launcher: "
    "C files">;
def emit : Sep<"emit", emit_EQ>;
def S : Flag<["-"], "S">, Alias<emit_EQ>, AliasArgs<["asm"]>,
        HelpText<"the same as --emit=asm">;
def c : Flag<["-"], "c">, Alias<emit_EQ>, AliasArgs<["obj"]>,
        HelpText<"the same as --emit=obj (default output a.o)">;

def o : JoinedOrSeparate<["-"], "o">, MetaVarName<"FILE">,
        HelpText<"output (default a.hsaco, a.o; stdout for text stages)">;
def O : Joined<["-"], "O">, MetaVarName<"N">,
        HelpText<"LLVM optimisation level N, 0 to 3 (default 3)">;

def stats : F<"stats", "registers, spills, LDS, occupancy, instructions per kernel">;
def stats_EQ : Eq<"stats", "json", "the same as JSON">;

def save_temps : F<"save-temps", "also write every stage beside the output">;

def g : Flag<["-"], "g">, HelpText<"line tables: .loc in the assembly, .debug_line in objects">;
def v : Flag<["-"], "v">, HelpText<"print each stage as it ends, with its time">;
def mllvm : Separate<["-"], "mllvm">, MetaVarName<"OPTION">,
    HelpText<"an option for LLVM's backend (-mllvm -amdgpu-sched-strategy=...)">;

def help : F<"help", "this text">;
def h : Flag<["-"], "h">, Alias<help>;
def version : F<"version", "this build's identity (the compile cache's key)">;
