"""BR_PLACA: vehicle plates, old (ABC-1234) and Mercosul (ABC1D23)."""

from __future__ import annotations

from typing import Final

from presidio_analyzer import Pattern

from recognizers.base import PackPatternRecognizer, bounded

__all__ = ["BrPlacaRecognizer"]

_MERCOSUL: Final = r"[A-Z]{3}[0-9][A-Z][0-9]{2}"
_OLD_DASHED: Final = r"[A-Z]{3}-[0-9]{4}"
_OLD_BARE: Final = r"[A-Z]{3}[0-9]{4}"


class BrPlacaRecognizer(PackPatternRecognizer):
    """Plates, upper case only.  The Mercosul shape counts alone; the old shapes
    (``BRL1000``, ``GRU1234`` and product codes look the same) need a vehicle keyword."""

    ENTITY = "BR_PLACA"
    PATTERNS = (
        Pattern("plate (Mercosul)", bounded(_MERCOSUL), 0.4),
        Pattern("plate (old, dashed)", bounded(_OLD_DASHED), 0.35),
        Pattern("plate (old)", bounded(_OLD_BARE), 0.1),
    )
    PREFILTER = ((_MERCOSUL, 0.4), (_OLD_DASHED, 0.35), (_OLD_BARE, 0.1))
    MAX_LENGTH = 8
    DEFAULT_CONTEXT = ("placa", "veiculo", "carro", "moto", "detran", "multa",
                       "license plate")
