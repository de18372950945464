"""axe-core (Deque's accessibility engine, vendored in tests/e2e/vendor/axe-core/) run on a page
as it is now: its serious and critical violations. The vendored file is checked against its
sha256 before it is injected: a changed or truncated copy fails rather than giving a silent
partial answer."""
from __future__ import annotations

import hashlib
from pathlib import Path

AXE = Path(__file__).resolve().parents[1] / "e2e" / "vendor" / "axe-core" / "axe.min.js"
AXE_VERSION = "4.14.1"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"
IMPACTS = ("serious", "critical")

RUN_AXE = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.map(v => ({id: v.id, impact: v.impact,
    targets: v.nodes.map(n => n.target.join(' ')),
    why: v.nodes.map(n => (n.failureSummary || '').split('\\n').slice(1, 2).join(' ').trim())}));
}"""


def axe_source() -> str:
    """The vendored axe-core, after its sha256 matched the one recorded for AXE_VERSION."""
    data = AXE.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    assert digest == AXE_SHA256, f"{AXE} is not axe-core {AXE_VERSION} (sha256 {digest})"
    return data.decode("utf-8")


def violations(pg) -> list[dict]:
    """axe's serious and critical violations on the page as it is now."""
    if not pg.evaluate("() => typeof window.axe !== 'undefined'"):
        pg.add_script_tag(content=axe_source())
    found = pg.evaluate(RUN_AXE)
    return [v for v in found if v["impact"] in IMPACTS]


def describe(found: list[dict]) -> str:
    """Each rule, how many elements, and the first few: axe's selector and its reason."""
    return "\n".join(f"{v['id']} ({v['impact']}, {len(v['targets'])} elements)\n" + "\n".join(
        f"    {t[-120:]}\n        {why}" for t, why in list(zip(v["targets"], v["why"]))[:8])
        for v in found)
