"""``subnodes`` reads children through a per-type table built from libcst's field
annotations; these tests pin the assumptions the table makes about libcst."""

from __future__ import annotations

import dataclasses
import inspect
import typing

import libcst as cst

from zerograd_guard.lint.extract.names import _child_fields, subnodes


def _node_types() -> list[type]:
    return [
        value
        for value in vars(cst).values()
        if inspect.isclass(value)
        and issubclass(value, cst.CSTNode)
        and dataclasses.is_dataclass(value)
        and not inspect.isabstract(value)
    ]


def test_sequence_fields_hold_only_nodes() -> None:
    """``subnodes`` extends with sequence fields unfiltered: every member type must be a node."""
    for node_type in _node_types():
        annotations = {field.name: field.type for field in dataclasses.fields(node_type)}
        for name, many in _child_fields(node_type):
            if many:
                (item,) = typing.get_args(annotations[name])
                members = typing.get_args(item) or (item,)
                assert all(issubclass(member, cst.CSTNode) for member in members), (
                    node_type.__name__,
                    name,
                )


def test_children_of_an_expression() -> None:
    call = cst.parse_expression("f(a.b, *rest, key=g(1))")
    assert [type(node) for node in subnodes(call)] == [cst.Name, cst.Arg, cst.Arg, cst.Arg]
    keyword = subnodes(call)[3]
    assert [type(node) for node in subnodes(keyword)] == [cst.Call, cst.Name]
    attribute = cst.parse_expression("a.b")
    assert subnodes(attribute) == [attribute.value]  # not the attribute name
