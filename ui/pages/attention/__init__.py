"""The attention page's pieces (the page itself, app_pages/attention.py, is layout):

- `settings`: the page's fields (what a link can set) and its constants;
- `sections`: the parts of the page (controls, the queries and projections they set up, who
  attends to whom, one Hopfield step checked against attention, the iteration);
- `cache`: its computations, shared by every session under tuples of their parameters;
- `explain`: its words (title, captions, explanation, prompts).
"""
