"""The side-by-side page's pieces (the page itself, app_pages/side_by_side.py, is layout):

- `settings`: the page's fields (what a link can set);
- `sections`: the parts of the page (controls, the four runs, the query, where each network
  ends, the energies, the summary table);
- `cache`: its figures and verdicts, shared by every session under tuples of their parameters;
- `explain`: its words (title, captions, explanation, prompts and their links).
"""
