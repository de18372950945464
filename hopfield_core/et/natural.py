"""Procedural training images with the statistics of natural photos, generated in code (no
download): dead-leaves images (flat-coloured discs and rectangles occluding one another, sizes
drawn from a power law, so the picture looks alike at every scale, as photos do), 1/f ("pink")
noise textures (power spectrum falling as 1 / f^beta, beta near 2 as in photos), and shapes
occluding a photo crop. Colours are drawn from a palette of real photo pixels when one is given.

# S image side, C = 3 channels, M palette colours
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F


def _u(gen: torch.Generator) -> float:
    return float(torch.rand((), generator=gen))


def _colour(gen: torch.Generator, palette: torch.Tensor | None) -> torch.Tensor:
    """(3,): a pixel of the palette (M, 3) most of the time, else a uniform random colour."""
    if palette is not None and _u(gen) < 0.8:
        return palette[int(torch.randint(0, len(palette), (), generator=gen))].clone()
    return torch.rand(3, generator=gen)


def power_law_radius(n: int, r_min: float, r_max: float, gen: torch.Generator) -> torch.Tensor:
    """(n,) radii with density proportional to r^-3 on [r_min, r_max] (inverse CDF): the
    dead-leaves law under which the image is scale invariant."""
    u = torch.rand(n, generator=gen)
    a, b = r_min ** -2, r_max ** -2
    return (a - u * (a - b)) ** -0.5


def paint_shapes(img: torch.Tensor, n: int, gen: torch.Generator, palette: torch.Tensor | None,
                 r_min: float, r_max: float) -> torch.Tensor:
    """Paint n flat-coloured shapes (discs, ellipses, rotated rectangles, each with a faint
    linear shading) over img (S, S, 3), later ones on top. Coordinates in [0, 1]."""
    size = img.shape[0]
    yy, xx = torch.meshgrid(torch.linspace(0, 1, size), torch.linspace(0, 1, size), indexing="ij")
    radii = power_law_radius(n, r_min, r_max, gen)
    for r in radii.tolist():
        cx, cy, a = _u(gen) * 1.2 - 0.1, _u(gen) * 1.2 - 0.1, _u(gen) * math.pi
        dx, dy = xx - cx, yy - cy
        along, across = dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)
        aspect = 0.3 + 0.7 * _u(gen)
        if _u(gen) < 0.5:  # disc or ellipse
            inside = (along / r) ** 2 + (across / (r * aspect)) ** 2 < 1
        else:  # rectangle
            inside = (along.abs() < r) & (across.abs() < r * aspect)
        shade = 0.15 * (_u(gen) - 0.5) * (along / max(r, 1e-3)).clamp(-1, 1)  # (S, S)
        img = torch.where(inside[..., None], _colour(gen, palette) + shade[..., None], img)
    return img


def blur(img: torch.Tensor, sigma: float) -> torch.Tensor:
    """Gaussian blur of (S, S, 3) by sigma pixels (reflecting edges); sigma < 0.3: unchanged."""
    if sigma < 0.3:
        return img
    k = int(math.ceil(2.5 * sigma))
    t = torch.arange(-k, k + 1, dtype=torch.float32)
    w = torch.exp(-t * t / (2 * sigma * sigma))
    w = w / w.sum()
    x = img.permute(2, 0, 1)[:, None]  # (3, 1, S, S)
    x = F.conv2d(F.pad(x, (k, k, 0, 0), mode="reflect"), w.view(1, 1, 1, -1))
    x = F.conv2d(F.pad(x, (0, 0, k, k), mode="reflect"), w.view(1, 1, -1, 1))
    return x[:, 0].permute(1, 2, 0)


def dead_leaves(size: int, gen: torch.Generator, palette: torch.Tensor | None = None) -> torch.Tensor:
    """A dead-leaves image (S, S, 3): 60 to 260 shapes, radii from 1.5 pixels to half the image
    by the r^-3 law, slightly blurred (as a lens would) and with a little sensor noise."""
    img = _colour(gen, palette).expand(size, size, 3).clone()
    n = 60 + int(_u(gen) * 200)
    img = paint_shapes(img, n, gen, palette, r_min=1.5 / size, r_max=0.5)
    img = blur(img, 1.2 * _u(gen))
    img = img + 0.02 * _u(gen) * torch.randn(size, size, 3, generator=gen)
    return img.clamp(0, 1).float()


def pink_noise(size: int, gen: torch.Generator, palette: torch.Tensor | None = None) -> torch.Tensor:
    """A 1/f noise texture (S, S, 3): power spectrum 1 / f^beta, beta in [1.8, 3], a strong
    luminance field and two weaker colour fields, mapped through a random colour basis around
    a palette colour, at a random contrast."""
    fy = torch.fft.fftfreq(size)[:, None]
    fx = torch.fft.rfftfreq(size)[None, :]
    f = torch.sqrt(fy * fy + fx * fx).clamp_min(1.0 / size)  # (S, S/2+1)
    beta = 1.8 + 1.2 * _u(gen)
    amp = f ** (-beta / 2)
    fields = []
    for _ in range(3):
        spec = torch.complex(torch.randn(f.shape, generator=gen), torch.randn(f.shape, generator=gen)) * amp
        field = torch.fft.irfft2(spec, s=(size, size))
        fields.append((field - field.mean()) / field.std().clamp_min(1e-8))
    z = torch.stack(fields, dim=-1) * torch.tensor([1.0, 0.3, 0.3])  # (S, S, 3)
    start = torch.randn(3, 3, generator=gen)
    start[:, 0] = 1.0  # the first axis is grey: luminance
    basis = torch.linalg.qr(start)[0]
    basis = basis * basis[:, :1].sum().sign()  # luminance up, not down
    img = _colour(gen, palette) + (0.05 + 0.2 * _u(gen)) * z @ basis.T
    return img.clamp(0, 1).float()


def occlude(img: torch.Tensor, gen: torch.Generator, palette: torch.Tensor | None = None) -> torch.Tensor:
    """img (S, S, 3) with 1 to 6 flat shapes (2 pixels to a third of the image) painted over it."""
    size = img.shape[0]
    n = 1 + int(_u(gen) * 6)
    return paint_shapes(img.clone(), n, gen, palette, r_min=2.0 / size, r_max=0.33).clamp(0, 1).float()


def natural(size: int, gen: torch.Generator, palette: torch.Tensor | None = None) -> torch.Tensor:
    """A dead-leaves image (60 %) or a 1/f noise texture (40 %), (S, S, 3)."""
    if _u(gen) < 0.6:
        return dead_leaves(size, gen, palette)
    return pink_noise(size, gen, palette)
