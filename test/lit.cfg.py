# -*- Python -*-
import os

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

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
# FileCheck, not, split-file and friends come from LLVM's tools directory.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.kcc_tools_dir, append_path=True)

# Keep the compile cache of tests inside the build tree.
config.environment["KCC_CACHE_DIR"] = os.path.join(config.kcc_obj_root, "test", "kcc-cache")

tool_dirs = [config.kcc_tools_dir, config.llvm_tools_dir]
tools = [
    "kcc",
    "kcc-opt",
    ToolSubst("%clang", command=os.path.join(config.llvm_tools_dir, "clang")),
    "llvm-mc",
    "llvm-readelf",
    "llvm-objdump",
    "ld.lld",
    "split-file",
]
llvm_config.add_tool_substitutions(tools, tool_dirs)
