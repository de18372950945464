"""Training data for the ET: crops of the photos bundled in scikit-image and scikit-learn,
augmented hard, plus procedural images. scikit-image and scikit-learn are training-time
dependencies only (requirements-dev.txt); the app never imports this module.

# B batch, S image side (32 or 64), C = 3 channels
"""
from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F

from .natural import natural, occlude
from .photos import HELD_OUT_PHOTOS


def _as_rgb(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a)
    a = a.astype(np.float32) / np.float32(255.0 if a.dtype == np.uint8 else (float(a.max()) or 1.0))
    if a.ndim == 2:
        a = np.repeat(a[:, :, None], 3, axis=2)
    return np.ascontiguousarray(a[:, :, :3])


def load_photo(name: str) -> np.ndarray:
    """(H, W, 3) float32 in [0, 1]."""
    if name in ("china", "flower"):
        from sklearn.datasets import load_sample_image
        return _as_rgb(load_sample_image(f"{name}.jpg"))
    import skimage.data
    if name == "motorcycle":
        return _as_rgb(skimage.data.stereo_motorcycle()[0])
    return _as_rgb(getattr(skimage.data, name)())


def load_photos(names) -> list[torch.Tensor]:
    return [torch.from_numpy(load_photo(n)) for n in names]


# ---------------------------------------------------------------- augmentation

def _resize(crop: torch.Tensor, size: int) -> torch.Tensor:
    """(h, w, 3) -> (size, size, 3), antialiased."""
    x = crop.permute(2, 0, 1)[None]
    x = F.interpolate(x, size=(size, size), mode="bilinear", antialias=True, align_corners=False)
    return x[0].permute(1, 2, 0)


def random_crop(photo: torch.Tensor, size: int, gen: torch.Generator) -> torch.Tensor:
    """A square crop at a random scale (from `size` pixels up to the shorter side)."""
    H, W, _ = photo.shape
    short = min(H, W)
    lo, hi = math.log(min(size, short)), math.log(short)
    side = int(math.exp(lo + (hi - lo) * torch.rand((), generator=gen).item()))
    top = int(torch.randint(0, H - side + 1, (), generator=gen))
    left = int(torch.randint(0, W - side + 1, (), generator=gen))
    return _resize(photo[top:top + side, left:left + side], size)


def _hue_rotate(img: torch.Tensor, angle: float) -> torch.Tensor:
    """Rotate the hue around the grey axis (a rotation in YIQ's chroma plane)."""
    to_yiq = torch.tensor([[0.299, 0.587, 0.114], [0.596, -0.274, -0.322], [0.211, -0.523, 0.312]])
    c, s = math.cos(angle), math.sin(angle)
    rot = torch.tensor([[1.0, 0, 0], [0, c, -s], [0, s, c]])
    m = torch.linalg.inv(to_yiq) @ rot @ to_yiq
    return (img @ m.T).clamp(0, 1)


def augment(img: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Flips, 90-degree rotations, channel permutations, hue shifts, greyscale."""
    r = torch.rand(6, generator=gen)
    if r[0] < 0.5:
        img = img.flip(1)
    img = torch.rot90(img, int(r[1] * 4) % 4, dims=(0, 1))
    if r[2] < 0.5:
        img = img[:, :, torch.randperm(3, generator=gen)]
    if r[3] < 0.5:
        img = _hue_rotate(img, float(r[4]) * 2 * math.pi)
    if r[5] < 0.1:
        img = (img @ torch.tensor([0.299, 0.587, 0.114]))[..., None].expand(-1, -1, 3)
    return img.contiguous()


# ---------------------------------------------------------------- procedural images

def procedural(size: int, gen: torch.Generator) -> torch.Tensor:
    """A random synthetic image: smooth noise, gradients, stripes, shapes, edges. (S, S, 3)"""
    u = lambda: float(torch.rand((), generator=gen))  # noqa: E731
    col = lambda: torch.rand(3, generator=gen)  # noqa: E731
    yy, xx = torch.meshgrid(torch.linspace(0, 1, size), torch.linspace(0, 1, size), indexing="ij")
    kind = int(torch.randint(0, 5, (), generator=gen))
    if kind == 0:  # smooth noise at a random scale
        low = torch.rand(3, 2 + int(u() * 6), 2 + int(u() * 6), generator=gen)
        img = F.interpolate(low[None], size=(size, size), mode="bicubic", align_corners=True)[0]
        img = img.permute(1, 2, 0)
    elif kind == 1:  # linear gradient between two colours
        a = u() * 2 * math.pi
        t = ((xx * math.cos(a) + yy * math.sin(a)) - 0.5 * (math.cos(a) + math.sin(a)) + 0.5).clamp(0, 1)
        img = col() * (1 - t[..., None]) + col() * t[..., None]
    elif kind == 2:  # stripes at a random angle and frequency
        a, f = u() * math.pi, 2 + u() * 10
        t = 0.5 + 0.5 * torch.sin(2 * math.pi * f * (xx * math.cos(a) + yy * math.sin(a)))
        img = col() * (1 - t[..., None]) + col() * t[..., None]
    elif kind == 3:  # discs and rectangles on a background
        img = col().expand(size, size, 3).clone()
        for _ in range(1 + int(u() * 5)):
            cx, cy, r = u(), u(), 0.05 + 0.3 * u()
            shape = ((xx - cx) ** 2 + (yy - cy) ** 2 < r * r) if u() < 0.5 else \
                ((xx - cx).abs() < r) & ((yy - cy).abs() < r * (0.3 + u()))
            img[shape] = col()
    else:  # a straight edge between two textured halves
        a = u() * 2 * math.pi
        side = (xx - 0.5) * math.cos(a) + (yy - 0.5) * math.sin(a) > (u() - 0.5) * 0.5
        noise = 0.1 * torch.rand(size, size, 1, generator=gen)
        img = torch.where(side[..., None], col(), col()) + noise
    return img.clamp(0, 1).float()


class Sampler:
    """Batches of S x S training images: photo crops (augmented) and procedural images; with
    p_natural, that share of the procedural ones are natural-statistics images (dead leaves,
    1/f noise: natural.py), and with p_occlude that share of the photo crops get shapes painted
    over them. Both 0 (the default): the same stream of images as before they existed."""

    def __init__(self, photos: list[torch.Tensor], size: int, seed: int, p_procedural: float = 0.3,
                 p_natural: float = 0.0, p_occlude: float = 0.0):
        self.photos, self.size, self.p = photos, size, p_procedural
        self.p_natural, self.p_occlude = p_natural, p_occlude
        self.gen = torch.Generator().manual_seed(seed)
        self.palette = _palette(photos, self.gen) if p_natural or p_occlude else None  # (M, 3)

    def batch(self, n: int) -> torch.Tensor:
        out = []
        for _ in range(n):
            if torch.rand((), generator=self.gen) < self.p:
                if self.p_natural and torch.rand((), generator=self.gen) < self.p_natural:
                    out.append(natural(self.size, self.gen, self.palette))
                else:
                    out.append(procedural(self.size, self.gen))
            else:
                i = int(torch.randint(0, len(self.photos), (), generator=self.gen))
                img = augment(random_crop(self.photos[i], self.size, self.gen), self.gen)
                if self.p_occlude and torch.rand((), generator=self.gen) < self.p_occlude:
                    img = occlude(img, self.gen, self.palette)
                out.append(img)
        return torch.stack(out)  # (B, S, S, 3)


def _palette(photos: list[torch.Tensor], gen: torch.Generator, per_photo: int = 256) -> torch.Tensor:
    """(M, 3) colours of real pixels, per_photo drawn at random from each training photo."""
    picks = []
    for ph in photos:
        flat = ph.reshape(-1, 3)
        picks.append(flat[torch.randint(0, len(flat), (per_photo,), generator=gen)])
    return torch.cat(picks)


def held_out_set(size: int = 32, per_photo: int = 48, seed: int = 1234):
    """Fixed validation crops of the held-out photos, with fixed 50 % random patch masks
    built by `random_masks`. Returns images (M, S, S, 3)."""
    gen = torch.Generator().manual_seed(seed)
    crops = [random_crop(p, size, gen) for p in load_photos(HELD_OUT_PHOTOS) for _ in range(per_photo)]
    return torch.stack(crops)


def shape_masks(n: int, grid: int, gen: torch.Generator) -> torch.Tensor:
    """(n, G*G) bool masks of other shapes than scattered patches, one kind per image: a
    rectangle (2 to 3/4 G patches a side), half the image (a random side), or 2 to 4 small
    rectangles (1 to G/2 a side). Each hides at least one patch and leaves one visible."""
    out = torch.zeros(n, grid, grid, dtype=torch.bool)
    r = lambda lo, hi: int(torch.randint(lo, hi + 1, (), generator=gen))  # noqa: E731
    for i in range(n):
        kind = r(0, 2)
        if kind == 0:
            h, w = r(2, 3 * grid // 4), r(2, 3 * grid // 4)
            out[i, r(0, grid - h):, :][:h, r(0, grid - w):][:, :w] = True
        elif kind == 1:
            side, half = r(0, 3), grid // 2
            region = [(slice(0, half), slice(None)), (slice(half, None), slice(None)),
                      (slice(None), slice(0, half)), (slice(None), slice(half, None))][side]
            out[i][region] = True
        else:
            for _ in range(r(2, 4)):
                h, w = r(1, grid // 2), r(1, grid // 2)
                out[i, r(0, grid - h):, :][:h, r(0, grid - w):][:, :w] = True
    return out.reshape(n, grid * grid)


def random_masks(n: int, n_patches: int, ratio: float, gen: torch.Generator) -> torch.Tensor:
    """(n, N) bool: exactly round(ratio * N) patches hidden per image, chosen at random."""
    k = int(round(ratio * n_patches))
    order = torch.rand(n, n_patches, generator=gen).argsort(dim=1)  # (n, N) a random permutation
    return torch.zeros(n, n_patches, dtype=torch.bool).scatter_(1, order[:, :k], True)
