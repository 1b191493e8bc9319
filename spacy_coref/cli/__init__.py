"""The `spacy-coref` command line (also `python -m spacy_coref`). One module per command."""
from ._app import app  # noqa: F401

# Importing a command module registers its command on `app`.
from . import convert, stats, score, gap_score, mentions_report, make_corpus  # noqa: F401,E402
from . import evaluate, export_default, demo  # noqa: F401,E402
from . import compare  # noqa: F401,E402
from . import model_card  # noqa: F401,E402
from . import resolve  # noqa: F401,E402
from . import metrics_table, subset, tiny_encoder  # noqa: F401,E402
from . import pretrain, distill  # noqa: F401,E402
from . import benchmark  # noqa: F401,E402
from . import behaviour  # noqa: F401,E402
from . import train  # noqa: F401,E402
from . import word_tags  # noqa: F401,E402
from . import download  # noqa: F401,E402
