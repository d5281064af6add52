"""Cost of versioned serialization of a 1000-item collection, side by side.

Two ratios, each from interleaved rounds of the same collection:

* the library's JSON path (:func:`pecan_microversions.wsme.views.encode`,
  the compiled JSON writer of the collection's view, as
  ``versioned_wsexpose`` answers) against ``json.dumps`` of the equivalent
  plain dicts, what a hand-written service would send (target: <= 2);
* WSME's own path (``wsme.rest.json.encode_result``) without and with
  :func:`pecan_microversions.wsme.filtering.filter_response` first, the path
  XML and hand-rolled ``wsexpose`` code still take (target: <= 1.05).

Run: ``python bench/filter_overhead.py [--items 1000] [--rounds 41]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from wsme import types as wtypes
from wsme.rest.json import encode_result

from pecan_microversions import VersionRegistry, filter_response
from pecan_microversions.wsme.fields import versioned, versioned_resource
from pecan_microversions.wsme.views import encode, view

REGISTRY = VersionRegistry('bench', [(f'1.{i}', f'Version {i}.')
                                     for i in range(8)])
VERSION = REGISTRY.versions[3]


@versioned_resource(REGISTRY, 'location')
class Location(wtypes.Base):
    rack = wtypes.text
    row = versioned(int, '1.4')


@versioned_resource(REGISTRY, 'node')
class Node(wtypes.Base):
    uuid = wtypes.text
    name = wtypes.text
    description = versioned(wtypes.text, '1.1')
    location = versioned(Location, '1.2')
    state = wtypes.text
    owner = versioned(wtypes.text, '1.5')
    driver = versioned(wtypes.text, max_version='1.5')
    hardware_type = versioned(wtypes.text, '1.6', replaces='driver')
    extra = {wtypes.text: wtypes.text}
    created_at = wtypes.text


class NodeCollection(wtypes.Base):
    nodes = [Node]
    next = wtypes.text


def make(items: int) -> NodeCollection:
    return NodeCollection(next=None, nodes=[
        Node(uuid=f'uuid-{i}', name=f'node-{i}', description='a node',
             location=Location(rack='r1', row=i % 40), state='active',
             owner='alice', driver='ipmi', extra={'k': 'v'},
             created_at='2026-01-01T00:00:00+00:00')
        for i in range(items)])


def plain(items: int) -> float:
    collection = make(items)
    start = time.perf_counter()
    encode_result(collection, NodeCollection)
    return time.perf_counter() - start


def filtered(items: int) -> float:
    collection = make(items)
    start = time.perf_counter()
    filter_response(collection, VERSION)
    encode_result(collection, NodeCollection)
    return time.perf_counter() - start


def library(items: int) -> float:
    collection = make(items)
    start = time.perf_counter()
    encode(collection, NodeCollection, VERSION)
    return time.perf_counter() - start


def dicts(items: int) -> float:
    data = view(NodeCollection, VERSION)(make(items))
    start = time.perf_counter()
    json.dumps(data)
    return time.perf_counter() - start


def filter_only(items: int) -> float:
    collection = make(items)
    start = time.perf_counter()
    filter_response(collection, VERSION)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--items', type=int, default=1000)
    parser.add_argument('--rounds', type=int, default=41)
    args = parser.parse_args()
    for _ in range(3):  # warm up caches, the filter's plans and the views
        plain(args.items)
        filtered(args.items)
        library(args.items)
    without, with_, alone, ours, hand = [], [], [], [], []
    for _ in range(args.rounds):
        without.append(plain(args.items))
        with_.append(filtered(args.items))
        alone.append(filter_only(args.items))
        ours.append(library(args.items))
        hand.append(dicts(args.items))
    a, b = statistics.median(without), statistics.median(with_)
    c = statistics.median(alone)
    d, e = statistics.median(ours), statistics.median(hand)
    print(f'{args.items}-item collection, {args.rounds} interleaved rounds, '
          f'version {VERSION}, medians:')
    print(f'  json.dumps of the equivalent dicts {e * 1000:8.2f} ms')
    print(f'  library JSON (compiled writer)    {d * 1000:8.2f} ms')
    print(f'  ratio                             {d / e:8.3f}  (target <= 2)')
    print(f'  WSME JSON serialization           {a * 1000:8.2f} ms')
    print(f'  filter_response + serialization   {b * 1000:8.2f} ms')
    print(f'  ratio                             {b / a:8.3f}  (target <= 1.05)')
    print(f'  filter_response alone             {c * 1000:8.2f} ms '
          f'({c / a:.1%} of plain serialization; the filtered output is '
          'smaller, so serializing it is cheaper)')


if __name__ == '__main__':
    main()
