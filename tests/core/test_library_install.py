"""hopfield_core as a library (issue 32): `pip install .` into a new virtual environment gives a
working package with NumPy as its only hard dependency, and examples/notebook.py runs there,
outside the repository, importing neither torch, Pillow, Streamlit nor Plotly.

The environment sees the machine's site-packages (for NumPy: no download), and the wheel is
built from a copy of what `pip install .` reads (pyproject.toml, its readme, hopfield_core/),
so the checkout gets no build/ or egg-info folders.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("torch", "PIL", "streamlit", "plotly", "pandas")

CHECK = """
import importlib.metadata as md, json, runpy, sys
import hopfield_core
runpy.run_path(sys.argv[1], run_name="__main__")
print(json.dumps({"file": hopfield_core.__file__, "requires": md.requires("hopfield-core"),
                  "version": md.version("hopfield-core"), "__version__": hopfield_core.__version__,
                  "heavy": [m for m in %r if m in sys.modules]}))
""" % (HEAVY,)


def test_pip_install_gives_a_working_hopfield_core_with_numpy_only(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(ROOT / "pyproject.toml", src)
    (src / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "notebook.md", src / "docs")
    shutil.copytree(ROOT / "hopfield_core", src / "hopfield_core",
                    ignore=shutil.ignore_patterns("__pycache__"))
    # the wheel `pip install .` would build (this interpreter's setuptools: a new environment
    # carries an older one), installed into a new environment
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    subprocess.run([*pip, "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w",
                    str(tmp_path / "dist"), str(src)], check=True, cwd=tmp_path)
    wheel, = (tmp_path / "dist").glob("hopfield_core-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--no-deps",
                    "--disable-pip-version-check", str(wheel)], check=True, cwd=tmp_path)
    example = tmp_path / "notebook.py"
    shutil.copy(ROOT / "examples" / "notebook.py", example)
    done = subprocess.run([str(py), "-c", CHECK, str(example)], capture_output=True, text=True,
                          cwd=tmp_path, env={"PATH": str(venv / "bin"), "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    *printed, last = done.stdout.strip().splitlines()
    facts = json.loads(last)
    assert Path(facts["file"]).is_relative_to(venv), facts["file"]  # the installed copy
    hard = [r for r in facts["requires"] if "extra ==" not in r]
    assert hard == ["numpy<3,>=1.26"] or hard == ["numpy>=1.26,<3"], hard
    assert facts["version"] and facts["heavy"] == [], facts
    assert facts["__version__"] == facts["version"] == pyproject_version()
    text = "\n".join(printed)
    assert "one modern step == attention with beta = 64: True" in text
    for name in ("classical (Hopfield 1982), async", "dense, polynomial n = 3", "dense, exponential",
                 "modern, beta = 64"):
        line = next(ln for ln in printed if ln.startswith(name))
        start, end = (float(v) for v in line.split("E:")[1].split("steps")[0].split("->"))
        assert end <= start, line  # the energy fell
        assert line.endswith("overlap with pattern 0 1.000"), line


def pyproject_version() -> str:
    import re

    return re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M)[1]


def test_the_checkouts_version_is_pyprojects():
    import hopfield_core

    assert hopfield_core.__version__ == pyproject_version()
