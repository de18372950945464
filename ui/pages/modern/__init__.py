"""The modern continuous network page's pieces (the page itself, app_pages/modern.py, is layout):

- `settings`: the page's fields (what a link can set) and its constants;
- `sections`: the parts of the page (controls, the run's summary, the beta sweep, the
  separation bound, the step-size comparison);
- `cache`: cached computations keyed by small parameters; `figures`: its Plotly builders;
- `explain`: its words (title, caption, explanation, prompts, what the bound says).
"""
