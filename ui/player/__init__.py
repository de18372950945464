"""The player of every page with a run to step through: in the browser (browser, with its
payload in frames), its keys (keyboard), the live view the dynamics pages share (dynamics_view),
the networks' runs (runs) and their frames (player_cache), downloads."""
