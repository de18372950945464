"""The dense associative memory page's pieces (the page itself, app_pages/dense.py, is layout):

- `settings`: the page's fields (what a link can set) and the demo it loads;
- `sections`: the parts of the page (the controls, the comparison with the classical network,
  the capacity counts);
- `cache`: cached computations keyed by small parameters; `figures`: its Plotly builders;
- `explain`: its words (title, caption, explanation, prompts and the demo they load).
"""
