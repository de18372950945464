"""Charts and what stands beside them: pure Plotly builders (figures) in the house style (style),
showing a figure (charts), "Show the numbers" (chart_numbers), tables fitted to their column,
sentences for screen readers (describe), pictures as PNGs and the export files."""
