"""Prediction questions whose right answer the model computes: a lesson asks a student what a
run will do before it is shown, and the answer is read from the run itself, never typed.

A kind offers its options for the run's setting (the stored patterns' names, whether the update
is synchronous) and reads the right one, with a sentence of what happened, from the finished run.
Every kind's options end with NOT_SURE, and they cover every outcome the run can have (a run
that did not settle within its step limit included), so the right answer is always one of them.

# N patterns, d neurons, T steps
# traj: a Trajectory (states (T+1, d), energies (T+1,), converged, cycle, extras)
"""
from .base import NOT_SURE, NOT_SURE_LABEL, SHOWN_OVERLAPS, Kind, Option, Outcome, compare, with_not_sure
from .beyond import (
                     CAPACITY,
                     HEAD_KIND,
                     HEAD_KIND_LABELS,
                     HELD_OUT_FALLS,
                     LOAD_BINS,
                     RETRIEVERS,
                     SPREAD,
                     SUCCESS,
                     capacity,
                     capacity_options,
                     head_kind,
                     head_kind_options,
                     held_out_falls,
                     held_out_falls_options,
                     retrievers,
                     retrievers_options,
                     spread,
                     spread_options,
)
from .dynamics import (
                     DESTINATION,
                     ERROR_FALLS,
                     FIXED_POINT,
                     FIXED_POINT_LABELS,
                     RISES,
                     destination,
                     destination_of,
                     destination_options,
                     error_falls,
                     error_falls_options,
                     fixed_point,
                     fixed_point_options,
                     rises,
                     rises_options,
)

KINDS = {k.key: k for k in (DESTINATION, RISES, FIXED_POINT, ERROR_FALLS, HELD_OUT_FALLS, SPREAD, RETRIEVERS,
                            HEAD_KIND, CAPACITY)}

__all__ = ["NOT_SURE", "NOT_SURE_LABEL", "SHOWN_OVERLAPS", "Kind", "Option", "Outcome", "compare", "with_not_sure",
           "KINDS", "CAPACITY", "HEAD_KIND", "HEAD_KIND_LABELS", "HELD_OUT_FALLS", "LOAD_BINS", "RETRIEVERS",
           "SPREAD", "SUCCESS", "capacity", "capacity_options", "head_kind", "head_kind_options", "held_out_falls",
           "held_out_falls_options", "retrievers", "retrievers_options", "spread", "spread_options",
           "DESTINATION", "ERROR_FALLS", "FIXED_POINT", "FIXED_POINT_LABELS", "RISES", "destination",
           "destination_of", "destination_options", "error_falls", "error_falls_options", "fixed_point",
           "fixed_point_options", "rises", "rises_options"]
