"""XML request bodies, read as strictly as JSON ones.

WSME's XML reader (``wsme.rest.xml.fromxml``) ignores what it does not
expect: unknown and repeated elements, attributes, text beside elements.
:func:`check_xml` walks the document with the method's types before WSME
reads it and refuses all of those (400), a DTD or entity declarations, and
the fields a version holds in another representation than the newest,
which only a JSON body is converted from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional
from xml.etree import ElementTree

from wsme import types as wtypes

from pecan_microversions.core.version import Version
from pecan_microversions.pecan.errors import APIError
from pecan_microversions.wsme.checking import body_too_deep, json_only
from pecan_microversions.wsme.fields import binding_of

__all__ = ['check_xml']

def check_xml(body: bytes, definition: Any, version: Version) -> None:
    """The XML must parse, have no DTD, and hold nothing WSME's reader
    would drop: every element and attribute is read (WSME ignores unknown
    and repeated elements, text beside elements, attributes)."""
    try:
        root = _tree(body)
        if definition.body_type is not None:
            _xml_value(definition.body_type, root,
                       definition.arguments[-1].name, version)
            return
        arguments = {a.name: a.datatype for a in definition.arguments}
        _xml_members(root, 'the XML body', 'argument', arguments, version,
                     None)
    except _Declared:
        raise APIError('XML bodies with a DTD or entities are refused.',
                       error_code='microversion.invalid_body') from None
    except (ElementTree.ParseError, ValueError) as exc:  # ValueError: an
        # encoding expat does not read (multi-byte ones but UTF-8/16)
        raise APIError(f'The XML body does not parse: {exc}.',
                       error_code='microversion.invalid_body') from None
    except RecursionError:
        raise body_too_deep() from None


class _Declared(Exception):
    pass


class _NoDoctype(ElementTree.TreeBuilder):
    """Builds the tree, refusing a DTD (where entities are declared) as
    soon as expat meets one, in whatever encoding the document is."""

    def doctype(self, *_: Any) -> None:
        raise _Declared


def _tree(body: bytes) -> Any:
    """The XML document's root element, read once."""
    parser = ElementTree.XMLParser(target=_NoDoctype())
    parser.feed(body)
    return parser.close()


def _xml_value(datatype: Any, element: Any, label: str,
               version: Version) -> None:
    """Check ``element``, WSME's XML for a value of ``datatype``."""
    for name in element.attrib:
        if name != 'nil' or element.attrib[name] != 'true':
            raise _xml_error(f'{label!r} has the XML attribute {name}='
                             f'{element.attrib[name]!r}; only nil="true" '
                             'is read.')
    if element.get('nil') == 'true':
        if len(element) or (element.text or '').strip():
            raise _xml_error(f'{label!r} is nil and has content.')
        return
    while isinstance(datatype, wtypes.UserType):
        datatype = datatype.basetype
    if isinstance(datatype, (wtypes.ArrayType, wtypes.DictType)):
        _xml_text(element, label)
        for index, item in enumerate(element):
            here = f'{label}[{index}]'
            if item.tag != 'item':
                raise _xml_error(f'{here!r} is <{item.tag}>, not <item>.')
            _xml_text(item, here, tail=True, value=False)
            if isinstance(datatype, wtypes.ArrayType):
                _xml_value(datatype.item_type, item, here, version)
                continue
            types = {'key': datatype.key_type, 'value': datatype.value_type}
            _xml_members(item, here, 'part', types, version, None)
            if len(item) != 2:
                raise _xml_error(f'{here!r} needs a <key> and a <value>.')
    elif isinstance(datatype, type) and wtypes.iscomplex(datatype):
        _xml_text(element, label)
        binding = binding_of(datatype)
        attributes = wtypes.list_attributes(datatype)
        _xml_members(element, label, 'field',
                     {a.name: a.datatype for a in attributes}, version,
                     None if binding is None
                     else binding.converted[version],
                     frozenset(a.name for a in attributes if a.readonly)
                     if binding is None else binding.readonly[version])
    elif len(element):
        raise _xml_error(f'{label!r} holds a value, not the element '
                         f'<{element[0].tag}>.')


def _xml_members(element: Any, label: str, what: str,
                 datatypes: Mapping[str, Any], version: Version,
                 converted: Optional[frozenset[str]],
                 readonly: frozenset[str] = frozenset()) -> None:
    """Each child of ``element`` names one of ``datatypes``, once, none
    of them ``readonly`` or ``converted`` at ``version``."""
    seen: set[str] = set()
    for child in element:
        name = child.tag
        here = name if label == 'the XML body' else f'{label}.{name}'
        if not isinstance(name, str) or name not in datatypes:
            raise APIError(f'Unknown {what} {here!r} in the XML body.',
                           error_code='microversion.unknown_field')
        if name in seen:
            raise _xml_error(f'{here!r} is given twice.')
        seen.add(name)
        if name in readonly:
            raise APIError(f'Field {here!r} is read-only.',
                           error_code='microversion.read_only_field')
        if (converted is not None and name in converted
                and child.get('nil') != 'true'):  # a null needs no converting
            raise APIError.from_error(json_only(repr(here), version))
        _xml_text(child, here, tail=True, value=False)
        _xml_value(datatypes[name], child, here, version)


def _xml_text(element: Any, label: str, *, tail: bool = False,
              value: bool = True) -> None:
    """Refuse text WSME's reader drops: beside child elements (``value``:
    the element's own text; ``tail``: the text after it)."""
    if value and (element.text or '').strip():
        raise _xml_error(f'{label!r} has text beside its elements.')
    if tail and (element.tail or '').strip():
        raise _xml_error(f'Text follows {label!r}.')


def _xml_error(detail: str) -> APIError:
    return APIError(f'Invalid XML body: {detail}',
                    error_code='microversion.invalid_body')
