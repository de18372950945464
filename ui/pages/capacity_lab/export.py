"""What the capacity lab lets people take away: CSV files of exactly what each chart plots,
and where the PNGs come from. No Streamlit here."""
from __future__ import annotations

import io

PNG_NOTE = "PNG: the camera button at the top right of each chart."


def curves_csv(results) -> bytes:
    out = io.StringIO()
    out.write("variant,d,trials,flip,params,N,load,success,mean_overlap,stable,guaranteed\n")
    for c in results:
        params = ";".join(f"{k}={v}" for k, v in c.params.items())
        for i, n in enumerate(c.n_patterns):
            out.write(f"{c.variant},{c.d},{c.trials},{c.flip},{params},{n},{n / c.d:.6g},"
                      f"{c.success[i]:.6g},{c.mean_overlap[i]:.6g},{c.stable[i]:.6g},"
                      f"{c.guaranteed[i]:.6g}\n")
    return out.getvalue().encode()


def basins_csv(bm) -> bytes:
    """Rows: flip fractions; columns: numbers of patterns; cells: the fraction recalled."""
    rows = ["flip," + ",".join(str(n) for n in bm.n_patterns)]
    rows += [f"{f}," + ",".join(f"{x:.4g}" for x in bm.success[a]) for a, f in enumerate(bm.flips)]
    return ("\n".join(rows) + "\n").encode()


def phase_csv(pd) -> bytes:
    """Rows: loads (and N); columns: temperatures; cells: the final overlap."""
    rows = ["load,N," + ",".join(f"T={t:g}" for t in pd.temperatures)]
    rows += [f"{a:g},{n}," + ",".join(f"{x:.4g}" for x in pd.overlap[i])
             for i, (a, n) in enumerate(zip(pd.loads, pd.n_patterns))]
    return ("\n".join(rows) + "\n").encode()


def png(name: str) -> dict:
    """Plotly's config for a chart: its camera button downloads name.png at twice the size on
    screen, drawn by the browser (no work for the server)."""
    return {"toImageButtonOptions": {"format": "png", "filename": name, "scale": 2}}
