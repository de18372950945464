import os

from hypothesis import HealthCheck, settings

# Deterministic property tests: the same examples on every machine and every run.
settings.register_profile("ci", derandomize=True, max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Uploads go to a throw-away folder, never the checkout's .uploads/: for the AppTests here and
# for every server a test starts (they inherit the environment).
if not os.environ.get("HOPFIELD_UPLOAD_DIR"):
    import tempfile

    os.environ["HOPFIELD_UPLOAD_DIR"] = tempfile.mkdtemp(prefix="hopfield-uploads-")
