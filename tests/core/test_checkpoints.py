"""One checkpoint loader (hopfield_core.checkpoints) serves the three models: the Energy
Transformers, the digits ViT and the MiniLM. Each refuses a pickle and a file whose sha256 is
not the recorded one, naming the file, before a byte of it is read as weights."""
import ast
import json
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("safetensors")

from hopfield_core import checkpoints  # noqa: E402
from hopfield_core.et import checkpoint as et_checkpoint  # noqa: E402
from hopfield_core.heads import minilm, vit_checkpoint  # noqa: E402

CORE = Path(checkpoints.__file__).parent
PICKLE = b"\x80\x04" + b"\x00" * 64  # starts as a pickle of protocol 4 does


def readers_of_weights(path: Path) -> set[str]:
    """The safetensors or torch readers a file calls or imports (load_file, safe_open,
    torch.load)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and "safetensors" in node.module:
            found |= {a.name for a in node.names if a.name in ("load_file", "safe_open", "load")}
        if isinstance(node, ast.Attribute) and node.attr == "load" \
                and isinstance(node.value, ast.Name) and node.value.id == "torch":
            found.add("torch.load")
    return found


def test_only_the_one_loader_reads_weights():
    readers = {str(p.relative_to(CORE)): readers_of_weights(p) for p in CORE.rglob("*.py")}
    assert {name for name, found in readers.items() if found} == {"checkpoints.py"}, readers


@pytest.mark.parametrize("source, found", [
    ("from safetensors.torch import load_file\n", {"load_file"}),
    ("def f():\n    from safetensors import safe_open\n", {"safe_open"}),
    ("import torch\nstate = torch.load('x.pt')\n", {"torch.load"}),
    ("from safetensors.torch import save_file\n", set()),
])
def test_the_reader_scan_finds_a_second_loader(tmp_path, source, found):
    path = tmp_path / "loader.py"
    path.write_text(source)
    assert readers_of_weights(path) == found


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("paper"))
    return dst


def test_the_et_refuses_a_pickle_and_a_changed_file_naming_it(tmp_path):
    folder = _copy(et_checkpoint.ASSET_DIR, tmp_path / "et")
    weights = folder / et_checkpoint.WEIGHTS
    weights.write_bytes(PICKLE)
    with pytest.raises(checkpoints.CheckpointError, match="model.safetensors looks like a pickle"):
        et_checkpoint.load(folder)
    weights.write_bytes(b"{}" * 40)
    with pytest.raises(checkpoints.CheckpointError,
                       match="model.safetensors does not match its recorded sha256"):
        et_checkpoint.load(folder)


def test_the_vit_refuses_a_pickle_and_a_changed_file_naming_it(tmp_path):
    folder = _copy(vit_checkpoint.ASSET_DIR, tmp_path / "vit")
    (folder / vit_checkpoint.HELDOUT).write_bytes(PICKLE)
    with pytest.raises(checkpoints.CheckpointError,
                       match="heldout.safetensors looks like a pickle"):
        vit_checkpoint.load_heldout(folder)
    (folder / vit_checkpoint.WEIGHTS).write_bytes(b"{}" * 40)
    with pytest.raises(checkpoints.CheckpointError,
                       match="model.safetensors does not match its recorded sha256.*Retrain"):
        vit_checkpoint.load(folder)


def test_the_minilm_refuses_a_changed_file_naming_it(tmp_path):
    for name in minilm.FILES[1:]:
        (tmp_path / name).write_text("{}" if name.endswith(".json") else "[PAD]\n")
    (tmp_path / "model.safetensors").write_bytes(b"{}" * 40)
    with pytest.raises(minilm.MiniLMUnavailable,
                       match="model.safetensors does not match its recorded sha256") as e:
        minilm.verified_weights(tmp_path)
    assert isinstance(e.value, checkpoints.CheckpointError)


def test_a_file_that_verifies_but_is_not_safetensors_is_named(tmp_path):
    path = tmp_path / "weights.safetensors"
    path.write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00{not json at all}")
    with pytest.raises(checkpoints.CheckpointError,
                       match="weights.safetensors could not be read as safetensors"):
        checkpoints.read(path, checkpoints.sha256_file(path))


def test_a_state_of_other_shapes_is_refused_naming_the_file():
    model = torch.nn.Linear(3, 2)
    state = {"weight": torch.zeros(2, 4), "bias": torch.zeros(2)}
    with pytest.raises(checkpoints.CheckpointError, match=r"w.safetensors does not fit.*weight"):
        checkpoints.fit(model, state, "w.safetensors")


def test_written_weights_read_back_exactly(tmp_path):
    model = torch.nn.Linear(3, 2)
    digest = checkpoints.write(model.state_dict(), tmp_path / "w.safetensors")
    state = checkpoints.read(tmp_path / "w.safetensors", digest)
    loaded = checkpoints.fit(torch.nn.Linear(3, 2), state, "w.safetensors")
    assert torch.equal(loaded.weight, model.weight) and not loaded.weight.requires_grad
    assert json.dumps(sorted(state)) == '["bias", "weight"]'
