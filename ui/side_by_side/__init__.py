"""The side-by-side page's pieces (the page itself, app_pages/side_by_side.py, is layout):
`settings`, the page's fields (what a link can set)."""
