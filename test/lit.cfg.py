# -*- Python -*-
import atexit
import os
import shutil
import tempfile

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "KCC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".s", ".hip", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kcc_obj_root, "test")
# Inputs/ folders hold files that RUN lines use; they are not tests.
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%kcc_src_root", config.kcc_src_root))
config.substitutions.append(("%kernels", os.path.join(config.kcc_src_root, "kernels")))
# test/install installs the build and compiles programs against it.
config.substitutions.append(("%kcc_obj_root", config.kcc_obj_root))
config.substitutions.append(("%{cxx}", config.kcc_cxx))
config.substitutions.append(("%{cc}", config.kcc_cc))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
# FileCheck, not, split-file and friends come from LLVM's tools directory.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.kcc_tools_dir, append_path=True)

# A compile cache created fresh for each run of the suite, inside the build
# tree, and removed when the run ends: no test can pass on a code object an
# earlier run (or an earlier build of kcc) left behind. One folder per run,
# so that two runs at once keep apart; folders of runs that were killed
# (their lit process is gone) are removed by the next run.
def _pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


_cache_root = os.path.join(config.kcc_obj_root, "test", "kcc-cache")
os.makedirs(_cache_root, exist_ok=True)
for _name in os.listdir(_cache_root):
    _path = os.path.join(_cache_root, _name)
    _pid = _name.split("-")[1] if _name.startswith("run-") else ""
    if not (_pid.isdigit() and _pid_alive(int(_pid))):
        shutil.rmtree(_path, ignore_errors=True)
        if os.path.isfile(_path):
            os.remove(_path)
_cache_dir = tempfile.mkdtemp(prefix="run-%d-" % os.getpid(), dir=_cache_root)
atexit.register(shutil.rmtree, _cache_dir, True)
config.environment["KCC_CACHE_DIR"] = _cache_dir
# The bound from the user's environment must not evict the suite's entries.
config.environment.pop("KCC_CACHE_MAX_BYTES", None)

# test/kcc/build-identity.test makes a git repository of its own.
if shutil.which("git"):
    config.available_features.add("git")

# test/python runs the package's pytest suite with the interpreter it was
# built for, importing it from the build tree.
if config.kcc_python:
    config.available_features.add("python")
    config.substitutions.append(("%python", config.kcc_python))
    config.substitutions.append(
        ("%kcc_python_path", os.path.join(config.kcc_obj_root, "python")))

tool_dirs = [config.kcc_tools_dir, config.llvm_tools_dir]
tools = [
    "kcc",
    "kcc-opt",
    "kcc-emu-fuzz",
    ToolSubst("%clang", command=os.path.join(config.llvm_tools_dir, "clang")),
    "llvm-mc",
    "llvm-readelf",
    "llvm-objdump",
    "ld.lld",
    "split-file",
]
llvm_config.add_tool_substitutions(tools, tool_dirs)
