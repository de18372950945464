"""The player of every dynamics page: Reset, Step, Run, Play and the scrubber (play), its keys
(keyboard), charts that Play updates (live_charts), the live view the dynamics pages share
(dynamics_view), the networks' runs (runs) and their frames (player_cache), downloads."""
