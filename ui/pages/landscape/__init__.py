"""The energy-landscape page's parts: settings, the four sections, their cache and figures,
and `explain`, its words (the page's and each section's)."""
