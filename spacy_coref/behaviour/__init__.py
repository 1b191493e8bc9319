"""A behaviour (challenge) suite for coreference: short texts, each probing one skill (binding,
gender, number, speakers, ...) with pairs of mentions that must or must not be in one predicted
cluster. It complements the corpus metrics by saying which kinds of decision a model gets wrong.
"""
from .report import (
    BehaviourReport,
    CategoryScore,
    ConstraintResult,
    ItemResult,
    format_failures,
    format_table,
    run_suite,
)
from .suite import SUITE_PATH, BehaviourItem, load_suite

__all__ = [
    "BehaviourItem",
    "BehaviourReport",
    "CategoryScore",
    "ConstraintResult",
    "ItemResult",
    "SUITE_PATH",
    "format_failures",
    "format_table",
    "load_suite",
    "run_suite",
]
