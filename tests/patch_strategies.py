"""Hypothesis strategies for JSON patches (RFC 6902), shared by the tests
that throw random patches at the library."""

from typing import Any

from hypothesis import strategies as st

#: Every RFC 6902 operation.
OPERATION_NAMES = ['add', 'remove', 'replace', 'move', 'copy', 'test']


def patch_operations(pointers: list[str],
                     values: st.SearchStrategy[Any]
                     ) -> st.SearchStrategy[dict[str, Any]]:
    """One operation of any kind: its ``path`` (and a ``move``'s or
    ``copy``'s ``from``) drawn from ``pointers``, the ``value`` an
    ``add``, ``replace`` or ``test`` needs from ``values``."""
    @st.composite
    def operation(draw: Any) -> dict[str, Any]:
        name = draw(st.sampled_from(OPERATION_NAMES))
        op = {'op': name, 'path': draw(st.sampled_from(pointers))}
        if name in ('move', 'copy'):
            op['from'] = draw(st.sampled_from(pointers))
        if name in ('add', 'replace', 'test'):
            op['value'] = draw(values)
        return op
    return operation()
