"""Why the ET's energy falls (hopfield_core.et.descent): M three ways, the law by finite
differences, M's eigenvalues, and the rate the completion records."""
from dataclasses import replace

import numpy as np
import pytest
import torch

from hopfield_core.et import descent, load_pretrained
from hopfield_core.et.checkpoint import MODELS
from hopfield_core.et.config import ETConfig
from hopfield_core.et.descent import ROUNDING
from hopfield_core.et.model import EnergyTransformer

SMALL = replace(ETConfig(), dim=12, heads=2, head_dim=4, memories=7, image_size=16, patch_size=8,
                project=True, clamp_visible=True)


def small_model(seed: int = 0, gamma: float = 1.3) -> EnergyTransformer:
    torch.manual_seed(seed)
    m = EnergyTransformer(SMALL).double()
    with torch.no_grad():
        m.ln_gamma.fill_(gamma)
        m.ln_delta.normal_(0, 0.3)
    return m


def metric_closed_form(m: EnergyTransformer, x: torch.Tensor) -> torch.Tensor:
    """The oracle: M = (gamma / sigma) (I - 1 1^T / D - u u^T / D) per token, (N, D, D)."""
    D = x.shape[-1]
    xc = x - x.mean(dim=-1, keepdim=True)
    sigma = torch.sqrt((xc * xc).mean(dim=-1, keepdim=True) + m.cfg.eps)  # (N, 1)
    u = xc / sigma
    inner = torch.eye(D, dtype=x.dtype) - 1.0 / D - u[:, :, None] * u[:, None, :] / D
    return (m.ln_gamma / sigma)[:, :, None] * inner


def tokens(seed: int, n: int = 4, d: int = 12) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, d, generator=g, dtype=torch.float64) * 1.7 + 0.4


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_metric_three_ways(seed):
    m, x = small_model(seed), tokens(seed)
    jac = descent.metric(m, x)  # Jacobian of the layer norm
    hess = descent.metric_from_lagrangian(m, x)  # Hessian of L
    closed = metric_closed_form(m, x)
    assert torch.allclose(jac, hess, atol=1e-12)
    assert torch.allclose(jac, closed, atol=1e-12)
    assert torch.allclose(jac, jac.transpose(-1, -2), atol=1e-12)  # a Hessian: symmetric


def test_metric_times_is_the_matrix_product():
    m, x = small_model(), tokens(4)
    v = tokens(5)
    want = torch.einsum("nij,nj->ni", metric_closed_form(m, x), v)
    assert torch.allclose(m.metric_times(x, v), want, atol=1e-12)


HIDDEN = torch.tensor([[True, False, True, False]])  # (1, N): tokens 0 and 2 hidden


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("project", [True, False])
@pytest.mark.parametrize("mask", [None, HIDDEN])
def test_the_law_by_finite_differences(seed, project, mask):
    """dE/dt along dx/dt = -s (s = dE/dg, or its projection, on every token or on the hidden
    ones only) equals -(dE/dg)^T M s: the energy after a tiny move."""
    m = small_model(seed)
    m.cfg = replace(m.cfg, project=project)
    x = tokens(seed + 10)[None]  # (1, N, D)
    s = m.step(x, m.energy_grad(m.layer_norm(x)), mask)
    h = 1e-6
    E = lambda y: m.energy(m.layer_norm(y))  # noqa: E731
    numeric = (E(x - h * s) - E(x + h * s)) / (2 * h)
    assert torch.allclose(descent.energy_rate(m, x, mask), numeric, rtol=1e-6)
    assert float(descent.energy_rate(m, x, mask).detach()) <= 0


def test_the_visible_tokens_stay_as_encoded():
    """With a mask, only the hidden tokens move: the energy is minimised over them, given
    the visible ones."""
    m, x0 = small_model(2), tokens(13)[None]
    with torch.no_grad():
        x = m.evolve(x0, steps=5, mask=HIDDEN)
    assert torch.equal(x[0, 1], x0[0, 1]) and torch.equal(x[0, 3], x0[0, 3])
    assert (x[0, 0] - x0[0, 0]).norm() > 1e-3 and (x[0, 2] - x0[0, 2]).norm() > 1e-3


def test_the_projected_step_drops_what_the_layer_norm_ignores_and_the_law_is_exact():
    """The step drops dE/dg's parts along (1, ..., 1) and along x - mean x: it keeps each
    token's mean and is orthogonal to its centred self, so M s = (gamma / sigma) s and the law
    is -(gamma / sigma) |s|^2 exactly; M dE/dg differs from M s by the part along x - mean x,
    which M scales by (gamma / sigma) eps / (var + eps), not by 0."""
    m, x = small_model(3), tokens(11)[None]
    grad = m.energy_grad(m.layer_norm(x))
    s = m.step(x, grad)
    xc = x - x.mean(dim=-1, keepdim=True)
    assert torch.allclose(s.sum(dim=-1), torch.zeros(1, 4, dtype=s.dtype), atol=1e-12)
    assert torch.allclose((s * xc).sum(dim=-1), torch.zeros(1, 4, dtype=s.dtype), atol=1e-12)
    var = (xc * xc).mean(dim=-1, keepdim=True)
    sigma = torch.sqrt(var + SMALL.eps)  # (1, N, 1)
    assert torch.allclose(m.metric_times(x, s), m.ln_gamma / sigma * s, atol=1e-12)
    u_hat = xc / xc.norm(dim=-1, keepdim=True)
    along = (u_hat * grad).sum(dim=-1, keepdim=True)
    want = m.ln_gamma / sigma * SMALL.eps / (var + SMALL.eps) * along * u_hat
    assert torch.allclose(m.metric_times(x, grad) - m.metric_times(x, s), want, atol=1e-12)
    closed = -(m.ln_gamma / sigma[..., 0] * (s * s).sum(dim=-1)).sum(dim=-1)
    assert torch.allclose(descent.energy_rate(m, x), closed, rtol=1e-10)


@pytest.mark.parametrize("name, share", [("paper", 4), ("harmonic", 97)])
def test_with_the_shipped_weights_the_gradients_quadratic_form_is_not_the_rate(name, share):
    """descent.py's docstring: at step 8 on the page's default image (coffee, half hidden at
    random, seed 0), dE/dg points almost wholly along x - mean x; M scales that part by
    (gamma / sigma) eps / (var + eps), not 0, so -(dE/dg)^T M (dE/dg) over the hidden tokens
    (M by autograd) exceeds the true rate -(dE/dg)^T M s by that part: about 5 % of it for the
    paper-start model and 97 % for the harmonic-start one. -sum (gamma / sigma) |s|^2, the law
    the page states, is the rate exactly."""
    from hopfield_core.et.masks import random_mask
    from hopfield_core.presets import preset_image

    et = load_pretrained("cpu", MODELS[name])
    img = preset_image("photos", "coffee", et.image_size[0])
    mask = random_mask(et.cfg.grid, 0.5, 0)
    out = et.complete(img, mask)
    assert len(out.tokens) == 9  # steps 0 to 8, the trained T
    m = et.model.double()
    x = torch.from_numpy(out.tokens[8]).double()[None]  # (1, N, D)
    hidden = torch.from_numpy(mask.reshape(1, -1))      # (1, N)
    with torch.no_grad():
        grad = m.energy_grad(m.layer_norm(x))
        s = m.step(x, grad, hidden)
    rate = float(descent.energy_rate(m, x, hidden).detach())
    xc = x - x.mean(dim=-1, keepdim=True)
    var = (xc * xc).mean(dim=-1)                      # (1, N)
    gamma, sigma = float(m.ln_gamma), torch.sqrt(var + m.cfg.eps)
    law = -float((gamma / sigma * (s * s).sum(dim=-1)).sum())
    assert law == pytest.approx(rate, rel=1e-9) and rate < 0
    g_h = grad[hidden]                                 # (n hidden, D)
    M = descent.metric(m, x[hidden]).detach()          # (n hidden, D, D), autograd
    quad = -float(torch.einsum("ni,nij,nj->", g_h, M, g_h))
    u_hat = (xc / xc.norm(dim=-1, keepdim=True))[hidden]
    along = (u_hat * g_h).sum(dim=-1)                  # (n hidden,)
    assert float((along ** 2 / (g_h * g_h).sum(dim=-1)).median()) > 0.99  # "almost wholly"
    extra = gamma / sigma[hidden] * m.cfg.eps / (var[hidden] + m.cfg.eps) * along ** 2
    assert quad - rate == pytest.approx(-float(extra.sum()), rel=1e-6)
    assert round(100 * (quad - rate) / quad) == share


def test_the_paper_step_grows_the_tokens_and_the_projected_one_does_not():
    """Why the model projects: along dE/dg itself the tokens' spread sigma grows with the
    steps (and g slows as 1 / sigma); along the projected step it stays put once g settles."""
    m = small_model(5)
    x0 = tokens(12)[None]
    spread = {}
    for project in (False, True):
        m.cfg = replace(m.cfg, project=project, alpha=0.05)
        with torch.no_grad():
            x = m.evolve(x0, steps=200)
        spread[project] = float(x.std(dim=-1, unbiased=False).mean() / x0.std(dim=-1, unbiased=False).mean())
    assert spread[False] > 3 * spread[True]
    assert spread[True] < 2


def test_the_eigenvalues_are_the_closed_form_ones():
    m, x = small_model(gamma=0.8), tokens(6)
    D = x.shape[1]
    var = x.var(dim=1, unbiased=False)
    sigma = torch.sqrt(var + SMALL.eps)
    eig = torch.linalg.eigvalsh(descent.metric(m, x)).detach()  # (N, D)
    for n in range(x.shape[0]):
        want = sorted([0.0, float(0.8 / sigma[n] * SMALL.eps / (var[n] + SMALL.eps))]
                      + [float(0.8 / sigma[n])] * (D - 2))
        assert np.allclose(eig[n].numpy(), want, atol=1e-12)
    # the page names the two small ones' directions: (1, ..., 1) has 0, and u = (x - mean) / sigma
    M = descent.metric(m, x).detach()
    ones = torch.ones(x.shape[0], D, dtype=x.dtype)
    assert torch.allclose(m.metric_times(x, ones), torch.zeros_like(ones), atol=1e-12)
    u = (x - x.mean(dim=1, keepdim=True)) / sigma[:, None]
    Mu = torch.einsum("nij,nj->ni", M, u)
    assert torch.allclose(Mu, eig[:, 1:2] * u, atol=1e-12)  # u is the second one's direction
    s = descent.spectrum(m, x)
    assert abs(s["smallest"]) < 1e-12 and s["second"] > 0
    assert s["largest"] == pytest.approx(float((0.8 / sigma).max()))
    assert (s["tokens"], s["dim"]) == (4, 12)


def test_a_negative_gamma_makes_the_metric_negative():
    """The law needs gamma > 0: the page says which sign the learned one has."""
    s = descent.spectrum(small_model(gamma=-0.5), tokens(7))
    assert s["smallest"] < -1e-3


@pytest.mark.parametrize("name", sorted(MODELS))
def test_each_shipped_model_falls_by_the_law_at_every_step(name):
    et = load_pretrained("cpu", MODELS[name])
    assert float(et.model.ln_gamma) > 0
    rng = np.random.default_rng(0)
    img = rng.random((*et.image_size, 3))
    grid = et.cfg.grid
    mask = rng.random((grid, grid)) < 0.5
    out = et.complete(img, mask, steps=30)
    assert out.rates.shape == (31,) and out.tokens.shape == (31, et.cfg.n_patches, et.cfg.dim)
    # never positive beyond float32 rounding: once at rest the law's sum of squares is ~1e-7
    # against 3e5 at the start, and its float32 value can come out +4e-7 (what the page calls
    # zero, sections.rate_noise); while the state moves the rate is clearly negative
    noise = ROUNDING * np.abs(out.rates).max()
    assert np.all(out.rates <= noise) and np.all(out.rates[:4] < -noise)
    # the rates the steps record are the law evaluated afresh on each recorded state
    hidden = torch.from_numpy(mask.reshape(1, -1))  # the settling update moves these only
    again = descent.energy_rate(et.model, torch.from_numpy(out.tokens), hidden).numpy()
    np.testing.assert_allclose(out.rates, again, rtol=1e-4, atol=noise)
    s = descent.spectrum(et.model, out.tokens[30])
    assert abs(s["smallest"]) < 1e-9 and s["second"] >= 0


def test_under_the_papers_update_the_tokens_spread_grows_about_linearly():
    """docs/energy-transformer.md's and the settling text's reason: along dE/dg itself each token's spread
    grows about linearly with the steps (so g, moving at gamma / sigma, keeps slowing and is still creeping long after T)."""
    et = load_pretrained("cpu")
    model = et.model
    saved = model.cfg
    model.cfg = replace(saved, project=False, clamp_visible=False)
    try:
        rng = np.random.default_rng(1)
        img = rng.random((*et.image_size, 3))
        out = et.complete(img, rng.random((et.cfg.grid, et.cfg.grid)) < 0.5, steps=100)
    finally:
        model.cfg = saved
    spread = out.tokens.std(axis=-1).mean(axis=-1)  # (101,)
    assert 1.6 < spread[100] / spread[50] < 2.4 and spread[100] > 10 * spread[0]


def test_a_rise_within_float32_rounding_is_not_called_a_rise():
    """At a fixed point the float32 energy (about 3e4) wiggles by an ulp or two either way: the
    page's warning uses ROUNDING, so only a real rise is flagged."""
    from hopfield_core.analysis import energy_rises

    E = np.float32(-31234.5)
    ulp = abs(float(np.spacing(E)))  # np.spacing is negative for a negative number
    wiggle = np.array([-31100.0, float(E), float(E) + ulp, float(E), float(E) + 2 * ulp])
    assert energy_rises(wiggle).size == 2  # the strict default flags the rounding
    assert energy_rises(wiggle, rtol=ROUNDING).size == 0
    real = np.array([-31400.0, -31300.0, -31200.0])  # +0.3 % a step: a step too large
    assert energy_rises(real, rtol=ROUNDING).tolist() == [1, 2]
