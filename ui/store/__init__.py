"""The pattern store every page shares: presets, uploads kept on disk by content (uploads) within
a per-tab quota (upload_quota), the store as patterns (patterns) and the query (query), the
editors and their keyboard grid, and the shared settings that bind them to the link."""
