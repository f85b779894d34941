"""The `playtest` command line: one module a command group, all on one click group.

May import everything else in the package; nothing imports it.
"""
from .common import main
# each module registers its commands on `main`
from . import agents  # noqa: F401
from . import check  # noqa: F401
from . import diff  # noqa: F401
from . import hunt  # noqa: F401
from . import listing  # noqa: F401
from . import lsp  # noqa: F401
from . import new  # noqa: F401
from . import play  # noqa: F401
from . import printing  # noqa: F401
from . import replay  # noqa: F401
from . import report  # noqa: F401
from . import serve  # noqa: F401
from . import simulate  # noqa: F401
from . import solve  # noqa: F401
from . import strategies  # noqa: F401
from . import tts  # noqa: F401

__all__ = ["main"]
