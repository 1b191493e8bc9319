"""The accurate pipeline in the benchmark: (e) the floor of its encoder, all-mpnet-base-v2, and
(f) its coref stage on parsed docs.

Opt-in (`spacy-coref benchmark --accurate`): MPNet-base does several times MiniLM's work per
wordpiece, and its encoder is a separate download. What cannot run is skipped with a warning
(CW241 without the encoder, CW242 without the trained pipeline), never silently and never with a
crash: the floor needs only the encoder, so it runs without the pipeline.
"""
import warnings
from pathlib import Path
from typing import Any, Dict, Optional

from ..errors import Warnings
from ..ml.segment_transformer import DEFAULT_MAX_PADDING, DEFAULT_MAX_TOKENS_IN_BATCH

ACCURATE = "accurate"
# (f) in its shipped precision over (e) in float32, per word
TARGET_OVER_FLOOR = 0.85
ENCODER_SYSTEM, COREF_SYSTEM = "accurate_encoder", "accurate_coref"


def accurate_encoder_dir() -> Path:
    """The installed MPNet folder, assembled from its parts if needed (in the parent process, so
    no worker times an assembly). RAISES (PackagedEncoderError): when it is not installed."""
    from ..encoders.mpnet_parts import accurate_encoder_path

    return accurate_encoder_path()


def accurate_pipeline_dir() -> Path:
    """The trained accurate pipeline. RAISES (ValueError): when there is none."""
    from ..pipeline.coref import coref_pipeline_path

    return coref_pipeline_path(ACCURATE)


def pipeline_settings(path: Optional[Path]) -> Dict[str, Any]:
    """The encoder settings the floor and the shipped-precision ratio follow, read from the
    pipeline's config (without building it): its `precision` (None where unknown) and token
    budget. Without a pipeline or a readable config: the package's budget defaults."""
    settings: Dict[str, Any] = {"shipped_precision": None,
                                "max_tokens_in_batch": DEFAULT_MAX_TOKENS_IN_BATCH,
                                "max_padding": DEFAULT_MAX_PADDING}
    if path is None:
        return settings
    from thinc.api import Config

    try:
        model = Config().from_disk(Path(path) / "config.cfg", interpolate=False)
        model = model["components"]["transformer"]["model"]
    except (OSError, KeyError, TypeError, ValueError):
        return settings
    if isinstance(model.get("precision"), str):
        settings["shipped_precision"] = model["precision"]
    for key in ("max_tokens_in_batch", "max_padding"):
        if isinstance(model.get(key), (int, float)) and not isinstance(model.get(key), bool):
            settings[key] = model[key]
    return settings


def find_accurate() -> Dict[str, Any]:
    """What of the accurate pipeline can run here, warning (CW241, CW242) for what cannot.

    RETURNS (Dict[str, Any]): "systems" (the ones to run: "accurate_encoder", "accurate_coref"),
        "encoder_path", "pipeline_path" (str or None), "notes" (the warnings' texts),
        "shipped_precision", its meaning on this machine "shipped_resolved" (None where
        unknown), and the floor's "max_tokens_in_batch" and "max_padding".
    """
    info: Dict[str, Any] = {"systems": [], "encoder_path": None, "pipeline_path": None,
                            "notes": []}
    try:
        encoder = accurate_encoder_dir()
    except OSError as error:  # PackagedEncoderError, or a damaged cache
        _note(info, Warnings.CW241.format(error=" ".join(str(error).split())))
        info.update(pipeline_settings(None), shipped_resolved=None)
        return info
    info["encoder_path"] = str(encoder)
    info["systems"].append(ENCODER_SYSTEM)
    try:
        pipeline: Optional[Path] = accurate_pipeline_dir()
    except (OSError, ValueError) as error:
        pipeline = None
        _note(info, Warnings.CW242.format(error=" ".join(str(error).split())))
    else:
        info["pipeline_path"] = str(pipeline)
        info["systems"].append(COREF_SYSTEM)
    info.update(pipeline_settings(pipeline))
    info["shipped_resolved"] = _resolve(info["shipped_precision"])
    return info


def _resolve(precision: Optional[str]) -> Optional[str]:
    """What the precision means for the workers, which run on the CPU."""
    if precision is None:
        return None
    import torch

    from ..ml.precision import resolve_precision

    try:
        return resolve_precision(precision, torch.device("cpu"))
    except ValueError:
        return None


def _note(info: Dict[str, Any], message: str) -> None:
    info["notes"].append(message)
    warnings.warn(message)
