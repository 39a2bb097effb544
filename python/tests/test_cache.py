"""The JIT's disk cache is shared across processes (and with C++ programs):
a second process finds what the first compiled."""
import os
import subprocess
import sys

PROGRAM = """
import kcc
k = kcc.compile("attn_copy", chip="gfx942", DTYPE="f16")
print(k.cache_outcome, kcc.cache_dir())
"""


def test_second_process_hits_the_disk_cache(tmp_path):
    env = dict(os.environ, KCC_CACHE_DIR=str(tmp_path), PYTHONPATH=os.pathsep.join(sys.path))
    runs = [subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True,
                           text=True) for _ in range(2)]
    for r in runs:
        assert r.returncode == 0, r.stderr
    assert runs[0].stdout.split() == ["compiled", str(tmp_path)]
    assert runs[1].stdout.split() == ["disk-hit", str(tmp_path)]
