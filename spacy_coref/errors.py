"""Error and warning messages, in spaCy's style: a code, what was expected, what was found.

Each part of the package owns a range of codes so that work on separate parts does not collide:
CE001-CE049 data formats and conversion, CE050-CE069 scoring, CE070-CE099 mention extraction,
CE100-CE149 the clustering model and pipe, CE150-CE199 CLI, training and packaging.
"""
import warnings


class ErrorsWithCodes(type):
    def __getattribute__(self, code: str) -> str:
        msg = super().__getattribute__(code)
        if code.startswith("__"):  # python system attributes like __class__
            return msg
        return f"[{code}] {msg}"


class DataFormatError(ValueError):
    """Malformed coreference data. The message names the file, the line and what is wrong."""


def warn(message: str) -> None:
    warnings.warn(message, UserWarning, stacklevel=3)


# fmt: off
class Warnings(metaclass=ErrorsWithCodes):
    # data formats and conversion (CW001-CW049)
    # scoring (CW050-CW069)
    # mention extraction (CW070-CW099)
    # clustering model and pipe (CW100-CW149)
    # CLI, training, packaging (CW150-CW199)
    pass


class Errors(metaclass=ErrorsWithCodes):
    # data formats and conversion (CE001-CE049)
    # scoring (CE050-CE069)
    # mention extraction (CE070-CE099)
    # clustering model and pipe (CE100-CE149)
    # CLI, training, packaging (CE150-CE199)
    pass
# fmt: on
