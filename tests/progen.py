"""The random program generator, for the tests: a re-export of ``vichls.fuzz.progen`` (which
``vichls fuzz`` uses too), so tests keep writing ``import progen``."""

from vichls.fuzz.progen import *  # noqa: F401,F403
from vichls.fuzz.progen import (  # noqa: F401
    DEFAULT_DIRECTIVES,
    DIRECTIVE_KINDS,
    MAX_LOOP_WORK,
    MAX_STATEMENTS,
    TOP,
    TYPES,
    GeneratedProgram,
    args_for,
    build_program,
    generate_program,
    load_program,
    make_args,
    programs,
)
