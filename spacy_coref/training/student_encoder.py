"""The encoder a distilled student starts from: the teacher's fine-tuned encoder cut to its lower
layers, on the embeddings of the encoder package.

The student keeps its embeddings frozen and equal to the package's, so a shipped student stores
only the layers it trained (`save_coref_pipeline` writes what differs from the package): the
word embeddings are half of MiniLM's weights. The teacher's lower layers start the student where
the teacher's fine-tuning left them rather than where pre-training did.
"""
from pathlib import Path
from typing import Dict

import torch
from spacy.language import Language

from ..errors import Errors
from ..util import encoder_name


def make_student_encoder(teacher: Language, base: str, layers: int, output: Path) -> Dict[str, int]:
    """Write a Hugging Face encoder directory: `base`'s config and tokenizer with `layers`
    layers, `base`'s embeddings (and pooler), and the teacher encoder's lower `layers` layers.

    teacher (Language): a coreference pipeline with a `transformer` component.
    base (str): the encoder the teacher was fine-tuned from (a name or directory).
    layers (int): how many of the teacher's layers the student keeps, from the bottom.
    output (Path): the directory to write.
    RETURNS (Dict[str, int]): the student's layers and parameters, and how many came from the
        teacher.
    """
    from transformers import AutoConfig, AutoModel, AutoTokenizer

    teacher_encoder = teacher.get_pipe("transformer").model.transformer
    teacher_layers = teacher_encoder.config.num_hidden_layers
    if not 1 <= layers <= teacher_layers:
        raise ValueError(Errors.CE390.format(layers=layers, teacher=teacher_layers))
    path = encoder_name(base)
    base_model = AutoModel.from_pretrained(path)
    config = AutoConfig.from_pretrained(path, num_hidden_layers=layers)
    student = AutoModel.from_config(config)
    base_state = base_model.state_dict()
    teacher_state = teacher_encoder.state_dict()
    state, from_teacher = {}, 0
    for key, value in student.state_dict().items():
        source = teacher_state if key.startswith("encoder.layer.") else base_state
        if key not in source or source[key].shape != value.shape:
            raise ValueError(Errors.CE391.format(key=key))
        state[key] = source[key].detach().float().clone()
        from_teacher += state[key].numel() if source is teacher_state else 0
    student.load_state_dict(state)
    output.mkdir(parents=True, exist_ok=True)
    student.save_pretrained(output)
    AutoTokenizer.from_pretrained(path).save_pretrained(output)
    total = sum(value.numel() for value in state.values())
    return {"layers": layers, "parameters": total, "from_teacher": from_teacher}


@torch.no_grad()
def changed_weights(model: torch.nn.Module, reference: torch.nn.Module) -> Dict[str, torch.Tensor]:
    """The tensors of `model`'s state dict that differ from `reference`'s (or that `reference`
    lacks), detached, in float32."""
    reference_state = reference.state_dict()
    changed = {}
    for key, value in model.state_dict().items():
        ref = reference_state.get(key)
        if ref is None or ref.shape != value.shape or not torch.equal(ref.float(), value.float()):
            changed[key] = value.detach().float().clone()
    return changed
