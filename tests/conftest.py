import os

from hypothesis import HealthCheck, settings

# Deterministic property tests: the same examples on every machine and every run.
settings.register_profile("ci", derandomize=True, max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
