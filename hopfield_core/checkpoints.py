"""The one checkpoint loader of the core, for every model it ships or finds installed (the
Energy Transformers, the digits ViT, the MiniLM): safetensors only, nothing ever unpickled,
the sha256 checked before a byte is used, every shape checked, the file named in every error.

A safetensors file starts with its header's length n (8 bytes, little-endian) and then the
JSON header itself, "{" first. A pickle (protocol 2 and up) starts with 0x80 and torch.save's
archive with "PK\\x03\\x04": but a safetensors header length can start with byte 0x80 too, so
a file counts as a pickle only when it is not shaped as a safetensors file.

torch and safetensors are imported inside the functions that read or write weights.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PICKLE_MAGIC = (b"\x80", b"PK\x03\x04")  # a raw pickle, or torch.save's zip archive


class CheckpointError(ValueError):
    """A checkpoint that is missing, damaged or not ours, with a sentence that says which."""


def shown(path: Path) -> str:
    """A file or folder as messages name it: relative to the project, never the server's full
    path (a file outside the project by its name)."""
    try:
        return str(Path(path).resolve().relative_to(REPO))
    except ValueError:
        return Path(path).name


def reason(e: Exception) -> str:
    """An exception's gist without file paths (OSError's str() names the full path)."""
    if isinstance(e, OSError):
        return e.strerror or type(e).__name__
    return str(e).replace(str(REPO), ".")


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def is_safetensors_shaped(path: Path) -> bool:
    """The 8-byte header length fits in the file and the header starts with "{"."""
    path = Path(path)
    with open(path, "rb") as f:
        head = f.read(9)
    if len(head) < 9:
        return False
    n = int.from_bytes(head[:8], "little")
    return head[8:9] == b"{" and 8 + n <= path.stat().st_size


def looks_like_pickle(path: Path) -> bool:
    """Not safetensors-shaped, and starting as a pickle or a torch.save archive does."""
    with open(path, "rb") as f:
        head = f.read(4)
    return head.startswith(PICKLE_MAGIC) and not is_safetensors_shaped(path)


def verify(path: Path, expected, what: str = "the", advice: str = "") -> None:
    """Refuse a file that is shaped as a pickle or whose sha256 is not `expected`
    (CheckpointError naming the file; `what` names its kind, `advice` what to do), before
    anything reads it."""
    path = Path(path)
    if looks_like_pickle(path):  # a safetensors header's length may start with 0x80 too
        raise CheckpointError(f"{path.name} looks like a pickle (torch.save) file. Only "
                              "safetensors files are accepted: pickles can run code.")
    actual = sha256_file(path)
    if actual != expected:
        raise CheckpointError(f"{path.name} does not match its recorded sha256 (expected "
                              f"{str(expected)[:12]}..., found {actual[:12]}...): {what} file "
                              f"is truncated, damaged or replaced.{advice}")


def read(path: Path, expected, what: str = "the", advice: str = "") -> dict:
    """The tensors of a verified safetensors file (name -> CPU tensor): `verify` first, then
    safetensors' own reader; a file it cannot read raises CheckpointError naming it."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    path = Path(path)
    verify(path, expected, what, advice)
    try:
        return load_file(str(path), device="cpu")
    except (SafetensorError, OSError, ValueError) as e:
        raise CheckpointError(f"{path.name} could not be read as safetensors ({reason(e)})."
                              ) from e


def fit(model, state: dict, name: str):
    """`state` loaded into `model` after every name and shape matched (CheckpointError naming
    the file `name` and what differs); returns the model in eval mode without gradients."""
    want = {k: tuple(v.shape) for k, v in model.state_dict().items()}
    got = {k: tuple(v.shape) for k, v in state.items()}
    if want != got:
        missing = sorted(set(want) - set(got))
        wrong = sorted(k for k in set(want) & set(got) if want[k] != got[k])
        extra = sorted(set(got) - set(want))
        raise CheckpointError(f"{name} does not fit the config: missing {missing}, "
                              f"wrong shape {[(k, got[k], want[k]) for k in wrong]}, "
                              f"unexpected {extra}.")
    model.load_state_dict(state)
    return model.eval().requires_grad_(False)


def write(tensors: dict, path: Path) -> str:
    """Write CPU tensors as safetensors; returns the file's sha256."""
    from safetensors.torch import save_file

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    save_file({k: v.detach().cpu().contiguous() for k, v in tensors.items()}, str(path),
              metadata={"format": "pt"})
    return sha256_file(path)
