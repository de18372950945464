"""Home's pieces (the page itself, app_pages/home.py, is layout): `explain`, its prose."""
