"""Types every metric shares: ``Params``, what every metric's parameters are, over which
the results (``Evaluation``) and the specs are generic. How a family declares its fields,
with help and ranges, is ``metrics.declare.params``."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Protocol


class Params(Protocol):
    """What every metric's parameters are: a frozen dataclass (its fields declared with
    ``param``), read by ``dataclasses.fields`` / ``asdict``. ``MetricSpec`` and
    ``Evaluation`` are generic over it, so code that takes any metric says
    ``MetricSpec[Params]``."""

    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]
